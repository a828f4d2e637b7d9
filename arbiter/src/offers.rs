//! Draws and resignation (69(1), 69(2), 123) and the deaf players' cards (7.1(2), SPEC §9).
//! A card action and a spoken one have the same effect; the events carry both forms so the
//! server can show a card to a deaf player and speak to a VI one.

use baoqi_rules::Color;

use crate::command::{Card, Millis, Seat, ViolationKind};
use crate::event::{Event, Outcome};
use crate::rejection::Rejection;
use crate::state::{Match, card_index, material};

impl Match {
    /// Offers, answers and resignations come from the players themselves: a proxy operates
    /// boards, clock and announcements only (7.4(2)(d)(ii), 7.4(2)(g)(iii), 7.4(3)(c)).
    fn player_side(seat: Seat, what: &str) -> Result<Color, Rejection> {
        match seat {
            Seat::Red | Seat::Black => Ok(seat.side().expect("a player seat has a side")),
            _ => Err(Rejection::NotAllowed {
                seat,
                what: format!("{what}: only the player himself may (69)"),
            }),
        }
    }

    fn cards_used(&self) -> Result<(), Rejection> {
        if self.config.cards() {
            Ok(())
        } else {
            Err(Rejection::Card {
                why: "no deaf player at this table: cards are not used (7.1(2))".into(),
            })
        }
    }

    /// 69(2)(b): offered in one's own turn, valid from the end of that turn; 69(2)(c)(ii),
    /// 123(2)(c): a second offer before the opponent's material changed or his own offer was
    /// declined is 連續提和, one 技術犯規, and is not passed on.
    pub(crate) fn offer_draw(
        &mut self,
        seat: Seat,
        card: bool,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(false)?;
        let side = Self::player_side(seat, "offer a draw")?;
        if side != self.core.turn.side || self.core.turn.reannounce.is_some() {
            return Err(Rejection::OutOfOrder {
                why: "a draw is offered in one's own turn (69(2)(b))".into(),
            });
        }
        if self.core.offer.is_some() {
            return Err(Rejection::Invalid("a draw offer is already pending".into()));
        }
        if card {
            self.cards_used()?;
            if self.core.cards[side.index()][card_index(Card::Draw)] != side {
                return Err(Rejection::Card {
                    why: "the draw card is not in your hand".into(),
                });
            }
        }
        let opponent = material(self.game.position(), side.other());
        if self.core.offer_guard[side.index()].as_deref() == Some(opponent.as_str()) {
            self.violation(
                side,
                ViolationKind::Technical,
                "連續提和".into(),
                "69(2)(c)(ii), 123(2)(c)",
                now,
                out,
            );
            return Ok(());
        }
        if card {
            self.emit(
                out,
                Event::CardMoved {
                    owner: side.into(),
                    card: Card::Draw,
                    holder: side.other().into(),
                    how: "handed".into(),
                },
            );
        }
        self.emit(
            out,
            Event::DrawOffered {
                side: side.into(),
                card,
            },
        );
        Ok(())
    }

    /// The player `seat` answering `what`, and the opponent's offer he answers: (who offered,
    /// whether the offer stands yet, whether it was made with a card).
    fn answerable_offer(
        &self,
        seat: Seat,
        what: &str,
    ) -> Result<(Color, (Color, bool, bool)), Rejection> {
        self.playing(true)?;
        let side = Self::player_side(seat, what)?;
        match self.core.offer {
            Some(offer) if offer.0 != side => Ok((side, offer)),
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
        let (side, (by, stands, offered_by_card)) = self.answerable_offer(seat, "accept a draw")?;
        if !stands {
            return Err(Rejection::OutOfOrder {
                why: "the offer is valid only once the offering turn ends (69(2)(b))".into(),
            });
        }
        if card {
            self.cards_used()?;
            if self.core.cards[side.index()][card_index(Card::Draw)] != side {
                return Err(Rejection::Card {
                    why: "your draw card is not in your hand".into(),
                });
            }
        }
        if card || offered_by_card {
            self.emit(
                out,
                Event::CardMoved {
                    owner: side.into(),
                    card: Card::Draw,
                    holder: by.into(),
                    how: "exchanged".into(),
                },
            );
        }
        self.end(
            out,
            Outcome::Draw,
            "雙方同意議和".into(),
            if card || offered_by_card {
                "69(2)(e), 7.1(2)"
            } else {
                "69(2)(e)"
            },
            now,
        );
        Ok(())
    }

    /// 69(2)(c), 7.1(2): declining (by voice, or by returning the card).
    pub(crate) fn decline_draw(
        &mut self,
        seat: Seat,
        how: &str,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let (side, (by, _, by_card)) = self.answerable_offer(seat, "decline a draw")?;
        let returning = how == "card returned";
        if returning && !by_card {
            return Err(Rejection::Card {
                why: "the offer was not made with a card".into(),
            });
        }
        if by_card {
            self.emit(
                out,
                Event::CardMoved {
                    owner: by.into(),
                    card: Card::Draw,
                    holder: by.into(),
                    how: "returned".into(),
                },
            );
        }
        self.emit(
            out,
            Event::DrawDeclined {
                side: side.into(),
                how: how.into(),
            },
        );
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
        let side = Self::player_side(seat, "resign")?;
        if card {
            self.cards_used()?;
            if self.core.cards[side.index()][card_index(Card::Resign)] != side {
                return Err(Rejection::Card {
                    why: "the resignation card is not in your hand".into(),
                });
            }
            self.emit(
                out,
                Event::CardMoved {
                    owner: side.into(),
                    card: Card::Resign,
                    holder: side.other().into(),
                    how: "handed".into(),
                },
            );
        }
        self.end(
            out,
            Outcome::win_for(side.other()),
            format!("{}方認負", side.chinese()),
            if card { "69(1), 7.1(2)" } else { "69(1)" },
            now,
        );
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
