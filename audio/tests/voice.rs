//! The voice thread and its log with speakers that make no sound: policy, time limits,
//! failures, silence; and every request ends with a logged fate.

use std::collections::HashMap;
use std::time::Duration;

use baoqi_audio::{Fate, Phrase, ScriptedSpeaker, SpeakError, Speaker, Urgency, Utterance, Voice};
use baoqi_grammar::Word;
use baoqi_grammar::speech::Lang;
use baoqi_rules::{Color, Kind};

fn scripted(per_char_ms: u64) -> Voice {
    Voice::spawn(Lang::Cmn, move || {
        Ok(Box::new(ScriptedSpeaker::new(Duration::from_millis(per_char_ms))) as Box<dyn Speaker>)
    })
    .unwrap()
}

/// Every request has exactly one final fate after it, and nothing else is logged twice.
fn final_fates(v: &Voice) -> HashMap<u64, Vec<Fate>> {
    let mut m: HashMap<u64, Vec<Fate>> = HashMap::new();
    for e in v.log().entries() {
        m.entry(e.id).or_default().push(e.fate);
    }
    for (id, fates) in &m {
        assert_eq!(fates[0], Fate::Requested, "#{id}: {fates:?}");
        let finals = fates
            .iter()
            .filter(|f| !matches!(f, Fate::Requested | Fate::Interrupted))
            .count();
        assert_eq!(finals, 1, "#{id}: {fates:?}");
    }
    m
}

fn word(k: Kind) -> Utterance {
    Utterance::Word {
        word: Word::Piece(k),
        side: Color::Red,
    }
}

#[test]
fn s7p6_3_each_new_word_echo_cuts_the_previous_one_and_says_so_in_the_log() {
    let v = scripted(100);
    v.say(&word(Kind::Cannon));
    std::thread::sleep(Duration::from_millis(50));
    v.say(&Utterance::Word {
        word: Word::Numeral(2),
        side: Color::Red,
    });
    assert!(v.wait_idle(Duration::from_secs(5)));
    let fates = final_fates(&v);
    assert_eq!(fates[&1].last(), Some(&Fate::Superseded { by: 2 }));
    assert_eq!(fates[&2].last(), Some(&Fate::Spoken));
    assert_eq!(v.log().spoken(), ["二"]);
}

#[test]
fn readings_wait_their_turn_and_are_all_said_in_order() {
    let v = scripted(2);
    let moves: Vec<Utterance> = (1..=5)
        .map(|by| {
            if by % 2 == 0 {
                Utterance::DrawOffered { by: Color::Red }
            } else {
                Utterance::Resigned { by: Color::Black }
            }
        })
        .collect();
    for m in &moves {
        v.say(m);
    }
    assert!(v.wait_idle(Duration::from_secs(5)));
    final_fates(&v);
    assert_eq!(v.log().spoken().len(), 5);
    assert_eq!(v.log().spoken()[1], "對手提和");
    let latencies: Vec<_> = v
        .log()
        .entries()
        .into_iter()
        .filter_map(|e| e.latency)
        .collect();
    assert_eq!(
        latencies.len(),
        5,
        "each spoken item has a request-to-sound latency"
    );
}

/// A speaker that starts and never finishes (a hung speech server).
struct Hung;

impl Speaker for Hung {
    fn name(&self) -> String {
        "hung".into()
    }
    fn start(&mut self, _: &Phrase, _: Lang) -> Result<(), SpeakError> {
        Ok(())
    }
    fn stop(&mut self) {}
    fn busy(&mut self) -> bool {
        true
    }
    fn set_rate(&mut self, _: baoqi_audio::Rate) -> Result<(), SpeakError> {
        Ok(())
    }
    fn max_duration(&self, _: &Phrase, _: Lang) -> Duration {
        Duration::from_millis(100)
    }
}

#[test]
fn a_hung_speaker_is_given_up_after_the_items_time_limit() {
    let v = Voice::spawn(Lang::Yue, || Ok(Box::new(Hung) as Box<dyn Speaker>)).unwrap();
    v.say(&impossible());
    v.say(&Utterance::Resigned { by: Color::Red });
    assert!(v.wait_idle(Duration::from_secs(2)), "{}", v.log().to_text());
    let fates = final_fates(&v);
    assert_eq!(fates[&1].last(), Some(&Fate::TimedOut));
    assert_eq!(fates[&2].last(), Some(&Fate::TimedOut));
}

/// A speaker that cannot say anything.
struct Broken;

impl Speaker for Broken {
    fn name(&self) -> String {
        "broken".into()
    }
    fn start(&mut self, _: &Phrase, _: Lang) -> Result<(), SpeakError> {
        Err(SpeakError::Dispatcher("no audio".into()))
    }
    fn stop(&mut self) {}
    fn busy(&mut self) -> bool {
        false
    }
    fn set_rate(&mut self, _: baoqi_audio::Rate) -> Result<(), SpeakError> {
        Err(SpeakError::Dispatcher("no rate either".into()))
    }
}

#[test]
fn failures_are_logged_not_swallowed() {
    let v = Voice::spawn(Lang::Yue, || Ok(Box::new(Broken) as Box<dyn Speaker>)).unwrap();
    v.say(&impossible());
    assert!(v.wait_idle(Duration::from_secs(2)));
    let fates = final_fates(&v);
    assert_eq!(
        fates[&1].last(),
        Some(&Fate::Failed("speech-dispatcher: no audio".into()))
    );
    assert!(Voice::spawn(Lang::Yue, || Err(SpeakError::Dispatcher("absent".into()))).is_err());
}

#[test]
fn silence_empties_the_queue_and_logs_each_item() {
    let v = scripted(200);
    for _ in 0..3 {
        v.say_phrase(
            Phrase::new("長讀", "coeng4 duk6", "chang2 du2"),
            Urgency::Reading,
        );
    }
    std::thread::sleep(Duration::from_millis(50));
    v.silence();
    assert!(v.wait_idle(Duration::from_secs(2)), "{}", v.log().to_text());
    let fates = final_fates(&v);
    assert!(
        fates.values().all(|f| f.last() == Some(&Fate::Silenced)),
        "{fates:?}"
    );
}

/// The whole position (a long reading) was being read when the opponent moved; the move was
/// heard 48 s later. Now the move cuts the reading at once, and the reading is not started
/// again by itself.
#[test]
fn the_opponents_move_cuts_a_long_reading_at_once_and_the_reading_is_not_restarted() {
    use baoqi_audio::{Notice, PieceAt, Pieces};
    use baoqi_rules::Piece;
    let v = scripted(20);
    let list: Vec<PieceAt> = (1..=9)
        .map(|file| PieceAt {
            piece: Piece::new(Color::Black, Kind::Pawn),
            file,
            rank: 4,
        })
        .collect();
    v.say(&Utterance::Client(Notice::Pieces(Pieces::full(list))));
    std::thread::sleep(Duration::from_millis(100));
    let moved = Utterance::Move {
        side: Color::Black,
        words: vec![
            Word::Piece(Kind::Horse),
            Word::Numeral(8),
            Word::Forward,
            Word::Numeral(7),
        ],
        captured: None,
        check: false,
    };
    v.say(&moved);
    assert!(v.wait_idle(Duration::from_secs(10)));
    let fates = final_fates(&v);
    assert_eq!(fates[&1].last(), Some(&Fate::Cut { by: 2 }), "{fates:?}");
    assert_eq!(fates[&2].last(), Some(&Fate::Spoken));
    assert_eq!(
        v.log().spoken(),
        ["黑方 馬８進７"],
        "the reading is said once, never again"
    );
    let waited = v
        .log()
        .entries()
        .iter()
        .find(|e| e.id == 2 && e.fate == Fate::Requested)
        .and_then(|e| e.ahead);
    assert_eq!(waited, Some(0), "nothing was said before the move");
}

/// The stop key silences a reading; what was asked later is said.
#[test]
fn the_stop_key_stops_a_reading_and_logs_it() {
    let v = scripted(50);
    v.say(&Utterance::Client(baoqi_audio::Notice::Help(
        baoqi_audio::HelpPage::First,
    )));
    std::thread::sleep(Duration::from_millis(50));
    v.stop();
    v.say(&word(Kind::Rook));
    assert!(v.wait_idle(Duration::from_secs(5)));
    let fates = final_fates(&v);
    assert_eq!(fates[&1].last(), Some(&Fate::Stopped));
    assert_eq!(v.log().spoken(), ["俥"]);
}

/// An impossible prefix of red's: something short to say.
fn impossible() -> Utterance {
    Utterance::Impossible {
        words: vec![baoqi_grammar::Word::Piece(baoqi_rules::Kind::Horse)],
        side: Color::Red,
    }
}
