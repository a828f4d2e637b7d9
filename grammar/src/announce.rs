//! 報棋: the announcement, word by word (附表七 6.3 and 7.4(2)).
//!
//! A prefix is *possible* when it can still be completed to a designation that names a piece
//! of the side to move standing on the board and a point on the board that this kind of
//! piece could reach by its movement pattern on an empty board. The [`Announcer`] lists every
//! such designation once, so "possible", the touched piece and the remaining completions are
//! all read off the same list. A possible designation may still be illegal in the position:
//! it stays binding (後兩字落子無悔) and is reported as [`Completion::Illegal`].

use baoqi_rules::{Kind, Move, Piece, Point, Position};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::designation::{Designation, Motion, Order, PieceName};
use crate::locate::{self, Impossible, NameError};
use crate::resolve::{Mode, ResolveError};
use crate::unspeakable::Unspeakable;
use crate::words::Word;

/// One possible designation: its four words, the piece it names and where it leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Possible {
    words: [Word; 4],
    from: Point,
}

/// What the fourth word completes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// The designation gives a legal move: it is binding.
    Legal {
        /// The designation.
        designation: Designation,
        /// The move.
        mv: Move,
    },
    /// The designation is possible but illegal in the position: still binding, and goes to
    /// the move check (附表七 6.4, 7.5).
    Illegal {
        /// The designation.
        designation: Designation,
        /// Why it cannot be played.
        why: ResolveError,
    },
}

/// The answer to one word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The word, or `None` when the text was no word of the notation.
    pub word: Option<Word>,
    /// Its place (0..4) in the current attempt.
    pub slot: usize,
    /// Whether the words of this attempt can still be completed (附表七 6.3, 7.4(2)).
    pub possible: bool,
    /// Why the prefix is impossible (`None` when possible).
    pub why: Option<Unspeakable>,
    /// The touched piece (頭兩字摸子走子) once the first two words name exactly one piece.
    pub touched: Option<Point>,
    /// Whether the touched piece has a legal move (if not, 第31–32條 leave the player free).
    pub touched_can_move: bool,
    /// How many four-word designations remain possible.
    pub completions: usize,
    /// After the fourth word: the complete designation and whether it is legal.
    pub complete: Option<Completion>,
}

/// The JSON of an [`Announcer`]: everything but the list of possible designations, which
/// is a function of the position and the mode and is made again when read.
#[derive(Serialize)]
struct SavedRef<'a> {
    pos: &'a Position,
    mode: Mode,
    current: &'a [Word],
    log: &'a [(usize, Option<Word>)],
    attempt: usize,
}

/// [`SavedRef`] as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    pos: Position,
    mode: Mode,
    current: Vec<Word>,
    log: Vec<(usize, Option<Word>)>,
    attempt: usize,
}

impl Serialize for Announcer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SavedRef {
            pos: &self.pos,
            mode: self.mode,
            current: &self.current,
            log: &self.log,
            attempt: self.attempt,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Announcer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Announcer, D::Error> {
        let saved = Saved::deserialize(d)?;
        Ok(Announcer {
            all: all_possible(&saved.pos, saved.mode),
            pos: saved.pos,
            mode: saved.mode,
            current: saved.current,
            log: saved.log,
            attempt: saved.attempt,
        })
    }
}

/// Follows one turn's announcement. An impossible word ends the attempt (the player may
/// start again); a complete designation ends it too. The log keeps every word given.
/// It owns a copy of the position, so a game's state can hold it.
#[derive(Clone, Debug)]
pub struct Announcer {
    pos: Position,
    mode: Mode,
    all: Vec<Possible>,
    current: Vec<Word>,
    log: Vec<(usize, Option<Word>)>,
    attempt: usize,
}

impl Announcer {
    /// Starts the announcement of the side to move in `pos`.
    pub fn new(pos: &Position, mode: Mode) -> Announcer {
        Announcer {
            pos: pos.clone(),
            mode,
            all: all_possible(pos, mode),
            current: Vec::new(),
            log: Vec::new(),
            attempt: 0,
        }
    }

    /// Every word given so far, with the attempt it belonged to (nothing is ever deleted).
    pub fn log(&self) -> &[(usize, Option<Word>)] {
        &self.log
    }

    /// The four-word designations still possible after the words of the current attempt.
    pub fn completions(&self) -> Vec<[Word; 4]> {
        let mut v: Vec<[Word; 4]> = self.matching(&self.current).map(|p| p.words).collect();
        v.dedup();
        v
    }

    /// The words that may come next ("what can I say next"), each once, in a stable order.
    pub fn next_words(&self) -> Vec<Word> {
        let slot = self.current.len() % 4;
        let prefix: &[Word] = if self.current.len() >= 4 {
            &[]
        } else {
            &self.current
        };
        let mut v: Vec<Word> = self.matching(prefix).map(|p| p.words[slot]).collect();
        v.sort_by_key(|&w| word_key(w));
        v.dedup();
        v
    }

    fn matching<'s>(&'s self, prefix: &'s [Word]) -> impl Iterator<Item = &'s Possible> + 's {
        self.all.iter().filter(move |p| p.words.starts_with(prefix))
    }

    /// Feeds one word typed as text (`slot` decides what `+`/`-` mean).
    pub fn push_text(&mut self, text: &str) -> Step {
        let slot = if self.current.len() >= 4 {
            0
        } else {
            self.current.len()
        };
        if let Some(w) = crate::parse::parse_word(text, slot) {
            return self.push(w);
        }
        self.log.push((self.attempt, None));
        self.current.clear();
        self.attempt += 1;
        Step {
            word: None,
            slot,
            possible: false,
            why: Some(Unspeakable::NotAWord {
                text: text.to_owned(),
            }),
            touched: None,
            touched_can_move: false,
            completions: 0,
            complete: None,
        }
    }

    /// Feeds one word.
    pub fn push(&mut self, w: Word) -> Step {
        if self.current.len() >= 4 {
            self.current.clear();
            self.attempt += 1;
        }
        self.log.push((self.attempt, Some(w)));
        self.current.push(w);
        let slot = self.current.len() - 1;
        let completions = self.completions().len();
        let possible = completions > 0;
        let why = (!possible).then(|| self.explain(&self.current));
        let touched = if possible && self.current.len() >= 2 {
            let mut froms = self.matching(&self.current[..2]).map(|p| p.from);
            let first = froms.next();
            first.filter(|&f| froms.all(|g| g == f))
        } else {
            None
        };
        let touched_can_move = touched.is_some_and(|p| !self.pos.legal_moves_from(p).is_empty());
        let complete = if possible && self.current.len() == 4 {
            self.complete()
        } else {
            None
        };
        if !possible {
            self.current.clear();
            self.attempt += 1;
        }
        Step {
            word: Some(w),
            slot,
            possible,
            why,
            touched,
            touched_can_move,
            completions,
            complete,
        }
    }

    fn complete(&self) -> Option<Completion> {
        let ws: [Word; 4] = self.current.clone().try_into().ok()?;
        let designation = Designation::from_words(ws)?;
        Some(match designation.resolve_with(&self.pos, self.mode) {
            Ok(mv) => Completion::Legal { designation, mv },
            Err(why) => Completion::Illegal { designation, why },
        })
    }

    /// Why no designation starts with `ws` (assumes none does).
    fn explain(&self, ws: &[Word]) -> Unspeakable {
        let color = self.pos.turn();
        let Some(name) = ws.get(1).and_then(|&w2| PieceName::from_words(ws[0], w2)) else {
            return self.unnamed(ws);
        };
        let found = match locate::candidates(&self.pos, name) {
            Err(e) => return unnamed_piece(&e, Piece::new(color, name.kind())),
            Ok(v) if v.len() > 1 && self.mode == Mode::Strict => {
                return Unspeakable::Several {
                    piece: Piece::new(color, name.kind()),
                    count: v.len(),
                };
            }
            Ok(v) => v,
        };
        if ws.len() == 2 {
            return Unspeakable::CannotMove;
        }
        let motions: Vec<Motion> = match (ws[2], ws.get(3)) {
            (_, Some(&w4)) => match Motion::from_words(ws[2], w4) {
                Some(m) => vec![m],
                None => return Unspeakable::NotAMotion,
            },
            (Word::Forward | Word::Backward | Word::Across, None) => (1..=9)
                .filter_map(|n| Motion::from_words(ws[2], Word::Numeral(n)))
                .collect(),
            _ => return Unspeakable::NotADirection,
        };
        let errors: Vec<Impossible> = found
            .iter()
            .flat_map(|&p| {
                motions
                    .iter()
                    .filter_map(move |&m| locate::destination(p, color, name.kind(), m).err())
            })
            .collect();
        let best = errors
            .iter()
            .find(|e| {
                !matches!(
                    e,
                    Impossible::FileOutOfReach { .. }
                        | Impossible::SameFile { .. }
                        | Impossible::OneStep { .. }
                )
            })
            .or(errors.first());
        match best {
            Some(e)
                if ws.len() == 4
                    || !matches!(e, Impossible::OffBoard { .. })
                    || errors.len() == motions.len() * found.len() =>
            {
                Unspeakable::Unreachable { reason: *e }
            }
            _ => Unspeakable::CannotComplete,
        }
    }

    /// Why the first words (one, or two that name no piece) start no designation.
    fn unnamed(&self, ws: &[Word]) -> Unspeakable {
        let color = self.pos.turn();
        match ws {
            [Word::Forward | Word::Backward | Word::Across, ..] => Unspeakable::DirectionFirst,
            [Word::Piece(k)] if !self.pos.has_piece(color, *k) => Unspeakable::NoSuchPiece {
                piece: Piece::new(color, *k),
            },
            [Word::Piece(k)] => Unspeakable::SayFrontOrRear {
                piece: Piece::new(color, *k),
            },
            [Word::Numeral(n)] if *n > 5 => Unspeakable::NotAnOrdinal { numeral: *n },
            [_] if Kind::ALL
                .iter()
                .any(|&k| !locate::tandem_files(&self.pos, color, k).is_empty()) =>
            {
                Unspeakable::OrderNamesNone
            }
            [_] => Unspeakable::NoSamePiecesOnAFile,
            _ => Unspeakable::NotAPiece,
        }
    }
}

/// Why a piece name that parses names no piece here.
fn unnamed_piece(e: &NameError, piece: Piece) -> Unspeakable {
    match *e {
        NameError::NoneOnFile { file, .. } => Unspeakable::NoneOnFile { piece, file },
        NameError::NoTandem { .. } => Unspeakable::NoSamePiecesOnAFile,
        NameError::BadOrder { count, .. } => Unspeakable::BadOrder { piece, count },
        NameError::Ambiguous { count, .. } => Unspeakable::Several { piece, count },
    }
}

const ORDERS: [Order; 12] = [
    Order::Front,
    Order::Middle,
    Order::Rear,
    Order::FrontFront,
    Order::FrontRear,
    Order::RearFront,
    Order::RearRear,
    Order::Nth(1),
    Order::Nth(2),
    Order::Nth(3),
    Order::Nth(4),
    Order::Nth(5),
];

/// Every name under which the piece on `from` may be designated in `mode`.
pub(crate) fn names_of(pos: &Position, from: Point, kind: Kind, mode: Mode) -> Vec<PieceName> {
    let file = from.file_number_for(pos.turn());
    let mut names = vec![PieceName::File { kind, file }];
    for order in ORDERS {
        names.push(PieceName::Tandem { kind, order });
        if kind == Kind::Pawn {
            names.push(PieceName::TandemOnFile { order, file });
        }
    }
    names.retain(|&n| {
        let [a, b] = n.words();
        PieceName::from_words(a, b) == Some(n)
            && locate::candidates(pos, n)
                .is_ok_and(|v| v.contains(&from) && (v.len() == 1 || mode == Mode::Lenient))
    });
    names
}

fn all_possible(pos: &Position, mode: Mode) -> Vec<Possible> {
    let color = pos.turn();
    let mut all = Vec::new();
    for from in pos.points_of(color) {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        for name in names_of(pos, from, piece.kind, mode) {
            let [a, b] = name.words();
            for n in 1..=9 {
                for m in [Motion::Forward(n), Motion::Backward(n), Motion::Across(n)] {
                    if locate::destination(from, color, piece.kind, m).is_ok() {
                        let [c, d] = m.words();
                        all.push(Possible {
                            words: [a, b, c, d],
                            from,
                        });
                    }
                }
            }
        }
    }
    all.sort_by_key(|p| (p.words.map(word_key), p.from.index()));
    all
}

fn word_key(w: Word) -> u8 {
    match w {
        Word::Piece(k) => k.index() as u8,
        Word::Numeral(n) => 10 + n,
        Word::Front => 20,
        Word::Middle => 21,
        Word::Rear => 22,
        Word::Forward => 23,
        Word::Backward => 24,
        Word::Across => 25,
    }
}
