//! `/ Enter`: a blind player asks his place in the event's standings and hears it: the key
//! sends `query_standing`, the server's typed `standing` is said
//! (你排第五，四分。第三輪後), a tie as 並列, and an event without standings says so.

use crate::common;

use baoqi_arbiter::Seat;
use baoqi_audio::phrasebook;
use baoqi_audio::{Earcon, HelpPage, Notice, Ranking, Sent, Utterance};
use baoqi_clients::session::{ClientMsg, Input, ServerMsg, SessionOptions};
use baoqi_protocol::{Place, RoundNumber, StandingAnswer};
use common::{Table, join, press, said};

/// The `query_standing` messages sent in some outputs, with their ids.
fn queries(outs: &[baoqi_clients::session::Output]) -> Vec<Option<String>> {
    outs.iter()
        .flat_map(|o| o.send.iter())
        .filter_map(|m| match m {
            ClientMsg::QueryStanding { id } => Some(id.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn fu2_3_slash_enter_asks_the_server_and_the_place_is_said() {
    let mut t = Table::part6();
    let mut s = join(&t, "red", SessionOptions::default());
    let outs = press(&mut s, &mut t, "/E", Seat::Red);
    let ids = queries(&outs);
    assert_eq!(ids.len(), 1, "one query sent: {outs:?}");
    assert!(ids[0].is_some(), "with an id");
    // The key is echoed at once, and the clock is not pressed.
    assert!(said(&outs).contains(&Utterance::Client(Notice::Sent(Sent::AskStanding))));
    assert!(
        outs.iter()
            .all(|o| o.heard.iter().all(|h| h.earcon != Some(Earcon::ClockPress)))
    );
    let answer = ServerMsg::Standing {
        id: ids[0].clone(),
        standing: StandingAnswer::Placed(Place {
            after_round: RoundNumber(3),
            rounds_total: Some(7),
            place: 5,
            shared: false,
            halves: 8,
            players: 8,
        }),
    };
    let heard = s.handle(Input::Server(answer), t.now);
    let told = said(std::slice::from_ref(&heard));
    assert_eq!(
        told,
        vec![Utterance::Client(Notice::Ranking(Ranking::Placed {
            after_round: RoundNumber(3),
            place: 5,
            shared: false,
            halves: 8,
            players: 8,
        }))]
    );
    assert_eq!(
        phrasebook::phrase(&told[0]).display,
        "你排第五，四分。第三輪後，共八人"
    );
    // `.` says it again.
    let again = press(&mut s, &mut t, ".", Seat::Red);
    assert_eq!(said(&again), told);
}

#[test]
fn fu2_3_a_tie_and_no_standings_are_said_in_words() {
    let t = Table::part6();
    let mut s = join(&t, "black", SessionOptions::default());
    let say = |s: &mut baoqi_clients::session::Session, standing| {
        let out = s.handle(Input::Server(ServerMsg::Standing { id: None, standing }), 0);
        said(std::slice::from_ref(&out))
            .iter()
            .map(|u| phrasebook::phrase(u).display)
            .collect::<Vec<_>>()
    };
    let tie = StandingAnswer::Placed(Place {
        after_round: RoundNumber(2),
        rounds_total: None,
        place: 3,
        shared: true,
        halves: 3,
        players: 6,
    });
    assert_eq!(say(&mut s, tie), ["你並列第三，一分半。第二輪後，共六人"]);
    assert_eq!(say(&mut s, StandingAnswer::NoStandings), ["本賽事沒有名次"]);
    assert_eq!(
        say(
            &mut s,
            StandingAnswer::NoRoundFinished {
                rounds_total: Some(5)
            }
        ),
        ["第一輪未完成，未有名次"]
    );
    assert_eq!(
        say(&mut s, StandingAnswer::NotRegistered),
        ["你不在本賽事的名單上"]
    );
}

#[test]
fn the_standing_key_is_in_the_spoken_help_and_a_proxy_may_ask() {
    let last = phrasebook::phrase(&Utterance::Client(Notice::Help(HelpPage::Last))).display;
    assert!(last.contains("斜線輸入鍵名次"), "{last}");
    let mut t = Table::part7_proxy_and_deaf();
    let mut s = join(&t, "red_proxy", SessionOptions::default());
    let outs = press(&mut s, &mut t, "/E", Seat::RedProxy);
    assert_eq!(queries(&outs).len(), 1);
}

#[test]
fn offline_the_standing_key_sends_nothing_and_says_so() {
    let mut t = Table::part6();
    let mut s = join(&t, "red", SessionOptions::default());
    s.handle(Input::Disconnected, 0);
    let outs = press(&mut s, &mut t, "/E", Seat::Red);
    assert!(queries(&outs).is_empty());
    assert!(said(&outs).contains(&Utterance::Client(Notice::NotSent)));
}
