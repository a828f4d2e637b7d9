//! Draws and resignation (69(1), 69(2), 123) and the deaf players' cards (7.1(2)).
//! A card action and a spoken one have the same effect; the events carry both forms so the
//! server can show a card to a deaf player and speak to a VI one.

use baoqi_rules::{Color, Move};

use crate::article::articles;
use crate::command::{Card, Millis, Seat, ViolationKind};
use crate::event::{Event, Outcome};
use crate::reasons::{CardMove, Decline, EndCause, ViolationReason};
use crate::rejection::{Act, CardProblem, Rejection, Wait};
use crate::state::{Match, material};
use crate::turn::BoardMove;
use crate::view::OfferView;

impl Match {
    /// Offers, answers and resignations come from the players themselves: a proxy operates
    /// boards, clock and announcements only (7.4(2)(d)(ii), 7.4(2)(g)(iii), 7.4(3)(c)).
    fn player_side(seat: Seat) -> Result<Color, Rejection> {
        match (seat, seat.side()) {
            (Seat::Red | Seat::Black, Some(side)) => Ok(side),
            _ => Err(Rejection::NotAllowed {
                seat,
                act: Act::Offer,
            }),
        }
    }

    /// Refuses unless the cards are used and `side` holds its own `card` (7.1(2)).
    fn own_card(&self, side: Color, card: Card) -> Result<(), Rejection> {
        if !self.config.cards() {
            return Err(Rejection::Card {
                why: CardProblem::NotUsed,
            });
        }
        if !self.core.cards.has_own(side, card) {
            return Err(Rejection::Card {
                why: CardProblem::NotInHand { card },
            });
        }
        Ok(())
    }

    /// 69(2)(b): offered in one's own turn, valid from the end of that turn; 69(2)(c)(ii),
    /// 123(2)(c): a second offer before the opponent's material changed or his own offer was
    /// declined is 連續提和, one 技術犯規, and is not passed on. A capture the turn has
    /// already completed counts as a change.
    pub(crate) fn offer_draw(
        &mut self,
        seat: Seat,
        card: bool,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(false)?;
        let side = Self::player_side(seat)?;
        if side != self.core.turn.side || self.core.turn.reannounce.is_some() {
            return Err(Rejection::OutOfOrder {
                wait: Wait::OwnTurn,
            });
        }
        if self.core.offer.is_some() {
            return Err(Rejection::OfferPending);
        }
        if card {
            self.own_card(side, Card::Draw)?;
        }
        if self.reoffer_barred(side) {
            let reason = ViolationReason::ConsecutiveDrawOffer;
            let cited = articles(&["69(2)(c)(ii)", "123(2)(c)"]);
            self.violation(side, ViolationKind::Technical, reason, cited, now, out);
            return Ok(());
        }
        if card {
            self.emit(
                out,
                Event::CardMoved {
                    owner: side,
                    card: Card::Draw,
                    holder: side.other(),
                    how: CardMove::Handed,
                },
            );
        }
        self.emit(out, Event::DrawOffered { side, card });
        Ok(())
    }

    /// Whether a draw offer by `side` now would be 連續提和 (69(2)(c)(ii), 123(2)(c)): his
    /// last offer was declined and the opponent's material has not changed since, nor has the
    /// opponent's own offer been declined. The pages warn before the draw card is handed.
    pub(crate) fn reoffer_barred(&self, side: Color) -> bool {
        let opponent = self.material_after_turn(side.other());
        self.core.offer_guard[side.index()].as_deref() == Some(opponent.as_str())
    }

    /// `side`'s material once the move of the turn in progress is complete (6.3(3): the board
    /// move and the announcement both done), else as it stands: 69(2)(c)(ii) asks whether it
    /// changed before the offer, and the offer is formal only at the turn's end (69(2)(b)).
    fn material_after_turn(&self, side: Color) -> String {
        let pos = self.game.position();
        match self.completed_move() {
            Some(m) => material(&pos.after(m), side),
            None => material(pos, side),
        }
    }

    /// The move the turn in progress has completed (6.3(3)): the legal move the board shows
    /// and the announcement names, or either alone when the other is not used. `None` while
    /// either is missing or they disagree: the press would not play it as it is.
    fn completed_move(&self) -> Option<Move> {
        let announced = self.core.turn.bound.as_ref().map(|b| b.announcement.mv);
        let m = match (self.board_move(), announced) {
            (BoardMove::Move(m), Some(a)) => (a == Some(m)).then_some(m),
            (BoardMove::Move(m), None) if !self.config.announcing() => Some(m),
            (BoardMove::NoBoard, Some(a)) => a,
            _ => None,
        }?;
        self.game.position().is_legal(m).then_some(m)
    }

    /// The player `seat` answering, and the opponent's offer he answers.
    fn answerable_offer(&self, seat: Seat) -> Result<(Color, OfferView), Rejection> {
        self.playing(true)?;
        let side = Self::player_side(seat)?;
        match self.core.offer {
            Some(offer) if offer.side != side => Ok((side, offer)),
            _ => Err(Rejection::NoOffer),
        }
    }

    /// 69(2)(e), 7.1(2): accepting a standing offer (by voice, or by exchanging cards).
    pub(crate) fn accept_draw(
        &mut self,
        seat: Seat,
        card: bool,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let (side, offer) = self.answerable_offer(seat)?;
        if !offer.stands {
            return Err(Rejection::OutOfOrder {
                wait: Wait::OfferNotValidYet,
            });
        }
        if card {
            self.own_card(side, Card::Draw)?;
        }
        let by_card = card || offer.card;
        if by_card {
            self.emit(
                out,
                Event::CardMoved {
                    owner: side,
                    card: Card::Draw,
                    holder: offer.side,
                    how: CardMove::Exchanged,
                },
            );
        }
        let cause = EndCause::DrawAgreed { card: by_card };
        let cited: &[&str] = if by_card {
            &["69(2)(e)", "7.1(2)"]
        } else {
            &["69(2)(e)"]
        };
        self.end(out, Outcome::Draw, cause, cited, now);
        Ok(())
    }

    /// 69(2)(c), 7.1(2): declining (by voice, or by returning the card).
    pub(crate) fn decline_draw(
        &mut self,
        seat: Seat,
        how: Decline,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let (side, offer) = self.answerable_offer(seat)?;
        if how == Decline::CardReturned && !offer.card {
            return Err(Rejection::Card {
                why: CardProblem::NotByCard,
            });
        }
        if offer.card {
            self.emit(
                out,
                Event::CardMoved {
                    owner: offer.side,
                    card: Card::Draw,
                    holder: offer.side,
                    how: CardMove::Returned,
                },
            );
        }
        self.emit(out, Event::DrawDeclined { side, how });
        Ok(())
    }

    /// 69(1): resignation in any turn; by card it takes effect the moment it is handed
    /// (7.1(2): 認負卡牌一經交負即時生效).
    pub(crate) fn resign(
        &mut self,
        seat: Seat,
        card: bool,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(true)?;
        let side = Self::player_side(seat)?;
        if card {
            self.own_card(side, Card::Resign)?;
            self.emit(
                out,
                Event::CardMoved {
                    owner: side,
                    card: Card::Resign,
                    holder: side.other(),
                    how: CardMove::Handed,
                },
            );
        }
        let cause = EndCause::Resigned { loser: side, card };
        let cited: &[&str] = if card {
            &["69(1)", "7.1(2)"]
        } else {
            &["69(1)"]
        };
        self.end(out, Outcome::win_for(side.other()), cause, cited, now);
        Ok(())
    }

    /// Hands a card to the opponent.
    pub(crate) fn hand_card(
        &mut self,
        seat: Seat,
        card: Card,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        match card {
            Card::Draw => self.offer_draw(seat, true, now, out),
            Card::Resign => self.resign(seat, true, now, out),
        }
    }
}
