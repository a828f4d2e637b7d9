//! What the table client itself says, beside the arbiter's events ([`Notice`]): the prompt
//! after the first key of a two-key sequence, board queries answered by ear, the key map
//! (help), the resignation's confirmation step, commands the server refused, and the
//! connection. Worded in the `[keypad]` section of `phrases/data/phrases.toml`.

use baoqi_rules::Color;

use crate::phrasebook::{Phrase, fill, plain, side};
use crate::pieces::{Pieces, Verbosity, joined};
use crate::ranking::Ranking;
use crate::rate::{Rate, RateSet};
use crate::spoken_time;
use crate::utterance::Urgency;

/// The first key of a two-key sequence was taken; what the second key chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prompt {
    /// `0`: a piece, or 前 / 後 / 中.
    Name,
    /// `/`: a command.
    Command,
    /// `/ 3`: a file.
    File,
    /// `/ 4`: a rank.
    Rank,
    /// `/ 5`: a kind of my pieces.
    Mine,
    /// `/ 6`: a kind of the opponent's pieces.
    Theirs,
}

/// A keypad command that goes to the server, echoed at its key (the player hears what he
/// asked for at once; the server's answer follows, or its refusal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sent {
    /// `/ 1`: both times asked for.
    AskTimes,
    /// `/ 8` with no offer of the opponent standing: a draw offered (69(2)).
    OfferDraw,
    /// `/ 8` with the opponent's offer standing: accepted.
    AcceptDraw,
    /// `/ 9`: the opponent's offer declined.
    DeclineDraw,
    /// `/ +`: the opponent's move is played on one's own board (7.4(2)(g)).
    ConfirmMirror,
    /// `/ *`: the referee called (or asked to announce, 7.4(2)(d)).
    CallReferee,
    /// `/ Enter`: my place in the event's standings asked for.
    AskStanding,
}

/// Where a game stands, for a player who has just (re)joined it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Standing {
    /// The game's stage.
    pub stage: Stage,
    /// The side to move.
    pub to_move: Color,
    /// Whether that is the listener.
    pub you: bool,
    /// The words of the side to move's announcement so far (bound, 6.3(6)(a)).
    pub words: Vec<baoqi_grammar::Word>,
    /// Whether those words are a whole announcement (the clock not yet pressed).
    pub complete: bool,
    /// The opponent's draw offer waiting for the listener's answer.
    pub offer_from: Option<Color>,
    /// How the game ended, for the listener, when it is over.
    pub ended: Option<Box<crate::Utterance>>,
}

/// A game's stage, as said on joining.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The clocks have not started.
    NotStarted,
    /// Being played.
    Playing,
    /// Paused.
    Paused,
    /// Over.
    Over,
}

/// A page of the spoken key map: each under 15 s at the default rate; `.` right after a
/// page says the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HelpPage {
    /// Words, the clock and the stop key.
    First,
    /// 前後中, repeat, times, the opponent's move, files and ranks.
    Second,
    /// Pieces of a kind, the position, draw offers.
    Third,
    /// Resignation, mirroring, the referee, and the speech settings.
    Last,
}

impl HelpPage {
    /// The page after this one, none after the last.
    pub fn next(self) -> Option<HelpPage> {
        match self {
            HelpPage::First => Some(HelpPage::Second),
            HelpPage::Second => Some(HelpPage::Third),
            HelpPage::Third => Some(HelpPage::Last),
            HelpPage::Last => None,
        }
    }

    fn key(self) -> &'static str {
        match self {
            HelpPage::First => "keypad.help_1",
            HelpPage::Second => "keypad.help_2",
            HelpPage::Third => "keypad.help_3",
            HelpPage::Last => "keypad.help_4",
        }
    }
}

/// Why the server refused a command, as the player is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// It is the other side's turn.
    NotYourTurn,
    /// The four words are given and binding (後兩字落子無悔).
    AnnouncementBound,
    /// The move must be made with the touched piece (頭兩字摸子走子, 第31條).
    TouchedPiece,
    /// The game has not started (its clocks not yet started).
    NotStarted,
    /// The game is paused (an adjournment, a restart).
    Paused,
    /// The game is over.
    GameOver,
    /// Not now: something else must come first.
    OutOfOrder,
    /// This seat may not do that.
    NotAllowed,
    /// The table does not answer for now (a federation's node late or gone): the server
    /// joins it again by itself.
    TableAway,
    /// Any other refusal.
    Other,
}

impl Refusal {
    /// What the player hears of the arbiter's rejection.
    pub fn of(r: &baoqi_arbiter::Rejection) -> Refusal {
        use baoqi_arbiter::Rejection as R;
        match r {
            R::NotYourTurn { .. } => Refusal::NotYourTurn,
            R::AnnouncementBound { .. } => Refusal::AnnouncementBound,
            R::TouchedPiece { .. } => Refusal::TouchedPiece,
            R::NotStarted => Refusal::NotStarted,
            R::Paused => Refusal::Paused,
            R::GameOver => Refusal::GameOver,
            R::OutOfOrder { .. } => Refusal::OutOfOrder,
            R::NotAllowed { .. } | R::NoProxy { .. } => Refusal::NotAllowed,
            _ => Refusal::Other,
        }
    }
}

/// Something the client says by itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notice {
    /// The prompt after the first key of a sequence.
    Prompt(Prompt),
    /// `Backspace` dropped the first key of a sequence.
    Cancelled,
    /// The key means nothing here.
    UnknownKey,
    /// Resignation asked for: press `/ 0` again to confirm.
    ConfirmResign,
    /// The resignation was not confirmed.
    ResignCancelled,
    /// A command key, echoed as it is sent.
    Sent(Sent),
    /// The answer to a board query (a file, a rank, pieces of a kind, the whole position).
    Pieces(Pieces),
    /// A page of the key map: the first is short, `.` right after it says the next.
    Help(HelpPage),
    /// The speech rate was changed (`0 +`, `0 -`): the new rate, or that it is at its limit.
    RateSet(RateSet),
    /// The verbosity was changed (`0 *`).
    VerbositySet(Verbosity),
    /// The server refused a command.
    Refused(Refusal),
    /// Joined the table.
    Connected {
        /// The side played (or served, for a proxy).
        side: Color,
        /// Whether this seat is the side's proxy.
        proxy: bool,
    },
    /// Where the game stands, said when a state arrives after joining or reconnecting.
    Standing(Standing),
    /// The connection to the server is lost (commands are not sent until it is back).
    Disconnected,
    /// A key pressed while the connection is down: nothing was sent (a word is not given).
    NotSent,
    /// Nothing to repeat yet.
    Nothing,
    /// Offers, answers and resignations come from the player, not the proxy.
    ProxyMayNot,
    /// The move sensed on the tactile board is not legal there.
    BoardIllegal,
    /// The tactile board shows its position again.
    BoardRestored,
    /// The answer to `/ Enter`: my place in the event's standings, or why there is none.
    Ranking(Ranking),
}

impl Notice {
    /// How urgently it must be heard: verdicts on keys are echoes, answers are readings,
    /// a lost connection is urgent.
    pub fn urgency(&self) -> Urgency {
        match self {
            Notice::Prompt(_) => Urgency::Prompt,
            Notice::Cancelled
            | Notice::UnknownKey
            | Notice::ConfirmResign
            | Notice::ResignCancelled
            | Notice::Sent(_)
            | Notice::Refused(_)
            | Notice::NotSent
            | Notice::RateSet(_)
            | Notice::VerbositySet(_)
            | Notice::BoardIllegal => Urgency::Echo,
            Notice::Disconnected => Urgency::Urgent,
            Notice::Connected { .. } | Notice::Standing(_) | Notice::BoardRestored => Urgency::News,
            Notice::Pieces(_)
            | Notice::Help(_)
            | Notice::Nothing
            | Notice::ProxyMayNot
            | Notice::Ranking(_) => Urgency::Reading,
        }
    }

    /// What is said, in every form.
    pub fn phrase(&self) -> Phrase {
        match self {
            Notice::Prompt(p) => plain(match p {
                Prompt::Name => "keypad.prompt_name",
                Prompt::Command => "keypad.prompt_command",
                Prompt::File => "keypad.prompt_file",
                Prompt::Rank => "keypad.prompt_rank",
                Prompt::Mine => "keypad.prompt_mine",
                Prompt::Theirs => "keypad.prompt_theirs",
            }),
            Notice::Cancelled => plain("keypad.cancelled"),
            Notice::UnknownKey => plain("keypad.unknown_key"),
            Notice::ConfirmResign => plain("keypad.confirm_resign"),
            Notice::ResignCancelled => plain("keypad.resign_cancelled"),
            Notice::Sent(c) => plain(match c {
                Sent::AskTimes => "keypad.sent_ask_times",
                Sent::OfferDraw => "keypad.sent_offer_draw",
                Sent::AcceptDraw => "keypad.sent_accept_draw",
                Sent::DeclineDraw => "keypad.sent_decline_draw",
                Sent::ConfirmMirror => "keypad.sent_confirm_mirror",
                Sent::CallReferee => "keypad.sent_call_referee",
                Sent::AskStanding => "keypad.sent_ask_standing",
            }),
            Notice::Pieces(p) => p.phrase(),
            Notice::Help(page) => plain(page.key()),
            Notice::RateSet(r) => rate_set(*r),
            Notice::VerbositySet(v) => plain(match v {
                Verbosity::Auto => "keypad.verbosity_auto",
                Verbosity::Terse => "keypad.verbosity_terse",
                Verbosity::Full => "keypad.verbosity_full",
            }),
            Notice::Refused(r) => plain(match r {
                Refusal::NotYourTurn => "refused.not_your_turn",
                Refusal::AnnouncementBound => "keypad.refused_bound",
                Refusal::TouchedPiece => "keypad.refused_touched",
                Refusal::NotStarted => "refused.not_started",
                Refusal::Paused => "refused.paused",
                Refusal::GameOver => "keypad.refused_over",
                Refusal::OutOfOrder => "keypad.refused_order",
                Refusal::NotAllowed => "keypad.refused_not_allowed",
                Refusal::TableAway => "conn.table_away",
                Refusal::Other => "keypad.refused",
            }),
            Notice::Connected { side: s, proxy } => fill(
                if *proxy {
                    "keypad.connected_proxy"
                } else {
                    "keypad.connected"
                },
                &[("side", side(*s))],
            ),
            Notice::Standing(st) => standing(st),
            Notice::Disconnected => plain("conn.lost"),
            Notice::NotSent => plain("conn.not_sent"),
            Notice::Nothing => plain("keypad.nothing"),
            Notice::ProxyMayNot => plain("keypad.proxy_may_not"),
            Notice::BoardIllegal => plain("keypad.board_illegal"),
            Notice::BoardRestored => plain("keypad.board_restored"),
            Notice::Ranking(r) => r.phrase(),
        }
    }
}

/// `語速加快：百分之一百一十四` or that the limit is reached.
fn rate_set(r: RateSet) -> Phrase {
    let percent = |rate: Rate| spoken_time::count(rate.percent());
    match r {
        RateSet::Faster(rate) => fill("keypad.rate_faster", &[("percent", &percent(rate))]),
        RateSet::Slower(rate) => fill("keypad.rate_slower", &[("percent", &percent(rate))]),
        RateSet::AtFastest => plain("keypad.rate_fastest"),
        RateSet::AtSlowest => plain("keypad.rate_slowest"),
    }
}

/// `輪到你。你本輪已報「炮二」，報棋未完。對手提和，未回應`: where the game stands.
fn standing(st: &Standing) -> Phrase {
    joined(&standing_parts(st), "keypad.sentence_sep")
}

/// Where the game stands, one sentence a part, what concerns the listener first: the stage
/// or whose turn, the words that bind, an offer to answer. The parts are the phrasebook's
/// shared `summary.*`: the seat page says them in the same words.
pub fn standing_parts(st: &Standing) -> Vec<Phrase> {
    let mut parts = Vec::new();
    match st.stage {
        Stage::Over => {
            let ended = st.ended.as_deref();
            return vec![
                ended.map_or_else(|| plain("keypad.stage_over"), crate::phrasebook::phrase),
            ];
        }
        // 95(3): nobody is to move before the start: black starts the clocks, then red
        // moves (not 「對局未開始，輪到你走」).
        Stage::NotStarted => {
            return vec![plain(if st.you {
                "summary.not_started_first"
            } else {
                "summary.not_started_start"
            })];
        }
        Stage::Paused => parts.push(plain("summary.paused")),
        Stage::Playing => {}
    }
    parts.push(plain(if st.you {
        "summary.turn_you"
    } else {
        "summary.turn_opponent"
    }));
    if !st.words.is_empty() {
        let key = match (st.you, st.complete) {
            (true, true) => "summary.announced",
            (true, false) => "summary.words_so_far",
            (false, _) => "keypad.opponent_words",
        };
        let ws = crate::phrasebook::words(&st.words, st.to_move);
        parts.push(fill(key, &[("move", &ws)]));
    }
    if st.offer_from.is_some() {
        parts.push(plain("summary.offer"));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_before_the_clocks_start_or_while_paused_says_why() {
        // A resignation typed before black had started the clocks was answered
        // 「指令不被接受」 alone: the player could not tell why, nor what to wait for.
        use baoqi_arbiter::Rejection as R;
        assert_eq!(Refusal::of(&R::NotStarted), Refusal::NotStarted);
        assert_eq!(Refusal::of(&R::Paused), Refusal::Paused);
        let said = |r| Notice::Refused(r).phrase().display;
        assert_eq!(said(Refusal::NotStarted), "對局還沒有開始");
        assert_eq!(said(Refusal::Paused), "對局暫停中");
    }

    #[test]
    fn refusals_are_told_apart() {
        let turn = baoqi_arbiter::Rejection::NotYourTurn { side: None };
        assert_eq!(Refusal::of(&turn), Refusal::NotYourTurn);
        let bound = baoqi_arbiter::Rejection::AnnouncementBound {
            words: baoqi_grammar::parse_words("炮二平五").try_into().unwrap(),
        };
        assert_eq!(Refusal::of(&bound), Refusal::AnnouncementBound);
        assert_eq!(
            Refusal::of(&baoqi_arbiter::Rejection::NoOffer),
            Refusal::Other
        );
        assert_ne!(
            Notice::Refused(Refusal::NotYourTurn).phrase().display,
            Notice::Refused(Refusal::Other).phrase().display
        );
    }

    #[test]
    fn a95_3_before_the_start_nobody_is_told_it_is_his_turn() {
        let st = |you| Standing {
            stage: Stage::NotStarted,
            to_move: baoqi_rules::Color::Red,
            you,
            words: vec![],
            complete: false,
            offer_from: None,
            ended: None,
        };
        let red = standing(&st(true)).display;
        let black = standing(&st(false)).display;
        assert_eq!(red, "未開鐘：黑方按鐘後由你先走");
        assert_eq!(black, "未開鐘：由你按鐘開始");
        assert!(!red.contains("輪到你"), "{red}");
    }

    #[test]
    fn verdicts_on_keys_are_echoes_and_a_lost_connection_is_urgent() {
        assert_eq!(Notice::Prompt(Prompt::Name).urgency(), Urgency::Prompt);
        assert_eq!(Notice::Help(HelpPage::First).urgency(), Urgency::Reading);
        assert_eq!(Notice::Disconnected.urgency(), Urgency::Urgent);
    }
}
