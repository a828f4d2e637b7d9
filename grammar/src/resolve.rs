//! From a [`Designation`] and a position to a move, or a precise reason why not: no such
//! piece, several pieces answer, impossible by the piece's pattern, or possible but illegal.

use baoqi_rules::{IllegalMove, Move, Position};

use crate::designation::Designation;
use crate::locate::{self, Impossible, NameError};
use crate::parse::{self, Notation, ParseError};

/// How strictly the rule text is applied. JSON: `"strict"`, `"lenient"`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// As the rule text says: 前/後 are required when two same pieces share a file
    /// (附表六 1(2)); piece characters must be the mover's (第12條); marks must be true.
    #[default]
    Strict,
    /// As real records are written: the plain form is accepted when two same pieces share a
    /// file if only one of them can make the move; character sets and marks are not checked.
    Lenient,
}

/// Why a designation does not give a move in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// The first two words name no piece, or several.
    #[error(transparent)]
    Name(#[from] NameError),
    /// Strict: the piece character belongs to the other side's set (第12條).
    #[error("{ch} is not a character of {side}'s set (第12條)")]
    WrongCharacter {
        /// The side to move.
        side: char,
        /// The piece character (canonical form of what was written).
        ch: char,
    },
    /// The piece cannot move that way even on an empty board.
    #[error("{name}: {why}")]
    Impossible {
        /// The first two words.
        name: String,
        /// Why.
        why: Impossible,
    },
    /// The designation names a real move of the piece's pattern that is illegal here.
    #[error("{mv} is illegal: {why}")]
    Illegal {
        /// The move designated.
        mv: Move,
        /// Why it cannot be played.
        why: IllegalMove,
    },
    /// Lenient: two pieces share the file and both (or neither) can make the move.
    #[error(
        "{count} pieces answer {name} and {can} of them can make the move; say 前/後 (附表六 1(2))"
    )]
    Ambiguous {
        /// The first two words.
        name: String,
        /// How many answer the name.
        count: usize,
        /// How many could make the move.
        can: usize,
    },
    /// Strict: a mark of 第二部份 that is not true of the move.
    #[error("{mark} is written but the move {what} (附表六 第二部份)")]
    FalseMark {
        /// The mark.
        mark: char,
        /// What the move really does.
        what: &'static str,
    },
}

/// Why a move text gives no move in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not a move in any notation.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The text does not designate a legal move here.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
}

impl Designation {
    /// The move this designation gives in `pos` under the strict reading.
    pub fn resolve(&self, pos: &Position) -> Result<Move, ResolveError> {
        self.resolve_with(pos, Mode::Strict)
    }

    /// The move this designation gives in `pos` under `mode`.
    pub fn resolve_with(&self, pos: &Position, mode: Mode) -> Result<Move, ResolveError> {
        let color = pos.turn();
        if mode == Mode::Strict && !self.spelled_for.allows(color) {
            let ch = baoqi_rules::Piece::new(color.other(), self.name.kind()).chinese();
            return Err(ResolveError::WrongCharacter {
                side: color.chinese(),
                ch,
            });
        }
        let found = locate::candidates(pos, self.name)?;
        let mv = match &*found {
            [from] => self.move_from(pos, *from)?,
            _ if mode == Mode::Strict => {
                return Err(NameError::Ambiguous {
                    piece: baoqi_rules::Piece::new(color, self.name.kind()).chinese(),
                    name: self.name_text(pos.turn()),
                    count: found.len(),
                    hint: "two same pieces on one file are told apart by 前/後 (附表六 1(2))",
                }
                .into());
            }
            _ => {
                let tries: Vec<_> = found.iter().map(|&p| self.move_from(pos, p)).collect();
                let legal: Vec<Move> = tries
                    .iter()
                    .filter_map(|r| r.as_ref().ok().copied())
                    .collect();
                match legal.as_slice() {
                    [mv] => *mv,
                    [] => {
                        return Err(tries
                            .into_iter()
                            .find_map(Result::err)
                            .unwrap_or_else(|| self.ambiguous(pos, found.len(), 0)));
                    }
                    _ => return Err(self.ambiguous(pos, found.len(), legal.len())),
                }
            }
        };
        if mode == Mode::Strict {
            self.check_marks(pos, mv)?;
        }
        Ok(mv)
    }

    fn ambiguous(&self, pos: &Position, count: usize, can: usize) -> ResolveError {
        ResolveError::Ambiguous {
            name: self.name_text(pos.turn()),
            count,
            can,
        }
    }

    fn name_text(&self, color: baoqi_rules::Color) -> String {
        crate::render::words_text(&self.name.words(), color)
    }

    fn move_from(&self, pos: &Position, from: baoqi_rules::Point) -> Result<Move, ResolveError> {
        let to = locate::destination(from, pos.turn(), self.name.kind(), self.motion).map_err(
            |why| ResolveError::Impossible {
                name: self.name_text(pos.turn()),
                why,
            },
        )?;
        let mv = Move::new(from, to);
        pos.check_move(mv)
            .map_err(|why| ResolveError::Illegal { mv, why })?;
        Ok(mv)
    }

    fn check_marks(&self, pos: &Position, mv: Move) -> Result<(), ResolveError> {
        if self.marks.capture && pos.piece_at(mv.to).is_none() {
            return Err(ResolveError::FalseMark {
                mark: '×',
                what: "captures nothing",
            });
        }
        if self.marks.check && !pos.after(mv).is_check() {
            return Err(ResolveError::FalseMark {
                mark: '○',
                what: "gives no check",
            });
        }
        Ok(())
    }
}

impl Notation {
    /// The move this notation gives in `pos` under `mode`.
    pub fn resolve(&self, pos: &Position, mode: Mode) -> Result<Move, ResolveError> {
        match self {
            Notation::Designation(d) => d.resolve_with(pos, mode),
            Notation::Iccs(mv) => {
                pos.check_move(*mv)
                    .map_err(|why| ResolveError::Illegal { mv: *mv, why })?;
                Ok(*mv)
            }
        }
    }
}

/// Reads a move text in any notation and resolves it in `pos`.
pub fn parse_move(pos: &Position, text: &str, mode: Mode) -> Result<Move, NotationError> {
    Ok(parse::parse(text)?.resolve(pos, mode)?)
}

impl NotationError {
    /// A short name of the kind of error, stable for fixtures and scripts (`Illegal`,
    /// `Impossible`, `Ambiguous`, `NoneOnFile`, `UnknownWord`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            NotationError::Parse(e) => match e {
                ParseError::Empty => "Empty",
                ParseError::UnknownWord { .. } => "UnknownWord",
                ParseError::TooShort { .. } => "TooShort",
                ParseError::Trailing { .. } => "Trailing",
                ParseError::BadName { .. } => "BadName",
                ParseError::BadMotion { .. } => "BadMotion",
            },
            NotationError::Resolve(e) => match e {
                ResolveError::Name(NameError::NoneOnFile { .. }) => "NoneOnFile",
                ResolveError::Name(NameError::NoTandem { .. }) => "NoTandem",
                ResolveError::Name(NameError::BadOrder { .. }) => "BadOrder",
                ResolveError::Name(NameError::Ambiguous { .. })
                | ResolveError::Ambiguous { .. } => "Ambiguous",
                ResolveError::WrongCharacter { .. } => "WrongCharacter",
                ResolveError::Impossible { .. } => "Impossible",
                ResolveError::Illegal { .. } => "Illegal",
                ResolveError::FalseMark { .. } => "FalseMark",
            },
        }
    }
}
