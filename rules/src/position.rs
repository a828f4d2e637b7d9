//! A [`Position`] is always legal: one general each in its palace, every piece on a point its
//! kind can reach, and the side that just moved not in check (第30條).

use std::fmt;

use crate::setup::Setup;
use crate::tables::{ZOBRIST, ZOBRIST_BLACK};
use crate::types::{Color, Kind, Move, Piece, Point};

/// A legal position: the pieces, the side to move and the counters.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [u8; Point::COUNT],
    pub(crate) occ: [u128; 2],
    pub(crate) generals: [u8; 2],
    pub(crate) turn: Color,
    pub(crate) hash: u64,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
}

/// What [`Position::make`] returns so that [`Position::unmake`] can take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    halfmoves: u32,
}

impl Undo {
    /// The piece the move captured (吃子), if any.
    pub fn captured(self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no general or more than one.
    #[error("{side} has {count} generals; each side has exactly one (第12條)")]
    GeneralCount {
        /// The side, as 紅/黑.
        side: char,
        /// How many were found.
        count: usize,
    },
    /// A side has more pieces of a kind than a set holds.
    #[error("{side} has {count} pieces of kind {kind:?}; a set has at most {max} (第12條)")]
    TooMany {
        /// The side.
        side: char,
        /// The kind.
        kind: Kind,
        /// How many were found.
        count: usize,
        /// The most a set holds.
        max: usize,
    },
    /// A piece stands where its kind can never go.
    #[error("{piece} on {point} stands where it can never go ({why})")]
    Unreachable {
        /// The piece's character.
        piece: char,
        /// The point, ICCS.
        point: Point,
        /// The article that forbids it.
        why: &'static str,
    },
    /// The side that is not to move is in check, or the generals face each other.
    #[error("the side not to move ({0}) is in check or the generals face each other (第30條)")]
    OpponentInCheck(char),
}

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The origin point is empty.
    #[error("there is no piece on {0}")]
    NoPiece(Point),
    /// The piece on the origin belongs to the other side.
    #[error("the piece on {0} is not the side to move's")]
    NotYours(Point),
    /// The piece cannot reach the destination by its movement rule.
    #[error("{piece} on {from} cannot move to {to} (第5章)")]
    Pattern {
        /// The piece's character.
        piece: char,
        /// Origin.
        from: Point,
        /// Destination.
        to: Point,
    },
    /// The move would leave or put its own general in check, or make the generals face.
    #[error("{0} would leave the mover's general attacked or facing the other general (第30條)")]
    SelfCheck(Move),
}

const MAX_COUNT: [usize; 7] = [1, 2, 2, 2, 2, 2, 5];

impl Position {
    /// The start position (第17條).
    pub fn start() -> Position {
        Position::from_setup(&Setup::default()).expect("the start position is legal")
    }

    /// Checks a setup and makes it a position.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position {
            board: [0; Point::COUNT],
            occ: [0; 2],
            generals: [0; 2],
            turn: setup.turn,
            hash: 0,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        };
        let mut counts = [[0usize; 7]; 2];
        for p in Point::all() {
            if let Some(piece) = setup.board[p.index()] {
                check_placement(piece, p)?;
                counts[piece.color.index()][piece.kind.index()] += 1;
                pos.put(p.index(), piece.code());
                if piece.kind == Kind::General {
                    pos.generals[piece.color.index()] = p.index() as u8;
                }
            }
        }
        for color in Color::ALL {
            let side = color.chinese();
            let g = counts[color.index()][0];
            if g != 1 {
                return Err(PositionError::GeneralCount { side, count: g });
            }
            for kind in Kind::ALL {
                let count = counts[color.index()][kind.index()];
                let max = MAX_COUNT[kind.index()];
                if count > max {
                    return Err(PositionError::TooMany {
                        side,
                        kind,
                        count,
                        max,
                    });
                }
            }
        }
        if setup.turn == Color::Black {
            pos.hash ^= ZOBRIST_BLACK;
        }
        if pos.general_attacked(setup.turn.other()) {
            return Err(PositionError::OpponentInCheck(setup.turn.other().chinese()));
        }
        Ok(pos)
    }

    /// The position as a setup (for FEN and editing).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for p in Point::all() {
            setup.board[p.index()] = self.piece_at(p);
        }
        setup.turn = self.turn;
        setup.halfmoves = self.halfmoves;
        setup.fullmoves = self.fullmoves;
        setup
    }

    /// The FEN of the position.
    pub fn fen(&self) -> String {
        self.to_setup().fen()
    }

    /// The piece on `p`, if any.
    #[inline]
    pub fn piece_at(&self, p: Point) -> Option<Piece> {
        Piece::from_code(self.board[p.index()])
    }

    /// Whose turn it is.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Where `color`'s general stands.
    #[inline]
    pub fn general(&self, color: Color) -> Point {
        Point::from_index_unchecked(self.generals[color.index()] as usize)
    }

    /// A 64-bit Zobrist key of the pieces and the side to move (盤面, 第3條): equal
    /// positions have equal keys.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (starts at 1, grows after black's move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Every point holding a piece of `color`, in index order.
    pub fn points_of(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        BitIter(self.occ[color.index()]).map(Point::from_index_unchecked)
    }

    /// Every point holding `piece`, in index order.
    pub fn points_of_piece(&self, piece: Piece) -> impl Iterator<Item = Point> + '_ {
        let code = piece.code();
        self.points_of(piece.color)
            .filter(move |p| self.board[p.index()] == code)
    }

    /// Whether the side to move is in check (被照着), counting facing generals.
    pub fn is_check(&self) -> bool {
        self.general_attacked(self.turn)
    }

    #[inline]
    fn put(&mut self, sq: usize, code: u8) {
        self.board[sq] = code;
        let color = (code - 1) / 7;
        self.occ[color as usize] |= 1u128 << sq;
        self.hash ^= ZOBRIST[code as usize][sq];
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]) and returns what
    /// [`Position::unmake`] needs. Playing an illegal move leaves a position that breaks
    /// the invariants; use [`Position::play`] for untrusted input.
    #[inline]
    pub fn make(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from.index(), m.to.index());
        let code = self.board[from];
        let captured = self.board[to];
        let us = self.turn.index();
        let undo = Undo {
            captured,
            halfmoves: self.halfmoves,
        };
        if captured != 0 {
            self.occ[1 - us] &= !(1u128 << to);
            self.hash ^= ZOBRIST[captured as usize][to];
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        self.board[to] = code;
        self.board[from] = 0;
        self.occ[us] ^= (1u128 << from) | (1u128 << to);
        self.hash ^= ZOBRIST[code as usize][from] ^ ZOBRIST[code as usize][to] ^ ZOBRIST_BLACK;
        if code == Piece::new(self.turn, Kind::General).code() {
            self.generals[us] = to as u8;
        }
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = self.turn.other();
        undo
    }

    /// Takes back `m`, which must be the last move made with [`Position::make`].
    #[inline]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        self.turn = self.turn.other();
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        let (from, to) = (m.from.index(), m.to.index());
        let code = self.board[to];
        let us = self.turn.index();
        self.board[from] = code;
        self.board[to] = undo.captured;
        self.occ[us] ^= (1u128 << from) | (1u128 << to);
        self.hash ^= ZOBRIST[code as usize][from] ^ ZOBRIST[code as usize][to] ^ ZOBRIST_BLACK;
        if undo.captured != 0 {
            self.occ[1 - us] |= 1u128 << to;
            self.hash ^= ZOBRIST[undo.captured as usize][to];
        }
        if code == Piece::new(self.turn, Kind::General).code() {
            self.generals[us] = from as u8;
        }
        self.halfmoves = undo.halfmoves;
    }

    /// Checks `m` and plays it, or says why it is illegal; the position is unchanged on error.
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        self.check_move(m)?;
        Ok(self.make(m))
    }

    /// Whether `m` is a legal move here (合法着法, 第3條).
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Says why `m` is not legal here, or `Ok(())`.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let piece = self.piece_at(m.from).ok_or(IllegalMove::NoPiece(m.from))?;
        if piece.color != self.turn {
            return Err(IllegalMove::NotYours(m.from));
        }
        if !self.pseudo_legal(m) {
            return Err(IllegalMove::Pattern {
                piece: piece.chinese(),
                from: m.from,
                to: m.to,
            });
        }
        if self.leaves_general_attacked(m) {
            return Err(IllegalMove::SelfCheck(m));
        }
        Ok(())
    }

    /// The position after `m`, which must be legal.
    #[must_use]
    pub fn after(&self, m: Move) -> Position {
        let mut next = self.clone();
        next.make(m);
        next
    }
}

/// Where a kind may stand at all (第26–29條); pawns never stand behind their start rank nor
/// off the pawn files before crossing the river (第28條).
fn check_placement(piece: Piece, p: Point) -> Result<(), PositionError> {
    let c = piece.color;
    let (file, rank) = (p.file(), p.rank_for(c));
    let why = match piece.kind {
        Kind::General if !p.in_palace(c) => "第29(3)項: the general stays in the palace",
        Kind::Advisor if !(p.in_palace(c) && (file + rank) % 2 == 1) => {
            "第27條: advisors stand on the palace diagonals"
        }
        Kind::Elephant
            if !(p.on_own_side(c)
                && rank % 2 == 0
                && file % 2 == 0
                && (file / 2 + rank / 2) % 2 == 1) =>
        {
            "第26條: elephants stand on their seven points and never cross the river"
        }
        Kind::Pawn if rank < 3 => "第28(4)項: a pawn never moves back",
        Kind::Pawn if rank < 5 && file % 2 == 1 => {
            "第28(1)項: before the river a pawn moves only straight ahead"
        }
        _ => return Ok(()),
    };
    Err(PositionError::Unreachable {
        piece: piece.chinese(),
        point: p,
        why,
    })
}

/// Iterates the set bits of a `u128`, lowest first.
pub(crate) struct BitIter(pub(crate) u128);

impl Iterator for BitIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    /// A text diagram, black at the top, with the FEN below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let p = Point::new(file, rank).expect("on board");
                let c = self.piece_at(p).map_or('.', Piece::fen_char);
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h i")?;
        write!(f, "{}", self.fen())
    }
}
