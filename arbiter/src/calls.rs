//! [`OpenCall`]: what the supervising referee (監局) must attend to at a table now, worked out
//! from the match state alone (`docs/product.md` §10): a pending 走子檢查 with what it
//! found (6.4, 7.5), a move to announce for a player (6.3(7), 7.4(2)(c)-(d)), a 61 warning
//! due (60, 61, 121(2)), a board that differs from the game (7.4(2)(g)(iv)), an open draw
//! offer (69(2)), a pause (103–104), a result to verify orally (6.8, 7.9). Pure: the list
//! is a function of the state, so a monitor that reconnects gets it again from the
//! snapshot. Typed: the monitor words it.

use baoqi_grammar::Word;
use baoqi_rules::{Color, Move, Point, WarningKind};
use serde::{Deserialize, Serialize};

use crate::article::{Article, articles};
use crate::command::{Side, ViolationKind};
use crate::config::{BoardId, EventKind};
use crate::event::{CheckOutcome, Outcome};
use crate::physical_board::Board;
use crate::reasons::{AnnouncedFor, EndCause, PauseReason};
use crate::state::{CheckNote, DueWarning, Match};
use crate::view::Phase;

/// A side's tally of one kind against its limit (127(2); limit 0 = none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The count.
    pub count: u32,
    /// The limit (0: none).
    pub limit: u32,
}

/// Why a board must be restored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestoreCause {
    /// 走子檢查 (c): illegal announcement, board move of another piece or illegal too.
    CheckC,
    /// After a pause the move differs from the sealed move (125).
    SealedMoveBroken,
    /// No announcement at this table: the board move is illegal (37(2)(f)).
    IllegalBoardMove,
}

/// The matter of a call, with what the referee needs to rule on it. JSON: tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Matter {
    /// 走子檢查 (a): the board must be corrected to the announcement on the mover's time.
    CheckCorrection {
        /// The mover.
        side: Side,
        /// The words announced.
        announced: Option<[Word; 4]>,
        /// The move the board showed.
        played: Option<Move>,
        /// The announced move the board must show.
        target: Move,
    },
    /// 走子檢查 (b): the board move stands; the mover must announce again.
    CheckReannounce {
        /// The mover.
        side: Side,
        /// The illegal words announced.
        announced: Option<[Word; 4]>,
        /// The move that stands.
        stands: Move,
        /// Its words, to be announced.
        words: [Word; 4],
        /// The 記錄違例 tally.
        tally: Tally,
    },
    /// 走子檢查 (c), 125 or 37(2)(f): the board must be restored; another piece may move.
    CheckRestore {
        /// The mover.
        side: Side,
        /// Why.
        cause: RestoreCause,
        /// The words announced, if any.
        announced: Option<[Word; 4]>,
        /// The move to take back.
        mv: Move,
        /// The 技術犯規 tally.
        tally: Tally,
    },
    /// The referee (or the proxy) must announce the move (6.3(7), 7.4(2)(c)-(d)).
    AnnounceFor {
        /// The side whose move it is.
        side: Side,
        /// Why another announces.
        why: AnnouncedFor,
        /// The side has a named proxy who announces (7.4(2)(d)(ii)).
        proxy: bool,
        /// The deaf player signalled (7.4(2)(d)).
        signalled: bool,
        /// The move on the side's board, when made: the board move governs (7.4(2)(f)(iii)).
        mv: Option<Move>,
        /// Its words, when it is a legal move.
        words: Option<[Word; 4]>,
    },
    /// A 61 (or 62) warning is due: the referee must give it verbatim (121(2)).
    RepetitionWarning {
        /// The side warned (`None`: both).
        side: Option<Side>,
        /// The ply of the 警誡盤面.
        ply: usize,
        /// The warning.
        warning: WarningKind,
    },
    /// A board differs from the game (7.4(2)(g)(iv)).
    BoardDivergence {
        /// The board.
        board: BoardId,
        /// The placement it must show (FEN board part).
        placement: String,
        /// The points that differ.
        points: Vec<Point>,
    },
    /// A draw offer is open (69(2)).
    DrawOffer {
        /// The offering side.
        side: Side,
        /// Whether it stands yet (the offering turn ended).
        stands: bool,
        /// Made with the draw card.
        card: bool,
    },
    /// The game is paused: an adjournment (103) or a server restart.
    Paused {
        /// The side to move.
        side: Side,
        /// Why.
        reason: PauseReason,
        /// Whether the move is sealed (103(1)(b)).
        sealed: bool,
    },
    /// The result must be verified orally (6.8, 7.9).
    VerifyResult {
        /// The result.
        outcome: Outcome,
        /// Why the game ended.
        #[serde(flatten)]
        cause: EndCause,
    },
}

/// The one ruling that settles a call, as the monitor offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallAction {
    /// `confirm_check` (or `override_check`).
    ConfirmCheck,
    /// `word`s given by the referee for the player.
    AnnounceFor,
    /// `issue_warning` with the call's warning.
    IssueWarning,
    /// `correct_board` to the call's placement.
    CorrectBoard,
    /// `resume`.
    Resume,
    /// `verify_result`.
    VerifyResult,
}

/// One matter open at a table, the ruling that settles it and the articles it follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenCall {
    /// The matter.
    #[serde(flatten)]
    pub matter: Matter,
    /// The ruling that settles it, when the referee must act (`None`: a player acts).
    pub action: Option<CallAction>,
    /// The articles the consequence comes from.
    pub articles: Vec<Article>,
}

impl OpenCall {
    fn new(matter: Matter, action: Option<CallAction>, articles: Vec<Article>) -> OpenCall {
        OpenCall {
            matter,
            action,
            articles,
        }
    }
}

/// The item of 6.4 (視障賽) or 7.5 (共融賽) for a check outcome (a), (b) or (c).
fn check_articles(kind: EventKind, item: usize) -> Vec<Article> {
    const PART6: [&str; 3] = ["6.4(a)", "6.4(b)", "6.4(c)"];
    const PART7: [&str; 3] = ["7.5(a)", "7.5(b)", "7.5(c)"];
    match kind {
        EventKind::Part6 => articles(&[PART6[item]]),
        EventKind::Part7 => articles(&[PART7[item]]),
        EventKind::Regular => articles(&[PART6[item], PART7[item]]),
    }
}

impl Match {
    /// `side`'s tally of `kind` against its limit.
    fn tally(&self, side: Color, kind: ViolationKind) -> Tally {
        Tally {
            count: self.core.tallies.get(side, kind),
            limit: self.config.limits.of(kind),
        }
    }

    /// Every matter open at the table now, most urgent first. Pure: derived from the state.
    pub fn open_calls(&self) -> Vec<OpenCall> {
        match self.core.phase {
            Phase::NotStarted => Vec::new(),
            Phase::Over => self.verify_call().into_iter().collect(),
            Phase::Playing | Phase::Paused => {
                let mut out: Vec<OpenCall> = self.check_calls();
                out.extend(self.announce_call());
                out.extend(self.divergence_calls());
                out.extend(self.core.due.iter().map(warning_call));
                out.extend(self.offer_call());
                out.extend(self.pause_call());
                out
            }
        }
    }

    /// The pending 走子檢查 of the side to act, with what it found (6.4, 7.5).
    fn check_calls(&self) -> Vec<OpenCall> {
        let t = &self.core.turn;
        let note = self.core.last_check.as_ref();
        let side = t.side;
        let announced = note.and_then(CheckNote::words);
        let mut out = Vec::new();
        if let Some(target) = t.correction {
            let matter = Matter::CheckCorrection {
                side,
                announced: t.bound.as_ref().map(|b| b.announcement.words),
                played: note.and_then(|n| n.finding.board),
                target,
            };
            let articles = check_articles(self.config.kind, 0);
            out.push(OpenCall::new(
                matter,
                Some(CallAction::ConfirmCheck),
                articles,
            ));
        }
        if let Some((stands, words)) = t.reannounce {
            let matter = Matter::CheckReannounce {
                side,
                announced,
                stands,
                words,
                tally: self.tally(side, ViolationKind::Recording),
            };
            out.push(OpenCall::new(
                matter,
                None,
                check_articles(self.config.kind, 1),
            ));
        }
        if let Some(mv) = t.restore {
            let (cause, articles) = match note.map(|n| n.outcome) {
                Some(CheckOutcome::SealedMoveBroken) => {
                    (RestoreCause::SealedMoveBroken, articles(&["125"]))
                }
                Some(CheckOutcome::BoardOnly) => {
                    (RestoreCause::IllegalBoardMove, articles(&["37(2)(f)"]))
                }
                _ => (RestoreCause::CheckC, check_articles(self.config.kind, 2)),
            };
            let matter = Matter::CheckRestore {
                side,
                cause,
                announced,
                mv,
                tally: self.tally(side, ViolationKind::Technical),
            };
            out.push(OpenCall::new(matter, None, articles));
        }
        out
    }

    /// The move of the side to act must be announced for it, once the rules let another
    /// speak: at once in 視障賽 (6.3(7)); after the move in 共融賽 without notation
    /// (7.4(2)(c)) and after the deaf player's move or signal (7.4(2)(d)).
    fn announce_call(&self) -> Option<OpenCall> {
        if self.core.phase != Phase::Playing || !self.needs_announcer() {
            return None;
        }
        let t = &self.core.turn;
        let side = t.side;
        let mv = self.board_move().mv();
        if self.moves_first(side) && mv.is_none() && !t.signalled {
            return None;
        }
        let why = self.announced_for(side);
        let articles = match why {
            AnnouncedFor::Deaf => articles(&["7.4(2)(d)", "7.4(2)(f)(iii)"]),
            AnnouncedFor::MovesFirst => articles(&["7.4(2)(c)"]),
            AnnouncedFor::RefereeFirst => articles(&["6.3(7)"]),
        };
        let matter = Matter::AnnounceFor {
            side,
            why,
            proxy: self.config.side(side).proxy.is_some(),
            signalled: t.signalled,
            mv,
            words: mv.and_then(|m| baoqi_grammar::words_of(self.game.position(), m).ok()),
        };
        Some(OpenCall::new(
            matter,
            Some(CallAction::AnnounceFor),
            articles,
        ))
    }

    /// Each board that differs from the game, with the placement it must be put back to.
    fn divergence_calls(&self) -> Vec<OpenCall> {
        let pos = self.game.position();
        let placement = Board::of(pos).placement();
        self.core
            .diverging
            .iter()
            .filter_map(|id| self.core.boards.get(id).map(|b| (*id, b)))
            .map(|(board, b)| {
                let matter = Matter::BoardDivergence {
                    board,
                    placement: placement.clone(),
                    points: b.differences(pos),
                };
                let articles = articles(&["7.4(2)(g)(iv)"]);
                OpenCall::new(matter, Some(CallAction::CorrectBoard), articles)
            })
            .collect()
    }

    fn offer_call(&self) -> Option<OpenCall> {
        let o = self.core.offer?;
        let matter = Matter::DrawOffer {
            side: o.side,
            stands: o.stands,
            card: o.card,
        };
        let articles = if o.card {
            articles(&["69(2)", "7.1(2)"])
        } else {
            articles(&["69(2)"])
        };
        Some(OpenCall::new(matter, None, articles))
    }

    fn pause_call(&self) -> Option<OpenCall> {
        if self.core.phase != Phase::Paused {
            return None;
        }
        let reason = self.core.paused.unwrap_or_default();
        let matter = Matter::Paused {
            side: self.core.turn.side,
            reason,
            sealed: self.core.sealed.is_some(),
        };
        let articles = match reason {
            PauseReason::Adjournment => articles(&["103", "104"]),
            PauseReason::ServerRestart => Vec::new(),
        };
        Some(OpenCall::new(matter, Some(CallAction::Resume), articles))
    }

    fn verify_call(&self) -> Option<OpenCall> {
        if self.core.verified.is_some() {
            return None;
        }
        let r = self.core.result.as_ref()?;
        let matter = Matter::VerifyResult {
            outcome: r.outcome,
            cause: r.cause.clone(),
        };
        let articles = match self.config.kind {
            EventKind::Part6 => articles(&["6.8"]),
            EventKind::Part7 => articles(&["7.9"]),
            EventKind::Regular => articles(&["6.8", "7.9"]),
        };
        Some(OpenCall::new(
            matter,
            Some(CallAction::VerifyResult),
            articles,
        ))
    }
}

/// A 61 warning not yet given: the referee gives it verbatim (121(2)).
fn warning_call(w: &DueWarning) -> OpenCall {
    let side = match w.warned.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    let matter = Matter::RepetitionWarning {
        side,
        ply: w.ply,
        warning: w.warning,
    };
    let articles = vec![w.article.clone(), Article::of("121(2)")];
    OpenCall::new(matter, Some(CallAction::IssueWarning), articles)
}
