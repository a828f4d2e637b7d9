//! The keypad's key map (documented for players in `docs/keypad.md`).
//!
//! Every word of an announcement is reachable in at most two keys:
//!
//! | keys | word |
//! |---|---|
//! | `1`…`9` | the numeral (file, steps or order) |
//! | `+` | 進 (forward) |
//! | `-` | 退 (backward) |
//! | `*` | 平 (across) |
//! | `0 1` … `0 7` | 車 馬 相/象 仕/士 帥/將 炮 兵/卒 |
//! | `0 8` `0 9` `0 0` | 前 後 中 |
//!
//! Speech settings share the `0` key: `0 +` faster, `0 -` slower, `0 *` verbosity (auto,
//! terse, full).
//!
//! Commands: `Enter` presses the clock, `.` repeats the last message, and `/` starts the
//! others: `/1` times, `/2` opponent's last move, `/3 n` file n, `/4 n` rank n, `/5 k` my
//! pieces of kind k, `/6 k` theirs, `/7` whole position, `/8` offer or accept a draw, `/9`
//! decline, `/0` resign (twice to confirm), `/+` mirrored, `/-` repeat the announcement,
//! `/*` call the referee, `/Enter` my place in the event's standings, `/.` help (`.` right
//! after it: the next part), `//` stop speech. `Backspace` cancels a key
//! sequence that is not yet a word (a word once given cannot be withdrawn, 附表七 6.3);
//! with nothing pending it stops speech.
//! A laptop's number row works the same, with `=` for `+`.

use baoqi_grammar::Word;
use baoqi_rules::Kind;

/// One key of a numeric keypad (or the laptop keys that stand for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A digit key 0..=9.
    Digit(u8),
    /// `+` (also `=` on a laptop).
    Plus,
    /// `-`.
    Minus,
    /// `*`.
    Star,
    /// `/`.
    Slash,
    /// `.` (also `,` on some keypads).
    Dot,
    /// `Enter`.
    Enter,
    /// `Backspace`.
    Backspace,
}

impl Key {
    /// The key a character stands for, if any (for scripts and the laptop keyboard).
    pub fn from_char(c: char) -> Option<Key> {
        Some(match c {
            '0'..='9' => Key::Digit(c as u8 - b'0'),
            '+' | '=' => Key::Plus,
            '-' => Key::Minus,
            '*' => Key::Star,
            '/' => Key::Slash,
            '.' | ',' => Key::Dot,
            '\n' | '\r' | 'E' => Key::Enter,
            '\u{8}' | 'B' => Key::Backspace,
            _ => return None,
        })
    }
}

/// A keypad command, answered by the client or sent to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyCommand {
    /// Press the clock (走子及報棋均須完整完成，方可按鐘).
    PressClock,
    /// Ask both times, answered in the order of the rules (6.6 / 7.7).
    AskTimes,
    /// Repeat the opponent's last move.
    RepeatOpponentMove,
    /// Repeat the last message heard.
    RepeatLast,
    /// Read what stands on a file, numbered from the player's right (1..=9).
    ReadFile(u8),
    /// Read what stands on a rank, counted from the player's side (1..=10, `0` is 10).
    ReadRank(u8),
    /// Where my pieces of a kind stand.
    ListMine(Kind),
    /// Where the opponent's pieces of a kind stand.
    ListTheirs(Kind),
    /// Read the whole position.
    ReadPosition,
    /// Offer a draw, or accept the opponent's offer (69(2)).
    OfferOrAcceptDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Resign: the first press asks for confirmation, the second confirms (69(1)).
    Resign,
    /// Repeat the opponent's announcement, for mirroring it (7.4(2)(g)).
    RepeatAnnouncement,
    /// Confirm that the opponent's move is mirrored on my board.
    ConfirmMirror,
    /// Ask the referee to announce for me (7.4(2)(c)–(d)).
    CallReferee,
    /// Ask my place in the event's standings (`/ Enter`).
    AskStanding,
    /// Speak the key map.
    Help,
    /// Stop what is being read (Backspace with nothing pending, or `/ /`).
    StopSpeech,
    /// Speak faster (`0 +`).
    Faster,
    /// Speak slower (`0 -`).
    Slower,
    /// The next verbosity: auto, terse, full (`0 *`).
    NextVerbosity,
}

/// What a key press amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOutcome {
    /// An announcement word, to send to the server at once (binding).
    Word(Word),
    /// A command.
    Command(KeyCommand),
    /// The first key of a two-key sequence; say the prompt.
    Pending(Prefix),
    /// `Backspace` dropped a pending first key.
    Cancelled,
    /// The key means nothing here; say so (nothing was sent).
    Unknown,
}

/// The first key of a two- or three-key sequence: the very prompt the player hears, so the
/// key map and what is said of it cannot drift apart.
pub use baoqi_audio::Prompt as Prefix;

/// The piece kinds in key order `1`..=`7`.
pub const KIND_KEYS: [Kind; 7] = [
    Kind::Rook,
    Kind::Horse,
    Kind::Elephant,
    Kind::Advisor,
    Kind::General,
    Kind::Cannon,
    Kind::Pawn,
];

/// Follows key presses and turns them into words and commands.
#[derive(Clone, Debug, Default)]
pub struct KeyMap {
    pending: Option<Prefix>,
}

impl KeyMap {
    /// A key map with nothing pending.
    pub fn new() -> KeyMap {
        KeyMap::default()
    }

    /// The sequence started and not finished, if any.
    pub fn pending(&self) -> Option<Prefix> {
        self.pending
    }

    /// Feeds one key.
    pub fn press(&mut self, key: Key) -> KeyOutcome {
        if key == Key::Backspace {
            return if self.pending.take().is_some() {
                KeyOutcome::Cancelled
            } else {
                KeyOutcome::Command(KeyCommand::StopSpeech)
            };
        }
        match self.pending.take() {
            None => first_key(key).inspect(|o| {
                if let KeyOutcome::Pending(p) = o {
                    self.pending = Some(*p);
                }
            }),
            Some(prefix) => self.second_key(prefix, key),
        }
        .unwrap_or(KeyOutcome::Unknown)
    }

    fn second_key(&mut self, prefix: Prefix, key: Key) -> Option<KeyOutcome> {
        let symbol = match prefix {
            Prefix::Command => command_symbol(key),
            Prefix::Name => setting_symbol(key),
            _ => None,
        };
        if let Some(command) = symbol {
            return Some(KeyOutcome::Command(command));
        }
        let Key::Digit(d) = key else {
            return None;
        };
        let kind = |d: u8| KIND_KEYS.get(usize::from(d).wrapping_sub(1)).copied();
        Some(match prefix {
            Prefix::Name => KeyOutcome::Word(match d {
                8 => Word::Front,
                9 => Word::Rear,
                0 => Word::Middle,
                _ => Word::Piece(kind(d)?),
            }),
            Prefix::Command => return self.command_key(d),
            Prefix::File if d >= 1 => KeyOutcome::Command(KeyCommand::ReadFile(d)),
            Prefix::Rank => KeyOutcome::Command(KeyCommand::ReadRank(if d == 0 { 10 } else { d })),
            Prefix::Mine => KeyOutcome::Command(KeyCommand::ListMine(kind(d)?)),
            Prefix::Theirs => KeyOutcome::Command(KeyCommand::ListTheirs(kind(d)?)),
            Prefix::File => return None,
        })
    }

    fn command_key(&mut self, d: u8) -> Option<KeyOutcome> {
        let next = |p: Prefix, this: &mut KeyMap| {
            this.pending = Some(p);
            KeyOutcome::Pending(p)
        };
        Some(match d {
            1 => KeyOutcome::Command(KeyCommand::AskTimes),
            2 => KeyOutcome::Command(KeyCommand::RepeatOpponentMove),
            3 => next(Prefix::File, self),
            4 => next(Prefix::Rank, self),
            5 => next(Prefix::Mine, self),
            6 => next(Prefix::Theirs, self),
            7 => KeyOutcome::Command(KeyCommand::ReadPosition),
            8 => KeyOutcome::Command(KeyCommand::OfferOrAcceptDraw),
            9 => KeyOutcome::Command(KeyCommand::DeclineDraw),
            0 => KeyOutcome::Command(KeyCommand::Resign),
            _ => return None,
        })
    }
}

/// `/` followed by a symbol key.
fn command_symbol(key: Key) -> Option<KeyCommand> {
    Some(match key {
        Key::Plus => KeyCommand::ConfirmMirror,
        Key::Minus => KeyCommand::RepeatAnnouncement,
        Key::Star => KeyCommand::CallReferee,
        Key::Enter => KeyCommand::AskStanding,
        Key::Dot => KeyCommand::Help,
        Key::Slash => KeyCommand::StopSpeech,
        _ => return None,
    })
}

/// `0` followed by a symbol key: the speech settings.
fn setting_symbol(key: Key) -> Option<KeyCommand> {
    Some(match key {
        Key::Plus => KeyCommand::Faster,
        Key::Minus => KeyCommand::Slower,
        Key::Star => KeyCommand::NextVerbosity,
        _ => return None,
    })
}

fn first_key(key: Key) -> Option<KeyOutcome> {
    Some(match key {
        Key::Digit(0) => KeyOutcome::Pending(Prefix::Name),
        Key::Digit(d) => KeyOutcome::Word(Word::Numeral(d)),
        Key::Plus => KeyOutcome::Word(Word::Forward),
        Key::Minus => KeyOutcome::Word(Word::Backward),
        Key::Star => KeyOutcome::Word(Word::Across),
        Key::Slash => KeyOutcome::Pending(Prefix::Command),
        Key::Enter => KeyOutcome::Command(KeyCommand::PressClock),
        Key::Dot => KeyOutcome::Command(KeyCommand::RepeatLast),
        Key::Backspace => return None,
    })
}

/// The key sequence that gives `word` (the inverse of the map, for help and tests).
pub fn keys_for(word: Word) -> Vec<Key> {
    match word {
        Word::Numeral(n) => vec![Key::Digit(n)],
        Word::Forward => vec![Key::Plus],
        Word::Backward => vec![Key::Minus],
        Word::Across => vec![Key::Star],
        Word::Front => vec![Key::Digit(0), Key::Digit(8)],
        Word::Rear => vec![Key::Digit(0), Key::Digit(9)],
        Word::Middle => vec![Key::Digit(0), Key::Digit(0)],
        Word::Piece(kind) => {
            let i = KIND_KEYS.iter().position(|k| *k == kind).unwrap_or(0);
            vec![Key::Digit(0), Key::Digit(i as u8 + 1)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press_all(map: &mut KeyMap, keys: &str) -> Vec<KeyOutcome> {
        keys.chars()
            .filter_map(Key::from_char)
            .map(|k| map.press(k))
            .collect()
    }

    #[test]
    fn s7p6_3_every_word_takes_at_most_two_keys() {
        let mut words: Vec<Word> = (1..=9).map(Word::Numeral).collect();
        words.extend([
            Word::Forward,
            Word::Backward,
            Word::Across,
            Word::Front,
            Word::Rear,
            Word::Middle,
        ]);
        words.extend(KIND_KEYS.map(Word::Piece));
        for w in words {
            let keys = keys_for(w);
            assert!(keys.len() <= 2, "{w:?}");
            let mut map = KeyMap::new();
            let last = keys.iter().map(|k| map.press(*k)).last();
            assert_eq!(last, Some(KeyOutcome::Word(w)));
        }
    }

    #[test]
    fn s7p6_3_cannon_two_across_five() {
        let mut map = KeyMap::new();
        let out = press_all(&mut map, "062*5");
        assert_eq!(
            out,
            vec![
                KeyOutcome::Pending(Prefix::Name),
                KeyOutcome::Word(Word::Piece(Kind::Cannon)),
                KeyOutcome::Word(Word::Numeral(2)),
                KeyOutcome::Word(Word::Across),
                KeyOutcome::Word(Word::Numeral(5)),
            ]
        );
    }

    #[test]
    fn backspace_cancels_only_an_unfinished_sequence_and_otherwise_stops_speech() {
        let mut map = KeyMap::new();
        assert_eq!(
            press_all(&mut map, "0B"),
            vec![KeyOutcome::Pending(Prefix::Name), KeyOutcome::Cancelled]
        );
        // A word given is not taken back (6.3(6)(a)): Backspace then only stops speech.
        assert_eq!(
            press_all(&mut map, "5B"),
            vec![
                KeyOutcome::Word(Word::Numeral(5)),
                KeyOutcome::Command(KeyCommand::StopSpeech)
            ]
        );
    }

    #[test]
    fn commands_are_reachable() {
        let mut map = KeyMap::new();
        assert_eq!(
            press_all(&mut map, "/1").last(),
            Some(&KeyOutcome::Command(KeyCommand::AskTimes))
        );
        assert_eq!(
            press_all(&mut map, "/35").last(),
            Some(&KeyOutcome::Command(KeyCommand::ReadFile(5)))
        );
        assert_eq!(
            press_all(&mut map, "/40").last(),
            Some(&KeyOutcome::Command(KeyCommand::ReadRank(10)))
        );
        assert_eq!(
            press_all(&mut map, "/52").last(),
            Some(&KeyOutcome::Command(KeyCommand::ListMine(Kind::Horse)))
        );
        assert_eq!(
            press_all(&mut map, "/61").last(),
            Some(&KeyOutcome::Command(KeyCommand::ListTheirs(Kind::Rook)))
        );
        assert_eq!(
            press_all(&mut map, "E").last(),
            Some(&KeyOutcome::Command(KeyCommand::PressClock))
        );
        assert_eq!(
            press_all(&mut map, ".").last(),
            Some(&KeyOutcome::Command(KeyCommand::RepeatLast))
        );
        assert_eq!(
            press_all(&mut map, "/0").last(),
            Some(&KeyOutcome::Command(KeyCommand::Resign))
        );
        assert_eq!(
            press_all(&mut map, "/+").last(),
            Some(&KeyOutcome::Command(KeyCommand::ConfirmMirror))
        );
        assert_eq!(
            press_all(&mut map, "/-").last(),
            Some(&KeyOutcome::Command(KeyCommand::RepeatAnnouncement))
        );
        assert_eq!(
            press_all(&mut map, "/*").last(),
            Some(&KeyOutcome::Command(KeyCommand::CallReferee))
        );
        assert_eq!(
            press_all(&mut map, "/.").last(),
            Some(&KeyOutcome::Command(KeyCommand::Help))
        );
        assert_eq!(
            press_all(&mut map, "/E").last(),
            Some(&KeyOutcome::Command(KeyCommand::AskStanding))
        );
    }

    #[test]
    fn a_meaningless_second_key_sends_nothing() {
        let mut map = KeyMap::new();
        assert_eq!(
            press_all(&mut map, "0."),
            vec![KeyOutcome::Pending(Prefix::Name), KeyOutcome::Unknown]
        );
        assert_eq!(map.pending(), None);
    }

    #[test]
    fn speech_settings_follow_the_zero_key() {
        let mut map = KeyMap::new();
        let last = |map: &mut KeyMap, keys| press_all(map, keys).last().copied();
        assert_eq!(
            last(&mut map, "0+"),
            Some(KeyOutcome::Command(KeyCommand::Faster))
        );
        assert_eq!(
            last(&mut map, "0-"),
            Some(KeyOutcome::Command(KeyCommand::Slower))
        );
        assert_eq!(
            last(&mut map, "0*"),
            Some(KeyOutcome::Command(KeyCommand::NextVerbosity))
        );
    }
}
