//! [`OpenCall`]: what the supervising referee (監局) must attend to at a table now, worked out
//! from the match state alone (SPEC §10): a pending 走子檢查 with its consequence (6.4, 7.5), a
//! move to announce for a player (6.3(7), 7.4(2)(c)-(d)), a 61 warning due with its exact
//! words (60, 61, 121(2)), a board that differs from the game (7.4(2)(g)(iv)), an open draw
//! offer (69(2)), a pause (103–104), a result to verify orally (6.8, 7.9). Pure: the list is
//! a function of the state, so a monitor that reconnects gets it again from the snapshot.

use baoqi_rules::{Color, Move};
use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::command::Side;
use crate::command::ViolationKind;
use crate::config::{BoardId, EventKind};
use crate::event::CheckOutcome;
use crate::render::side_name;
use crate::state::{CheckNote, DueWarning, Match, kind_index};
use crate::turn::{AnnouncedFor, BoardMove};
use crate::view::Phase;

/// What kind of matter an [`OpenCall`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// 走子檢查 (a): the board must be corrected to the announcement on the mover's time.
    CheckCorrection,
    /// 走子檢查 (b): the board move stands; the mover must announce again.
    CheckReannounce,
    /// 走子檢查 (c) (or 125, 37(2)(f)): the board must be restored; another piece may move.
    CheckRestore,
    /// The referee (or the proxy) must announce the move (6.3(7), 7.4(2)(c)-(d)).
    AnnounceFor,
    /// A 61 (or 62) warning is due: the referee must give it (121(2)).
    RepetitionWarning,
    /// A board differs from the game (7.4(2)(g)(iv)).
    BoardDivergence,
    /// A draw offer is open (69(2)).
    DrawOffer,
    /// The game is paused (103); it resumes on the referee's word (104).
    Paused,
    /// The result must be verified orally (6.8, 7.9).
    VerifyResult,
}

/// The one ruling that settles a call, as the monitor offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallAction {
    /// `confirm_check` (or `override_check`).
    ConfirmCheck,
    /// `word`s given by the referee for the player.
    AnnounceFor,
    /// `issue_warning` with the call's words.
    IssueWarning,
    /// `correct_board` to the call's placement.
    CorrectBoard,
    /// `resume`.
    Resume,
    /// `verify_result`.
    VerifyResult,
}

/// One matter open at a table, with what follows from the rules, worked out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenCall {
    /// What kind of matter.
    pub kind: CallKind,
    /// The side concerned (`None`: both, or the table).
    pub side: Option<Side>,
    /// The situation and its consequence, in words a referee reads.
    pub text: String,
    /// The article the consequence comes from.
    pub article: String,
    /// The ruling that settles it, when the referee must act (`None`: a player acts).
    pub action: Option<CallAction>,
    /// The move concerned (ICCS): the correction target, the move that stands, the move to
    /// take back.
    pub mv: Option<String>,
    /// Words: the announcement checked, or the 61 warning to give verbatim.
    pub words: Option<String>,
    /// The board concerned.
    pub board: Option<BoardId>,
    /// The placement the board must show (FEN board part).
    pub placement: Option<String>,
    /// Points that differ (ICCS).
    pub points: Vec<String>,
}

impl OpenCall {
    fn new(kind: CallKind, side: Option<Side>, text: String, article: &str) -> OpenCall {
        OpenCall {
            kind,
            side,
            text,
            article: article.to_string(),
            action: None,
            mv: None,
            words: None,
            board: None,
            placement: None,
            points: Vec::new(),
        }
    }
}

/// The item of 6.4 (視障賽) or 7.5 (共融賽) for a check outcome `item` (`a`, `b`, `c`).
fn check_article(kind: EventKind, item: char) -> String {
    match kind {
        EventKind::Part6 => format!("6.4({item})"),
        EventKind::Part7 => format!("7.5({item})"),
        EventKind::Regular => format!("6.4({item}), 7.5({item})"),
    }
}

impl Match {
    /// `side`'s tally of `kind` against its limit: `1／2`, or `1` when there is no limit
    /// (127(2); 0 = none).
    fn tally_text(&self, side: Color, kind: ViolationKind) -> String {
        let count = self.core.tallies[side.index()][kind_index(kind)];
        match self.config.limits.of(kind) {
            0 => count.to_string(),
            limit => format!("{count}／{limit}"),
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

    /// The pending 走子檢查 of the side to act, with its consequence (6.4, 7.5).
    fn check_calls(&self) -> Vec<OpenCall> {
        let t = &self.core.turn;
        let note = self.core.last_check.as_ref();
        let mut out = Vec::new();
        if let Some(a) = t.correction {
            out.push(self.correction_call(a, note));
        }
        if let Some(m) = t.reannounce {
            out.push(self.reannounce_call(m, note));
        }
        if let Some(m) = t.restore {
            out.push(self.restore_call(m, note));
        }
        out
    }

    fn correction_call(&self, a: Move, note: Option<&CheckNote>) -> OpenCall {
        let side = self.core.turn.side;
        let words = self.core.turn.bound.as_ref().map(|b| b.words.clone());
        let played = note.and_then(|n| n.board_move.clone()).unwrap_or_default();
        let text = format!(
            "走子檢查 (a)：報棋「{}」為合法着法，走子 {played} 不同。{}須以自己的用時把棋盤修正為 {a}（{}棋鐘仍在走）；修正後確認，或推翻檢查裁定成立的着法",
            words.clone().unwrap_or_default(),
            side_name(side),
            side_name(side),
        );
        let article = check_article(self.config.kind, 'a');
        let mut call = self.check_call(CallKind::CheckCorrection, text, &article, a, words);
        call.action = Some(CallAction::ConfirmCheck);
        call
    }

    /// A call about the move `mv` of the side to act, with the words it announced.
    fn check_call(
        &self,
        kind: CallKind,
        text: String,
        article: &str,
        mv: Move,
        words: Option<String>,
    ) -> OpenCall {
        let mut call = OpenCall::new(kind, Some(self.core.turn.side.into()), text, article);
        call.mv = Some(mv.to_string());
        call.words = words;
        call
    }

    fn reannounce_call(&self, m: Move, note: Option<&CheckNote>) -> OpenCall {
        let side = self.core.turn.side;
        let words = note.and_then(|n| n.announced.clone());
        let stands = self
            .core
            .sheet
            .last()
            .map_or_else(|| m.to_string(), |s| format!("{}（{m}）", s.mv.traditional));
        let text = format!(
            "走子檢查 (b)：報棋「{}」非法，走子為所報子的合法着法：以走子 {stands} 為準，{}須重新報棋後按鐘；已記違反記錄規則 {}",
            words.clone().unwrap_or_default(),
            side_name(side),
            self.tally_text(side, ViolationKind::Recording),
        );
        let article = check_article(self.config.kind, 'b');
        self.check_call(CallKind::CheckReannounce, text, &article, m, words)
    }

    fn restore_call(&self, m: Move, note: Option<&CheckNote>) -> OpenCall {
        let side = self.core.turn.side;
        let words = note.and_then(|n| n.announced.clone());
        let fouls = self.tally_text(side, ViolationKind::Technical);
        let (text, article) = match note.map(|n| n.outcome) {
            Some(CheckOutcome::SealedMoveBroken) => (
                format!(
                    "走子 {m} 與續着記錄不符：還原棋盤，{}須走繼續着法；已記技術犯規 {fouls}",
                    side_name(side)
                ),
                "125".to_string(),
            ),
            Some(CheckOutcome::BoardOnly) => (
                format!("非法走子 {m}：{}須還原棋盤，另走合法着法", side_name(side)),
                "37(2)(f)".to_string(),
            ),
            _ => (
                format!(
                    "走子檢查 (c)：報棋「{}」非法，走子 {m} 非所報子或同為非法：{}須還原棋盤，可改走別子；已記技術犯規 {fouls}",
                    words.clone().unwrap_or_default(),
                    side_name(side),
                ),
                check_article(self.config.kind, 'c'),
            ),
        };
        self.check_call(CallKind::CheckRestore, text, &article, m, words)
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
        let board_move = self.board_move();
        let moved = matches!(board_move, BoardMove::Move(_));
        if self.moves_first(side) && !moved && !t.signalled {
            return None;
        }
        let (text, article) = match self.announced_for(side) {
            AnnouncedFor::Deaf => {
                let who = if self.config.side(side).proxy.is_some() {
                    "代理代為報棋並按鐘 (7.4(2)(d)(ii))"
                } else {
                    "監局裁判代為報棋，該方再自行按鐘 (7.4(2)(d)(i))"
                };
                let done = if t.signalled {
                    "已走子示意"
                } else {
                    "已走子"
                };
                (
                    format!("{}{done}：請{who}；以走子為準", side_name(side)),
                    "7.4(2)(d), 7.4(2)(f)(iii)",
                )
            }
            AnnouncedFor::MovesFirst => (
                format!(
                    "{}不懂傳統記譜法，已先走子：請監局裁判報出該着法，該方用自己的用時複讀一次後按鐘",
                    side_name(side)
                ),
                "7.4(2)(c)",
            ),
            AnnouncedFor::RefereeFirst => (
                format!(
                    "{}不懂傳統記譜法：請監局裁判先報出該着法，該方用自己的用時複讀一次後按鐘",
                    side_name(side)
                ),
                "6.3(7)",
            ),
        };
        let mut call = OpenCall::new(CallKind::AnnounceFor, Some(side.into()), text, article);
        call.action = Some(CallAction::AnnounceFor);
        call.mv = board_move.mv().map(|m| m.to_string());
        Some(call)
    }

    /// Each board that differs from the game, with the placement it must be put back to.
    fn divergence_calls(&self) -> Vec<OpenCall> {
        let pos = self.game.position();
        let game = Board::of(pos).placement();
        self.core
            .diverging
            .iter()
            .filter_map(|id| self.core.boards.get(id).map(|b| (*id, b)))
            .map(|(id, b)| {
                let points: Vec<String> =
                    b.differences(pos).iter().map(ToString::to_string).collect();
                let text = format!(
                    "{}與對局不同（{}）：監局裁判須即時修正",
                    id.chinese(),
                    points.join("、")
                );
                let mut call =
                    OpenCall::new(CallKind::BoardDivergence, None, text, "7.4(2)(g)(iv)");
                call.action = Some(CallAction::CorrectBoard);
                call.board = Some(id);
                call.placement = Some(game.clone());
                call.points = points;
                call
            })
            .collect()
    }

    fn offer_call(&self) -> Option<OpenCall> {
        let (by, stands, card) = self.core.offer?;
        let how = if card { "交出提和卡" } else { "提和" };
        let state = if stands {
            format!("已生效，待{}接受或拒絕", side_name(by.other()))
        } else {
            "本輪結束後生效".to_string()
        };
        let text = format!("{}{how}（{state}）", side_name(by));
        let article = if card { "69(2), 7.1(2)" } else { "69(2)" };
        Some(OpenCall::new(
            CallKind::DrawOffer,
            Some(by.into()),
            text,
            article,
        ))
    }

    fn pause_call(&self) -> Option<OpenCall> {
        if self.core.phase != Phase::Paused {
            return None;
        }
        let side = self.core.turn.side;
        let sealed = if self.core.sealed.is_some() {
            "繼續着法已記錄，棋鐘已停".to_string()
        } else {
            format!("{}須以自己的用時決定繼續着法 (103(1))", side_name(side))
        };
        let text = format!(
            "對局暫停，續着方為{}：{sealed}；恢復時續賽",
            side_name(side)
        );
        let mut call = OpenCall::new(CallKind::Paused, Some(side.into()), text, "103, 104");
        call.action = Some(CallAction::Resume);
        Some(call)
    }

    fn verify_call(&self) -> Option<OpenCall> {
        if self.core.verified.is_some() {
            return None;
        }
        let r = self.core.result.as_ref()?;
        let text = format!(
            "對局結束 {}：{}（第 {} 條）。結果無須簽署，須口頭核實並記錄",
            r.result, r.reason, r.article
        );
        let article = match self.config.kind {
            EventKind::Part6 => "6.8",
            EventKind::Part7 => "7.9",
            EventKind::Regular => "6.8, 7.9",
        };
        let mut call = OpenCall::new(CallKind::VerifyResult, None, text, article);
        call.action = Some(CallAction::VerifyResult);
        Some(call)
    }
}

/// A 61 warning not yet given: the referee gives it verbatim (121(2)).
fn warning_call(w: &DueWarning) -> OpenCall {
    let side = match w.warned.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    let text = format!(
        "循環局面達預警循環上限（第 {} 着）：須即時警誡「{}」，否則不能按第 63 條裁決",
        w.ply, w.text
    );
    let article = format!("{}, 121(2)", w.article);
    let mut call = OpenCall::new(CallKind::RepetitionWarning, side, text, &article);
    call.action = Some(CallAction::IssueWarning);
    call.words = Some(w.text.clone());
    call
}
