//! The speech queue's policy, pure (no clock, no sound), so that it can be tested exactly.
//!
//! Three classes ([`Urgency`]), served in the order Urgent, Echo, Reading, first come first
//! served within a class:
//! - an **Urgent** item (time alert, referee message, repetition warning, game end)
//!   interrupts a Reading or an Echo being said; it never interrupts another Urgent item;
//! - an **Echo** (the player's own word, touched piece, impossible) interrupts a Reading and
//!   cuts the Echo being said (the player has heard its start; the new key matters more):
//!   that one is *superseded*. Echoes *waiting* behind an Urgent item are all kept, in
//!   order: after a time alert the player hears every word he gave meanwhile (每一字不得反悔:
//!   he must hear what he has said, not only his last word);
//! - a **Prompt** (the prompt after the first key of a pair) is an Echo that any newer
//!   echo supersedes, waiting or being said: the next key makes it pointless;
//! - a **Reading** (a move, times on request, a card, a board, a check, a violation) waits.
//!
//! Nothing is dropped silently: an interrupted Reading or Echo is *re-queued* at the front
//! of its class and said again from the start once the interruption is over; a superseded
//! Echo is reported (and logged by [`crate::Voice`]) with the item that superseded it.

use std::collections::VecDeque;

use crate::phrasebook::Phrase;
use crate::utterance::Urgency;

/// One thing to say, with its identity in the spoken-text log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Its number, in order of request.
    pub id: u64,
    /// What to say.
    pub phrase: Phrase,
    /// Its class.
    pub urgency: Urgency,
}

/// What the queue did with the items already there when a new one was offered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    /// The item being said must stop now (the caller stops the speaker, then starts
    /// [`SpeechQueue::take_next`]).
    pub interrupt: bool,
    /// The interrupted item went back to the front of its class (`None`: nothing was
    /// interrupted, or it was superseded).
    pub requeued: Option<u64>,
    /// The echo cut by the new echo.
    pub superseded: Vec<Item>,
}

/// The queue: the item being said and those waiting.
#[derive(Debug, Default)]
pub struct SpeechQueue {
    current: Option<Item>,
    waiting: [VecDeque<Item>; 3],
}

fn class(u: Urgency) -> usize {
    match u {
        Urgency::Urgent => 0,
        Urgency::Echo | Urgency::Prompt => 1,
        Urgency::Reading => 2,
    }
}

/// Whether a new item of class `new` stops the item of class `cur` being said.
fn preempts(new: Urgency, cur: Urgency) -> bool {
    match (new, cur) {
        (_, Urgency::Urgent) | (Urgency::Reading, _) => false,
        (Urgency::Urgent | Urgency::Echo | Urgency::Prompt, _) => true,
    }
}

impl SpeechQueue {
    /// An empty queue.
    pub fn new() -> SpeechQueue {
        SpeechQueue::default()
    }

    /// The item being said.
    pub fn current(&self) -> Option<&Item> {
        self.current.as_ref()
    }

    /// Whether nothing is being said or waiting.
    pub fn is_idle(&self) -> bool {
        self.current.is_none() && self.waiting.iter().all(VecDeque::is_empty)
    }

    /// How many items wait.
    pub fn waiting(&self) -> usize {
        self.waiting.iter().map(VecDeque::len).sum()
    }

    /// How many items would be said before a new item of class `u`: those waiting in its
    /// class or a more urgent one, and the one being said unless `u` stops it.
    pub fn ahead_of(&self, u: Urgency) -> usize {
        let waiting: usize = self.waiting[..=class(u)].iter().map(VecDeque::len).sum();
        let current = self
            .current
            .as_ref()
            .is_some_and(|c| !preempts(u, c.urgency));
        waiting + usize::from(current)
    }

    /// Adds `item` under the policy of the module doc.
    pub fn offer(&mut self, item: Item) -> Offer {
        let mut offer = Offer::default();
        let echo = matches!(item.urgency, Urgency::Echo | Urgency::Prompt);
        if echo {
            // A prompt still waiting is pointless once a newer key is echoed.
            let waiting = std::mem::take(&mut self.waiting[1]);
            for it in waiting {
                if it.urgency == Urgency::Prompt {
                    offer.superseded.push(it);
                } else {
                    self.waiting[1].push_back(it);
                }
            }
        }
        if let Some(cur) = &self.current {
            if preempts(item.urgency, cur.urgency) {
                offer.interrupt = true;
                let cur = self.current.take().expect("checked above");
                let cur_echo = matches!(cur.urgency, Urgency::Echo | Urgency::Prompt);
                if echo && cur_echo {
                    offer.superseded.push(cur);
                } else {
                    offer.requeued = Some(cur.id);
                    self.waiting[class(cur.urgency)].push_front(cur);
                }
            }
        }
        self.waiting[class(item.urgency)].push_back(item);
        offer
    }

    /// A waiting item by id.
    pub fn peek_waiting(&self, id: u64) -> Option<&Item> {
        self.waiting.iter().flatten().find(|it| it.id == id)
    }

    /// Takes the next item to say when nothing is being said.
    pub fn take_next(&mut self) -> Option<&Item> {
        if self.current.is_none() {
            self.current = self.waiting.iter_mut().find_map(VecDeque::pop_front);
        }
        self.current.as_ref()
    }

    /// The item being said is over (said, failed or given up): it leaves the queue.
    pub fn finish(&mut self) -> Option<Item> {
        self.current.take()
    }

    /// Empties the queue (the player asked for silence); returns everything it held.
    pub fn clear(&mut self) -> Vec<Item> {
        let mut all: Vec<Item> = self.current.take().into_iter().collect();
        for w in &mut self.waiting {
            all.extend(w.drain(..));
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: u64, urgency: Urgency) -> Item {
        Item {
            id,
            phrase: Phrase::new(&id.to_string(), "", ""),
            urgency,
        }
    }

    fn say_next(q: &mut SpeechQueue) -> u64 {
        q.take_next().expect("something to say").id
    }

    #[test]
    fn s7p6_6_time_alert_interrupts_a_long_reading_which_is_said_again() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Reading));
        assert_eq!(say_next(&mut q), 1);
        let o = q.offer(item(2, Urgency::Urgent));
        assert!(o.interrupt);
        assert_eq!(o.requeued, Some(1));
        assert_eq!(say_next(&mut q), 2);
        q.finish();
        assert_eq!(say_next(&mut q), 1);
    }

    #[test]
    fn a_new_echo_cuts_the_echo_being_said_but_keeps_those_waiting() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Echo));
        assert_eq!(say_next(&mut q), 1);
        let o = q.offer(item(2, Urgency::Echo));
        assert!(o.interrupt);
        assert_eq!(o.requeued, None);
        assert_eq!(o.superseded.iter().map(|i| i.id).collect::<Vec<_>>(), [1]);
        assert_eq!(say_next(&mut q), 2);
        // Behind an urgent message (a time alert) echoes wait, every one of them: after it
        // the player hears each word he gave, in order.
        q.finish();
        q.offer(item(3, Urgency::Urgent));
        assert_eq!(say_next(&mut q), 3);
        assert!(!q.offer(item(4, Urgency::Echo)).interrupt);
        let o = q.offer(item(5, Urgency::Echo));
        assert!(!o.interrupt);
        assert!(o.superseded.is_empty());
        q.finish();
        assert_eq!(say_next(&mut q), 4);
        q.finish();
        assert_eq!(say_next(&mut q), 5);
        // Who goes first: an echo waits for the urgent item being said, a reading for it
        // and for the echo waiting.
        q.finish();
        q.offer(item(9, Urgency::Urgent));
        assert_eq!(say_next(&mut q), 9);
        assert_eq!(q.ahead_of(Urgency::Echo), 1);
        q.offer(item(10, Urgency::Echo));
        assert_eq!(q.ahead_of(Urgency::Reading), 2);
        assert_eq!(q.ahead_of(Urgency::Urgent), 1);
        q.finish();
        assert_eq!(say_next(&mut q), 10);
        assert_eq!(
            q.ahead_of(Urgency::Echo),
            0,
            "a new echo cuts the one being said"
        );
        // A prompt waiting there gives way to the key that follows it.
        q.finish();
        q.offer(item(6, Urgency::Urgent));
        assert_eq!(say_next(&mut q), 6);
        q.offer(item(7, Urgency::Prompt));
        let o = q.offer(item(8, Urgency::Echo));
        assert_eq!(o.superseded.iter().map(|i| i.id).collect::<Vec<_>>(), [7]);
        q.finish();
        assert_eq!(say_next(&mut q), 8);
    }

    #[test]
    fn urgent_items_never_interrupt_each_other_and_readings_never_interrupt() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Urgent));
        assert_eq!(say_next(&mut q), 1);
        assert!(!q.offer(item(2, Urgency::Urgent)).interrupt);
        assert!(!q.offer(item(3, Urgency::Reading)).interrupt);
        assert!(!q.offer(item(4, Urgency::Echo)).interrupt);
        let mut order = vec![];
        while q.take_next().is_some() {
            order.push(q.finish().unwrap().id);
        }
        assert_eq!(order, [1, 2, 4, 3]);
        assert!(q.is_idle());
    }

    #[test]
    fn an_echo_interrupted_by_an_alert_is_said_afterwards() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Reading));
        q.offer(item(2, Urgency::Echo));
        assert_eq!(say_next(&mut q), 2);
        let o = q.offer(item(3, Urgency::Urgent));
        assert_eq!((o.interrupt, o.requeued), (true, Some(2)));
        let mut order = vec![];
        while q.take_next().is_some() {
            order.push(q.finish().unwrap().id);
        }
        assert_eq!(order, [3, 2, 1]);
    }

    #[test]
    fn clear_returns_everything() {
        let mut q = SpeechQueue::new();
        for (i, u) in [Urgency::Reading, Urgency::Echo, Urgency::Urgent]
            .into_iter()
            .enumerate()
        {
            q.offer(item(i as u64, u));
        }
        q.take_next();
        assert_eq!(q.waiting(), 2);
        assert_eq!(q.clear().len(), 3);
        assert!(q.is_idle());
    }
}
