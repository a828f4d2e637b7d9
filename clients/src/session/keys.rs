//! What each key of the keypad does in a session (`docs/keypad.md`): a word is echoed at
//! once and sent (binding, 每一字不得反悔); a command is sent to the server or answered from
//! the local table (board queries, the last move, the last message, help); `/ Enter` asks the
//! server for the player's place in the event's standings.

use baoqi_arbiter::Command;
use baoqi_arbiter::Phase;
use baoqi_audio::{Along, Earcon, Form, HelpPage, Notice, PieceAt, Pieces, Sent, Utterance};
use baoqi_grammar::Word;
use baoqi_rules::Color;

use super::machine::{Output, Session};
use crate::keypad::queries::{self, Seen};
use crate::keypad::{Key, KeyCommand, KeyMap, KeyOutcome, Prefix};

/// Feeds one key.
pub(super) fn key(s: &mut Session, key: Key, now: u64, out: &mut Output) {
    let outcome = s.keymap.press(key);
    let confirming = matches!(
        outcome,
        KeyOutcome::Command(KeyCommand::Resign) | KeyOutcome::Pending(Prefix::Command)
    );
    if s.resign_until.is_some() && !confirming {
        // Any other key than `/ 0` takes the resignation back, and does nothing else: a
        // player who cancels with Enter must not press his clock (69(1) asks for a clear
        // will; the cancel key is no command).
        s.resign_until = None;
        s.keymap = KeyMap::new();
        out.say(None, Utterance::Client(Notice::ResignCancelled));
        return;
    }
    match outcome {
        KeyOutcome::Word(w) => word(s, w, out),
        KeyOutcome::Command(c) => command(s, c, now, out),
        KeyOutcome::Pending(p) => out.say(Some(Earcon::Key), Utterance::Client(Notice::Prompt(p))),
        KeyOutcome::Cancelled => out.say(None, Utterance::Client(Notice::Cancelled)),
        KeyOutcome::Unknown => out.say(Some(Earcon::Error), Utterance::Client(Notice::UnknownKey)),
    }
}

/// A word: echoed at once, then sent as a word, or as a repeat word when a repeat is owed.
fn word(s: &mut Session, w: Word, out: &mut Output) {
    let (Some(me), true) = (s.me, s.is_connected()) else {
        // Never echoed as if given: the word binds only once the server has it.
        out.say(Some(Earcon::Error), Utterance::Client(Notice::NotSent));
        return;
    };
    // A repeat is written as the mover writes it (the opponent's, when mirroring).
    let repeat = s.repeat_owed();
    let writer = repeat.as_ref().map_or(me, |r| r.mover);
    out.say(
        Some(Earcon::Key),
        Utterance::Word {
            word: w,
            side: writer,
        },
    );
    let text = Session::word_text(w, writer);
    let command = if repeat.is_some() {
        Command::RepeatWord { text }
    } else {
        Command::Word { text }
    };
    s.send(command, out);
}

fn seen(list: &[Seen], form: Form, along: Along) -> Notice {
    Notice::Pieces(Pieces {
        list: list.iter().copied().map(PieceAt::from).collect(),
        form,
        along,
    })
}

fn command(s: &mut Session, c: KeyCommand, now: u64, out: &mut Output) {
    let me = s.me.unwrap_or(Color::Red);
    match c {
        KeyCommand::PressClock => {
            if s.send(Command::PressClock, out) {
                out.heard.push(baoqi_audio::from_event::Heard {
                    earcon: Some(Earcon::ClockPress),
                    say: Vec::new(),
                });
            }
        }
        KeyCommand::AskTimes => send_echoed(s, Command::QueryTime, Sent::AskTimes, out),
        KeyCommand::RepeatOpponentMove => {
            let last = s.table.as_ref().and_then(|t| t.last_move_of(me.other()));
            let u = last.map_or(Utterance::Client(Notice::Nothing), |m| {
                Session::move_utterance(m.side, &m.mv.words, m.mv.captured, m.mv.check)
            });
            out.say(None, u);
        }
        KeyCommand::RepeatLast => {
            let u = s
                .last_message
                .clone()
                .map_or(Utterance::Client(Notice::Nothing), |u| live(s, u, now));
            out.say(None, u);
        }
        KeyCommand::Help => out.notice(None, Notice::Help(HelpPage::First)),
        KeyCommand::Faster | KeyCommand::Slower => {
            let set = if c == KeyCommand::Faster {
                s.rate.faster()
            } else {
                s.rate.slower()
            };
            if let Some(rate) = set.rate() {
                s.rate = rate;
                out.rate = Some(rate);
            }
            out.notice(Some(Earcon::Key), Notice::RateSet(set));
        }
        KeyCommand::NextVerbosity => {
            s.verbosity = s.verbosity.next();
            out.notice(Some(Earcon::Key), Notice::VerbositySet(s.verbosity));
        }
        KeyCommand::ReadFile(_)
        | KeyCommand::ReadRank(_)
        | KeyCommand::ListMine(_)
        | KeyCommand::ListTheirs(_)
        | KeyCommand::ReadPosition => query(s, c, me, out),
        KeyCommand::OfferOrAcceptDraw | KeyCommand::DeclineDraw | KeyCommand::Resign if s.proxy => {
            out.say(Some(Earcon::Error), Utterance::Client(Notice::ProxyMayNot));
        }
        KeyCommand::OfferOrAcceptDraw => {
            let theirs = s
                .table
                .as_ref()
                .and_then(|t| t.offer)
                .is_some_and(|(side, _)| side != me);
            if theirs {
                send_echoed(s, Command::AcceptDraw, Sent::AcceptDraw, out);
            } else {
                send_echoed(s, Command::OfferDraw, Sent::OfferDraw, out);
            }
        }
        KeyCommand::DeclineDraw => send_echoed(s, Command::DeclineDraw, Sent::DeclineDraw, out),
        KeyCommand::Resign => {
            if s.resign_until.take().is_some() {
                s.send(Command::Resign, out);
            } else {
                s.resign_until = Some(now + s.opts.resign_window_ms);
                out.say(
                    Some(Earcon::Alert),
                    Utterance::Client(Notice::ConfirmResign),
                );
            }
        }
        KeyCommand::RepeatAnnouncement => repeat_announcement(s, me, out),
        KeyCommand::ConfirmMirror => {
            send_echoed(s, Command::ConfirmRepeat, Sent::ConfirmMirror, out);
        }
        KeyCommand::CallReferee => send_echoed(s, Command::Signal, Sent::CallReferee, out),
        KeyCommand::AskStanding => {
            echo(s, Sent::AskStanding, out);
            s.ask_standing(out);
        }
        KeyCommand::StopSpeech => out.stop_speech = true,
    }
}

/// A message to repeat, its times read again from the live clock (a time repeated must be
/// the time now, not when it was first said); after a page of help, the next page.
fn live(s: &Session, u: Utterance, now: u64) -> Utterance {
    match (u, s.table.as_ref()) {
        (Utterance::Client(Notice::Help(page)), _) => {
            Utterance::Client(Notice::Help(page.next().unwrap_or(HelpPage::First)))
        }
        (
            Utterance::Times {
                reason,
                mut first,
                mut second,
                me,
            },
            Some(t),
        ) => {
            for st in [&mut first, &mut second] {
                st.left = std::time::Duration::from_millis(t.remaining(st.side, now));
            }
            Utterance::Times {
                reason,
                first,
                second,
                me,
            }
        }
        (u, _) => u,
    }
}

/// Says the command at once (the player hears what his keys asked for), then sends it; when
/// it cannot be sent, the send says why instead.
fn send_echoed(s: &mut Session, command: Command, sent: Sent, out: &mut Output) {
    echo(s, sent, out);
    s.send(command, out);
}

/// Says a command key back, when what it asks can be sent.
fn echo(s: &Session, sent: Sent, out: &mut Output) {
    if s.is_connected() && s.me.is_some() {
        out.say(Some(Earcon::Key), Utterance::Client(Notice::Sent(sent)));
    }
}

/// Board queries, answered from the local table (no round trip).
fn query(s: &Session, c: KeyCommand, me: Color, out: &mut Output) {
    let Some(t) = s.table.as_ref() else {
        out.say(None, Utterance::Client(Notice::Nothing));
        return;
    };
    let pos = &t.position;
    let (list, along) = match c {
        KeyCommand::ReadFile(n) => (queries::file(pos, me, n), Along::File),
        KeyCommand::ReadRank(n) => (queries::rank(pos, me, n), Along::Rank),
        KeyCommand::ListMine(k) => (queries::pieces(pos, me, me, k), Along::Anywhere),
        KeyCommand::ListTheirs(k) => (queries::pieces(pos, me, me.other(), k), Along::Anywhere),
        _ => (queries::whole(pos, me), Along::Anywhere),
    };
    // Terse while the asker's own clock runs (auto), or as he chose.
    let own_turn = t.phase == Phase::Playing && t.to_move == me;
    let form = s.verbosity.form(own_turn);
    out.say(None, Utterance::Client(seen(&list, form, along)));
}

/// The announcement to repeat (a repeat owed), else the opponent's last announcement.
fn repeat_announcement(s: &Session, me: Color, out: &mut Output) {
    if let Some(r) = s.repeat_owed() {
        let words = r.words.to_vec();
        out.say(
            None,
            Utterance::RepeatDue {
                mover: r.mover,
                words,
                mirror: r.mirror,
            },
        );
        return;
    }
    let theirs = s.table.as_ref().and_then(|t| {
        let i = usize::from(me.other() == Color::Black);
        t.announced[i]
    });
    let u = theirs.map_or(Utterance::Client(Notice::Nothing), |w| {
        Session::move_utterance(me.other(), &w, None, false)
    });
    out.say(None, u);
}
