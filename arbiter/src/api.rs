//! The public surface of [`Match`]: creation, [`Match::apply`], replay and views.

use std::collections::{BTreeMap, BTreeSet};

use baoqi_rules::{Color, FenError, Game, Position};

use crate::clock;
use crate::command::{Card, Command, Millis, Seat, Side, Stamped};
use crate::config::MatchConfig;
use crate::event::Event;
use crate::physical_board::Board;
use crate::reasons::{BoardStep, Decline};
use crate::rejection::{Act, Rejection};
use crate::state::{Core, Hands, Match, Turn};
use crate::view::{
    BoardView, CardView, GivenWarning, Names, Pending, Phase, RepeatOwed, Touch, View,
};

/// Why a configuration cannot start a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The start position is not a legal position.
    #[error("start position: {0}")]
    Fen(#[from] FenError),
    /// A value no match can use ([`MatchConfig::check`]).
    #[error(transparent)]
    Bounds(#[from] crate::bounds::OutOfBounds),
}

impl Match {
    /// A match created at `now`: the clocks are set (95(1)) but not running until
    /// [`Command::Start`] or black's first press (95(3)).
    pub fn new(config: MatchConfig, now: Millis) -> Result<Match, ConfigError> {
        config.check()?;
        let start = match &config.start_fen {
            Some(f) => Position::from_fen(f)?,
            None => Position::start(),
        };
        let red = config.time.for_side(&config.red);
        let black = config.time.for_side(&config.black);
        let clock = clock::initial(&red, &black, now);
        let boards: BTreeMap<_, _> = Color::ALL
            .iter()
            .filter_map(|&c| config.side(c).board_use().board())
            .map(|b| (b, Board::of(&start)))
            .collect();
        let turn = Turn::new(start.turn(), 1, &start, clock::stored(&clock, start.turn()));
        let core = Core {
            phase: Phase::NotStarted,
            paused: None,
            clock,
            turn,
            boards,
            diverging: BTreeSet::new(),
            takeable: BTreeMap::new(),
            // Violations brought in (a 108(1) replay's technical fouls) count from the start.
            tallies: config.carried,
            offer: None,
            offer_guard: [None, None],
            cards: Hands::default(),
            alerted: [BTreeSet::new(), BTreeSet::new()],
            log: Vec::new(),
            sheet: Vec::new(),
            prev: None,
            repeats: Vec::new(),
            sealed: None,
            notes: Vec::new(),
            due: Vec::new(),
            last_check: None,
            result: None,
            verified: None,
            started_at: None,
        };
        Ok(Match {
            game: Game::new(start.clone()),
            start,
            alerts: crate::state::alert_lists(&config),
            config: std::sync::Arc::new(config),
            created: now,
            core,
            last_review: None,
        })
    }

    /// Applies a command from `seat` at `now`. First the time that passed is caught up
    /// (alerts, flag fall, stamped with their true instants); then the command runs. On a
    /// [`Rejection`] nothing changes, not even the catch-up (a [`Command::Tick`] is never
    /// refused).
    pub fn apply(
        &mut self,
        seat: Seat,
        command: Command,
        now: Millis,
    ) -> Result<Vec<Event>, Rejection> {
        let mut out = Vec::new();
        if command == Command::Tick {
            // A tick is never refused: no copy to undo it (the tables' timers are the
            // commands a loaded server runs most).
            self.catch_up(now, &mut out);
            return Ok(out);
        }
        // The copy that undoes a refused command leaves out the two records that only grow
        // (the words and the scoresheet, pushed by `fold` alone): they move into the copy and,
        // on a refusal, come back cut to their length before (copying them made each word of
        // a long game cost the length of its log).
        let (words, moves) = (self.core.log.len(), self.core.sheet.len());
        let log = std::mem::take(&mut self.core.log);
        let sheet = std::mem::take(&mut self.core.sheet);
        let mut next = self.clone();
        next.core.log = log;
        next.core.sheet = sheet;
        next.catch_up(now, &mut out);
        match next.dispatch(seat, command, now, &mut out) {
            Ok(()) => {
                *self = next;
                Ok(out)
            }
            Err(refused) => {
                self.core.log = std::mem::take(&mut next.core.log);
                self.core.log.truncate(words);
                self.core.sheet = std::mem::take(&mut next.core.sheet);
                self.core.sheet.truncate(moves);
                Err(refused)
            }
        }
    }

    /// [`Match::apply`] for a command this match accepted once (a stored log being replayed):
    /// the same steps in the same order, but in place, without the copy that lets `apply`
    /// undo a refused command. That copy costs the size of the match, so replaying a long
    /// log with `apply` costs its length squared; with `reapply`, its length. On a
    /// [`Rejection`] the match may be left half-changed: the caller must drop it.
    pub fn reapply(
        &mut self,
        seat: Seat,
        command: Command,
        now: Millis,
    ) -> Result<Vec<Event>, Rejection> {
        let mut out = Vec::new();
        self.catch_up(now, &mut out);
        if command != Command::Tick {
            self.dispatch(seat, command, now, &mut out)?;
        }
        Ok(out)
    }

    /// [`Match::apply`] for a stored command.
    pub fn apply_stamped(&mut self, s: &Stamped) -> Result<Vec<Event>, Rejection> {
        self.apply(s.seat, s.command.clone(), s.at)
    }

    /// Folds an event and records it in `out`.
    pub(crate) fn emit(&mut self, out: &mut Vec<Event>, e: Event) {
        self.fold(&e);
        out.push(e);
    }

    /// Rebuilds a match by applying stored commands in order (refused ones change nothing).
    pub fn replay(
        config: MatchConfig,
        created: Millis,
        commands: &[Stamped],
    ) -> Result<Match, ConfigError> {
        let mut m = Match::new(config, created)?;
        for s in commands {
            let _ = m.apply_stamped(s);
        }
        Ok(m)
    }

    /// Rebuilds a match by folding its event log: the same state as the match that emitted it.
    pub fn from_events(
        config: MatchConfig,
        created: Millis,
        events: &[Event],
    ) -> Result<Match, ConfigError> {
        let mut m = Match::new(config, created)?;
        for e in events {
            m.fold(e);
        }
        Ok(m)
    }

    /// The configuration.
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// The game position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.core.phase
    }

    /// The side whose turn it is (after check (b), the mover until he announces again).
    pub fn to_move(&self) -> Side {
        self.core.turn.side
    }

    /// A side's time left at `now`.
    pub fn time_left(&self, side: Side, now: Millis) -> u64 {
        clock::remaining(&self.core.clock, side, now)
    }

    /// Whether any board has an open divergence.
    pub fn diverging(&self) -> bool {
        !self.core.diverging.is_empty()
    }

    /// The whole visible state.
    pub fn snapshot(&self) -> View {
        let c = &self.core;
        let t = &c.turn;
        let pos = self.game.position();
        let boards = c
            .boards
            .iter()
            .map(|(id, b)| BoardView {
                board: *id,
                placement: b.placement(),
                hand: b.hand(),
                diverging: c.diverging.contains(id),
                differs: b.differences(pos),
            })
            .collect();
        let owed = c.repeats.iter().find(|r| r.side == t.side);
        let mut cards = Vec::new();
        if self.config.cards() {
            for owner in Color::ALL {
                for card in [Card::Draw, Card::Resign] {
                    let holder = c.cards.holder(owner, card);
                    cards.push(CardView {
                        owner,
                        card,
                        holder,
                    });
                }
            }
        }
        View {
            phase: c.phase,
            paused: c.paused,
            start_fen: self.start.fen(),
            fen: pos.fen(),
            to_move: t.side,
            clock: c.clock,
            moves: c.sheet.clone(),
            attempt: t.attempt.clone(),
            touched: t.touched.and_then(|(point, _)| {
                let at = self.announced_position();
                at.piece_at(point).map(|x| Touch {
                    point,
                    kind: x.kind,
                })
            }),
            announced: t.bound.as_ref().map(|b| b.announcement.words),
            pending: Pending {
                correction: t.correction,
                reannounce: t.reannounce,
                restore: t.restore,
                repeat: owed.map(|r| RepeatOwed {
                    words: r.words,
                    mover: r.mover,
                    mirror: r.mirror,
                }),
                announce_for: self.needs_announcer(),
            },
            log: c.log.clone(),
            boards,
            tallies: c.tallies,
            started_at: c.started_at,
            latest_arrival: self.config.latest_arrival(),
            limits: self.config.limits,
            kind: self.config.kind,
            names: Names {
                red: self.config.red.name.clone(),
                black: self.config.black.name.clone(),
            },
            offer: c.offer,
            draw_barred: Color::ALL
                .into_iter()
                .filter(|&s| self.reoffer_barred(s))
                .collect(),
            cards,
            warnings: self
                .game
                .warnings()
                .iter()
                .map(|w| GivenWarning {
                    ply: w.ply,
                    warning: w.kind,
                })
                .collect(),
            result: c.result.clone(),
            verified: c.verified.clone(),
            calls: self.open_calls(),
        }
    }

    /// Refuses unless the game is being played (or, with `paused_ok`, paused).
    pub(crate) fn playing(&self, paused_ok: bool) -> Result<(), Rejection> {
        match self.core.phase {
            Phase::Playing => Ok(()),
            Phase::Paused if paused_ok => Ok(()),
            Phase::Paused => Err(Rejection::Paused),
            Phase::NotStarted => Err(Rejection::NotStarted),
            Phase::Over => Err(Rejection::GameOver),
        }
    }

    fn dispatch(
        &mut self,
        seat: Seat,
        command: Command,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        if let Some(side) = seat.side()
            && seat.is_proxy()
            && self.config.side(side).proxy.is_none()
        {
            return Err(Rejection::NoProxy { seat });
        }
        match command {
            Command::Tick => Ok(()),
            Command::Start => self.start(seat, now, out),
            Command::PressClock if self.core.phase == Phase::NotStarted => {
                self.start(seat, now, out)
            }
            Command::Word { text } => self.word(seat, &text, now, out),
            Command::RepeatWord { text } => self.repeat_word(seat, Some(&text), now, out),
            Command::ConfirmRepeat => self.repeat_word(seat, None, now, out),
            Command::Signal => self.signal(seat, out),
            Command::BoardMove { board, mv } => {
                self.board_step(seat, board, BoardStep::Move { mv }, now, out)
            }
            Command::Lift { board, point } => {
                self.board_step(seat, board, BoardStep::Lift { point }, now, out)
            }
            Command::Place { board, point } => {
                self.board_step(seat, board, BoardStep::Place { point }, now, out)
            }
            Command::PressClock => self.press(seat, now, out),
            Command::QueryTime => {
                self.query(seat, now, out);
                Ok(())
            }
            Command::OfferDraw => self.offer_draw(seat, false, now, out),
            Command::AcceptDraw => self.accept_draw(seat, false, now, out),
            Command::DeclineDraw => self.decline_draw(seat, Decline::Declined, out),
            Command::Resign => self.resign(seat, false, now, out),
            Command::HandCard { card } => self.hand_card(seat, card, now, out),
            Command::ReturnCard => self.decline_draw(seat, Decline::CardReturned, out),
            Command::ExchangeCards => self.accept_draw(seat, true, now, out),
            other => self.referee(seat, other, now, out),
        }
    }

    /// 95(3)-(4): black (or the referee for him) starts the clocks; red moves first.
    fn start(&mut self, seat: Seat, now: Millis, out: &mut Vec<Event>) -> Result<(), Rejection> {
        if self.core.phase != Phase::NotStarted {
            return Err(Rejection::AlreadyStarted);
        }
        let mover = self.game.position().turn();
        if seat != Seat::Referee && seat.side() != Some(mover.other()) {
            return Err(Rejection::NotAllowed {
                seat,
                act: Act::StartClocks,
            });
        }
        let clock = clock::run(&self.core.clock, mover, now);
        self.emit(out, Event::Started { at: now, clock });
        self.emit(
            out,
            Event::Turn {
                side: mover,
                ply: 1,
            },
        );
        self.call_announcer(out);
        Ok(())
    }
}
