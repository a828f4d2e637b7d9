//! How much the keypad says and how fast: board readings grouped and, in the player's own
//! turn, terse; a rate key and a verbosity key; help in short pages, the next one on `.`.

use crate::common;

use baoqi_arbiter::Seat;
use baoqi_audio::{
    Form, HelpPage, Notice, Pieces, Rate, RateSet, Utterance, Verbosity, phrasebook,
};
use baoqi_clients::session::{Output, SessionOptions};
use common::{Table, join, press, said};

fn reading(outs: &[Output]) -> Pieces {
    said(outs)
        .into_iter()
        .find_map(|u| match u {
            Utterance::Client(Notice::Pieces(p)) => Some(p),
            _ => None,
        })
        .expect("a board reading")
}

fn with(verbosity: Verbosity) -> SessionOptions {
    SessionOptions {
        verbosity,
        ..SessionOptions::default()
    }
}

/// The whole position took 57 s, 紅方 and the piece said again for every piece.
/// Each side and each kind is now said once.
#[test]
fn the_whole_position_names_each_side_and_kind_once() {
    let mut t = Table::part6();
    let mut s = join(&t, "red", with(Verbosity::Full));
    let text = reading(&press(&mut s, &mut t, "/7", Seat::Red))
        .phrase()
        .display;
    assert_eq!(text.matches("紅方").count(), 1, "{text}");
    assert_eq!(text.matches("兵").count(), 1, "{text}");
    assert!(
        text.starts_with("紅方：帥五線一排；仕四線一排、六線一排"),
        "{text}"
    );
}

#[test]
fn in_his_own_turn_the_player_hears_numbers_only_and_in_the_opponents_turn_words() {
    // Red moves first: red's clock runs, so red's readings are terse (auto).
    let mut t = Table::part6();
    let mut red = join(&t, "red", SessionOptions::default());
    let own = reading(&press(&mut red, &mut t, "/7", Seat::Red));
    assert_eq!(own.form, Form::Terse);
    assert!(
        own.phrase().display.starts_with("紅方 帥五一 仕四一 六一"),
        "{}",
        own.phrase().display
    );
    // A file's reading leaves the file out: only ranks are said.
    let file = reading(&press(&mut red, &mut t, "/35", Seat::Red));
    assert_eq!(file.phrase().display, "紅方 帥一 兵四。黑方 卒七 將十");
    // Black waits: his reading is full.
    let mut black = join(&t, "black", SessionOptions::default());
    let theirs = reading(&press(&mut black, &mut t, "/35", Seat::Black));
    assert_eq!(theirs.form, Form::Full);
    assert!(theirs.phrase().display.contains("五線"), "{theirs:?}");
}

#[test]
fn the_verbosity_key_cycles_auto_terse_full_and_says_which() {
    let mut t = Table::part6();
    let mut black = join(&t, "black", SessionOptions::default());
    let set = |outs: &[Output]| {
        said(outs).into_iter().find_map(|u| match u {
            Utterance::Client(Notice::VerbositySet(v)) => Some(v),
            _ => None,
        })
    };
    assert_eq!(
        set(&press(&mut black, &mut t, "0*", Seat::Black)),
        Some(Verbosity::Terse)
    );
    // Terse now even while red's clock runs.
    let file = reading(&press(&mut black, &mut t, "/35", Seat::Black));
    assert_eq!(file.form, Form::Terse);
    assert_eq!(
        set(&press(&mut black, &mut t, "0*", Seat::Black)),
        Some(Verbosity::Full)
    );
    assert_eq!(
        set(&press(&mut black, &mut t, "0*", Seat::Black)),
        Some(Verbosity::Auto)
    );
}

#[test]
fn the_rate_keys_change_the_rate_say_so_and_stop_at_the_limits() {
    let mut t = Table::part6();
    let mut s = join(&t, "red", SessionOptions::default());
    let faster = press(&mut s, &mut t, "0+", Seat::Red);
    let want = Rate::new(Rate::DEFAULT.wpm() + Rate::STEP).unwrap();
    assert_eq!(faster.iter().find_map(|o| o.rate), Some(want));
    assert!(said(&faster).contains(&Utterance::Client(Notice::RateSet(RateSet::Faster(want)))));
    let near_max = SessionOptions {
        rate: Rate::MAX,
        ..SessionOptions::default()
    };
    let mut fast = join(&t, "red", near_max);
    let none = press(&mut fast, &mut t, "0+", Seat::Red);
    assert_eq!(none.iter().find_map(|o| o.rate), None, "unchanged");
    assert!(said(&none).contains(&Utterance::Client(Notice::RateSet(RateSet::AtFastest))));
    let slower = press(&mut fast, &mut t, "0-", Seat::Red);
    assert!(slower.iter().any(|o| o.rate.is_some_and(|r| r < Rate::MAX)));
}

#[test]
fn help_comes_in_short_pages_and_dot_says_the_next() {
    let mut t = Table::part6();
    let mut s = join(&t, "red", SessionOptions::default());
    let page = |outs: &[Output]| {
        said(outs).into_iter().find_map(|u| match u {
            Utterance::Client(Notice::Help(p)) => Some(p),
            _ => None,
        })
    };
    assert_eq!(
        page(&press(&mut s, &mut t, "/.", Seat::Red)),
        Some(HelpPage::First)
    );
    let mut pages = vec![HelpPage::First];
    for _ in 0..3 {
        pages.extend(page(&press(&mut s, &mut t, ".", Seat::Red)));
    }
    assert_eq!(
        pages,
        [
            HelpPage::First,
            HelpPage::Second,
            HelpPage::Third,
            HelpPage::Last
        ]
    );
    // The first page names the stop key and how to hear more; the last, the settings keys.
    let first = phrasebook::phrase(&Utterance::Client(Notice::Help(HelpPage::First))).display;
    assert!(
        first.contains("停止朗讀") && first.contains("再按點"),
        "{first}"
    );
    let last = phrasebook::phrase(&Utterance::Client(Notice::Help(HelpPage::Last))).display;
    assert!(last.contains("零加") && last.contains("零星"), "{last}");
}
