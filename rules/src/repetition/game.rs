//! [`Game`]: a start position and the moves played, reviewed after every move in the order
//! of 第35條 (正和, 將死, 困斃, 自然限着, forbidden-move endings, 一般循環, warnings).

use std::collections::HashMap;

use super::classify::classify;
use super::verdict::{
    Classification, Outcome, Repetition, Ruling, RulingReason, Warning, WarningKind,
};
use crate::end::{EndReason, NaturalLimit};
use crate::position::{IllegalMove, Position};
use crate::types::{Color, Kind, Move};

/// What the arbiter learns after a move: the warnings given and the ending, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Review {
    /// The ply of the move (1 for the first move of the history).
    pub ply: usize,
    /// When the new position occurred before: the cycle it closes and its 循環次數.
    pub repetition: Option<Repetition>,
    /// Warnings of 第61條 (or renewed by 第62條) given at the new position.
    pub warnings: Vec<Warning>,
    /// The ending, when the move ended the game.
    pub ending: Option<Ruling>,
}

/// Why [`Game::play`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not legal in the current position.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// The game has already ended.
    #[error("the game is over: {0}")]
    GameOver(Ruling),
}

/// Why [`Game::replay`] could not replay a history.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} ({mv}): {error}")]
pub struct ReplayError {
    /// The ply of the refused move (1 for the first).
    pub ply: usize,
    /// The refused move.
    pub mv: Move,
    /// Why.
    pub error: PlayError,
}

/// Why [`Game::official_draw`] could not end the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game is already over: {0}")]
pub struct AlreadyOver(pub Ruling);

/// The active 警誡盤面 (60(1)): where it stands, whom it warned and the cycle it closed.
#[derive(Clone, Debug)]
struct Caution {
    /// The ply of the 警誡盤面.
    ply: usize,
    /// The warning given there.
    kind: WarningKind,
    /// Keys of the positions of the warned cycle; reaching one of them again belongs to the
    /// same cycle and is not warned afresh.
    cycle: Vec<u64>,
}

/// A game under review: the positions of the history with what the rules say about them.
/// Each [`Game::play`] costs one legality check, one hash lookup and, only when a
/// position repeats for the third time or the 警誡盤面 recurs, the analysis of one cycle.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    natural: NaturalLimit,
    /// Plies since the last irreversible move, by position key.
    seen: HashMap<u64, Vec<usize>>,
    caution: Option<Caution>,
    warnings: Vec<Warning>,
    ending: Option<Ruling>,
}

impl Game {
    /// A game starting at `start`. The start position is not itself reviewed: the rulings
    /// of 第35條 apply when a new position arises from a move. 自然限着 counts from here
    /// (the FEN half-move clock carries no record of checks, so it is not used).
    pub fn new(start: Position) -> Game {
        let mut seen = HashMap::new();
        seen.insert(start.hash(), vec![0]);
        Game {
            positions: vec![start],
            moves: Vec::new(),
            natural: NaturalLimit::new(),
            seen,
            caution: None,
            warnings: Vec::new(),
            ending: None,
        }
    }

    /// Replays `moves` from `start`, reviewing each; stops at the first refused move.
    pub fn replay(start: Position, moves: &[Move]) -> Result<Game, ReplayError> {
        let mut game = Game::new(start);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|error| ReplayError {
                ply: i + 1,
                mv,
                error,
            })?;
        }
        Ok(game)
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start position")
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every warning given so far, in order.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<&Ruling> {
        self.ending.as_ref()
    }

    /// The count towards 自然限着 (66(2)).
    pub fn natural_limit(&self) -> &NaturalLimit {
        &self.natural
    }

    /// The ply of the current 警誡盤面, if a warning is in force.
    pub fn caution_ply(&self) -> Option<usize> {
        self.caution.as_ref().map(|c| c.ply)
    }

    /// 官和 (67): the referee's adjudication hook. Only for games whose players agreed to
    /// 第67條 beforehand (64(2)); the caller checks that agreement.
    pub fn official_draw(&mut self) -> Result<Ruling, AlreadyOver> {
        if let Some(r) = self.ending {
            return Err(AlreadyOver(r));
        }
        let ruling = Ruling {
            ply: self.moves.len(),
            outcome: Outcome::Draw,
            reason: RulingReason::OfficialDraw,
        };
        self.ending = Some(ruling);
        Ok(ruling)
    }

    /// Plays `mv` and reviews the new position in the order of 第35條.
    pub fn play(&mut self, mv: Move) -> Result<Review, PlayError> {
        if let Some(r) = self.ending {
            return Err(PlayError::GameOver(r));
        }
        let before = self.position();
        let mover = before.turn();
        let pawn_advance = before
            .piece_at(mv.from)
            .is_some_and(|p| p.kind == Kind::Pawn)
            && mv.from.rank() != mv.to.rank();
        let mut next = before.clone();
        let undo = next.play(mv)?;
        let captured = undo.captured().is_some();
        self.natural.record(mover, captured, next.is_check());
        self.positions.push(next);
        self.moves.push(mv);
        let ply = self.moves.len();
        // A capture or a pawn's step forward can never be undone: no earlier position can
        // recur, and neither can a 警誡盤面 (it only saves work; counts stay exact).
        if captured || pawn_advance {
            self.seen.clear();
            self.caution = None;
        }
        let previous = self.previous_occurrences(ply);
        let mut review = Review {
            ply,
            repetition: previous.last().map(|&p| Repetition {
                ply,
                previous: p,
                count: previous.len() + 1,
            }),
            ..Review::default()
        };
        if let Some(ending) = self.board_ending(ply) {
            review.ending = Some(ending);
        } else if let Some(step) = self.repetition(ply, &previous) {
            match step {
                Step::End(r) => review.ending = Some(r),
                Step::Warn(w) => review.warnings.push(w),
            }
        }
        self.warnings.extend(review.warnings.iter().copied());
        self.ending = review.ending;
        Ok(review)
    }

    /// Earlier plies with the same 盤面 as `ply`, and records `ply` among them.
    fn previous_occurrences(&mut self, ply: usize) -> Vec<usize> {
        let pos = &self.positions[ply];
        let list = self.seen.entry(pos.hash()).or_default();
        let previous: Vec<usize> = list
            .iter()
            .copied()
            .filter(|&i| same_board(&self.positions[i], pos))
            .collect();
        list.push(ply);
        previous
    }

    /// 35(a)–(b): 正和, 將死, 困斃, then 自然限着 (no claimant: both sides' checks capped).
    fn board_ending(&self, ply: usize) -> Option<Ruling> {
        if let Some(e) = self.positions[ply].ending() {
            return Some(Ruling {
                ply,
                outcome: e.winner.map_or(Outcome::Draw, Outcome::win_for),
                reason: RulingReason::Board(e.reason),
            });
        }
        self.natural.reached(None).then_some(Ruling {
            ply,
            outcome: Outcome::Draw,
            reason: RulingReason::Board(EndReason::NaturalLimit),
        })
    }

    /// 35(c)–(e): the rulings of 第63條 when the 警誡盤面 recurs (or the renewed warning
    /// of 第62條), else a warning of 第61條 when a position occurs for the third time.
    fn repetition(&mut self, ply: usize, previous: &[usize]) -> Option<Step> {
        if let Some(caution) = &self.caution {
            if same_board(&self.positions[caution.ply], &self.positions[ply]) {
                return Some(self.recurrence(ply));
            }
            if caution.cycle.contains(&self.positions[ply].hash()) {
                return None;
            }
        }
        // 預警循環上限: the third occurrence (or a later one never warned, 60(2)).
        let &last = previous.last()?;
        if previous.len() + 1 < 3 {
            return None;
        }
        let c = self.classify(last, ply);
        let opener = self.positions[last].turn();
        Some(Step::Warn(self.warn(last, ply, c, opener, false)))
    }

    /// The 警誡盤面 recurred: 63(a) (65(3) or 66(3)), 63(b) (66(4)), or 62.
    fn recurrence(&mut self, ply: usize) -> Step {
        let caution = self.caution.clone().expect("called with a caution");
        let c = self.classify(caution.ply, ply);
        let forbidden = |color: Color| c.of(color).is_some();
        let offenders: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&k| forbidden(k) && caution.kind.warns(k))
            .collect();
        let reason = match offenders.as_slice() {
            // 63(a)(ii) → 66(3): the situation of 61(3), both sides forbidden.
            [_, ..] if Color::ALL.into_iter().all(forbidden) => RulingReason::MutualForbidden,
            // 63(a)(i) → 65(3): the situation of 61(2), the warned offender loses.
            [offender, ..] => RulingReason::Forbidden {
                offender: *offender,
                pattern: c.of(*offender).expect("offender is forbidden"),
            },
            // 62: the forbidden sequence stopped; warn again, as the cycle now stands.
            [] if caution.kind.is_forbidden() => {
                let opener = self.positions[caution.ply].turn();
                return Step::Warn(self.warn(caution.ply, ply, c, opener, true));
            }
            // 63(b) → 66(4): the ordinary cycle went on.
            [] => RulingReason::CycleDraw,
        };
        let outcome = match reason {
            RulingReason::Forbidden { offender, .. } => Outcome::win_for(offender.other()),
            _ => Outcome::Draw,
        };
        Step::End(Ruling {
            ply,
            outcome,
            reason,
        })
    }

    /// Gives the warning the cycle `from ..= ply` calls for and makes `ply` the 警誡盤面.
    fn warn(
        &mut self,
        from: usize,
        ply: usize,
        c: Classification,
        opener: Color,
        renewed: bool,
    ) -> Warning {
        let kind = WarningKind::from_classification(c, opener);
        self.caution = Some(Caution {
            ply,
            kind,
            cycle: self.positions[from..=ply]
                .iter()
                .map(Position::hash)
                .collect(),
        });
        Warning { ply, kind, renewed }
    }

    /// Classifies the cycle between two plies with the same 盤面.
    fn classify(&self, from: usize, to: usize) -> Classification {
        classify(&self.positions[from..=to], &self.moves[from..to])
    }
}

/// What the repetition rules decided at a position.
enum Step {
    End(Ruling),
    Warn(Warning),
}

/// The same 盤面 (第3條): the same pieces on the same points and the same side to move.
fn same_board(a: &Position, b: &Position) -> bool {
    a.turn == b.turn && a.board == b.board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repetition::verdict::Pattern;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    const CHECKS: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w";
    const LOOP: &str = "a8a9 e9e8 a9a8 e8e9";

    #[test]
    fn a60_1_review_reports_the_warning_at_the_third_occurrence() {
        let mut game = Game::new(Position::from_fen(CHECKS).unwrap());
        let all = moves(&[LOOP, LOOP].join(" "));
        let reviews: Vec<Review> = all.iter().map(|&m| game.play(m).unwrap()).collect();
        assert!(
            reviews[..7]
                .iter()
                .all(|r| r.warnings.is_empty() && r.ending.is_none())
        );
        let w = &reviews[7].warnings;
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].ply, 8);
        assert_eq!(
            w[0].kind,
            WarningKind::Forbidden {
                side: Color::Red,
                pattern: Pattern::PerpetualCheck
            }
        );
        assert_eq!(game.caution_ply(), Some(8));
        assert_eq!(game.warnings(), w.as_slice());
    }

    #[test]
    fn a65_3_no_move_after_the_end() {
        let all = moves(&[LOOP, LOOP, LOOP].join(" "));
        let mut game = Game::replay(Position::from_fen(CHECKS).unwrap(), &all).unwrap();
        let end = *game.ending().unwrap();
        assert_eq!(end.outcome, Outcome::BlackWins);
        assert_eq!(end.article(), "65(3)");
        assert_eq!(game.play(all[0]), Err(PlayError::GameOver(end)));
        assert_eq!(game.official_draw(), Err(AlreadyOver(end)));
    }

    #[test]
    fn replay_names_the_refused_move() {
        let err =
            Game::replay(Position::from_fen(CHECKS).unwrap(), &moves("a8a9 e9d9")).unwrap_err();
        assert_eq!(err.ply, 2);
        assert!(matches!(err.error, PlayError::Illegal(_)));
    }

    #[test]
    fn a67_official_draw_is_a_referee_hook() {
        let mut game = Game::new(Position::start());
        game.play("h2e2".parse().unwrap()).unwrap();
        let r = game.official_draw().unwrap();
        assert_eq!((r.ply, r.outcome, r.article()), (1, Outcome::Draw, "67"));
        assert!(game.play("h9g7".parse().unwrap()).is_err());
    }

    #[test]
    fn a66_2_capture_restarts_the_count_and_forgets_old_positions() {
        // Two loops, then the rook takes the pawn: the loop positions can never recur.
        let fen = "4k4/R8/9/9/9/9/9/9/9/p2K5 w";
        let line = "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a0";
        let game = Game::replay(Position::from_fen(fen).unwrap(), &moves(line)).unwrap();
        assert_eq!(game.natural_limit().plies(), 0);
        assert_eq!(game.caution_ply(), None);
        assert_eq!(game.warnings().len(), 1);
        assert!(game.ending().is_none());
    }
}
