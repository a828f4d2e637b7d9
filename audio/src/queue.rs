//! The speech queue's policy, pure (no clock, no sound), so that it can be tested exactly.
//!
//! Four classes ([`Urgency`]), served in the order Urgent, Echo, News, Reading, first come
//! first served within a class:
//! - an **Urgent** item (time alert, referee message, repetition warning, game end)
//!   interrupts anything but another Urgent item;
//! - an **Echo** (the player's own word, touched piece, impossible, the read-back of a bound
//!   announcement) interrupts News and Readings and cuts the Echo being said (the player
//!   has heard its start; the new key matters more): that one is *superseded*. Only the
//!   newest Echo waits: behind a time alert the player's quick keys would otherwise queue
//!   up (five echoes, then the opponent's move, heard 3–5 s late); the newest says
//!   where he stands, and once four words are given their read-back says them all
//!   (每一字不得反悔; the spoken log keeps every echo with its fate);
//! - a **Prompt** (the prompt after the first key of a pair) is an Echo that any newer
//!   echo supersedes, waiting or being said: the next key makes it pointless. It never cuts
//!   an Echo (the read-back of a bound announcement outranks the prompt of a command);
//! - **News** (the opponent's move, a check's outcome, a violation, an offer) interrupts a
//!   Reading; an Urgent item or an Echo that interrupts it puts it back, to be said again
//!   from the start (it is short, and the player must hear it);
//! - a **Reading** (times, board queries, help) waits, and is *cut* for good by anything
//!   more urgent: a 57-second reading never holds back the opponent's move, and is not
//!   started again by a key press; the player asks for it again (`.`) if he wants it.
//!
//! The queue is bounded: a Reading of the same [`Topic`] as one waiting replaces it (the
//! newer answer is the one wanted), and at most [`READINGS`] Readings wait; past that the
//! oldest gives way. Within News, a newer game status replaces one waiting, and a move goes
//! ahead of the other News waiting. Nothing is dropped silently: every item ends with a reported fate.

use std::collections::VecDeque;

use crate::phrasebook::Phrase;
use crate::utterance::Urgency;

/// How many Readings may wait.
pub const READINGS: usize = 3;

/// What a Reading answers, so that a newer answer replaces an older one still waiting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Topic {
    /// Both times.
    Times,
    /// A board query (file, rank, pieces, the whole position).
    Board,
    /// The key map.
    Help,
    /// Where the game stands (its start, whose turn on joining, resumption): News that a
    /// newer one replaces while it waits ("對局未開始" is stale once "對局開始" is said).
    Status,
    /// A move: News that goes ahead of other News waiting (the opponent's move is what
    /// the player waits for).
    Move,
    /// Anything else: never replaced.
    #[default]
    Other,
}

/// One thing to say, with its identity in the spoken-text log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Its number, in order of request.
    pub id: u64,
    /// What to say.
    pub phrase: Phrase,
    /// Its class.
    pub urgency: Urgency,
    /// What it answers.
    pub topic: Topic,
}

/// What the queue did with the items already there when a new one was offered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    /// The item being said must stop now (the caller stops the speaker, then starts
    /// [`SpeechQueue::take_next`]).
    pub interrupt: bool,
    /// The interrupted item went back to the front of its class (`None`: nothing was
    /// interrupted, or it was superseded or cut).
    pub requeued: Option<u64>,
    /// Items replaced by the new one: the echo it cut, a prompt waiting, an older reading
    /// of the same topic or past the bound.
    pub superseded: Vec<Item>,
    /// The Reading being said, cut for good.
    pub cut: Option<Item>,
}

/// The queue: the item being said and those waiting.
#[derive(Debug, Default)]
pub struct SpeechQueue {
    current: Option<Item>,
    waiting: [VecDeque<Item>; 4],
}

fn class(u: Urgency) -> usize {
    match u {
        Urgency::Urgent => 0,
        Urgency::Echo | Urgency::Prompt => 1,
        Urgency::News => 2,
        Urgency::Reading => 3,
    }
}

fn is_echo(u: Urgency) -> bool {
    matches!(u, Urgency::Echo | Urgency::Prompt)
}

/// Whether a new item of class `new` stops the item of class `cur` being said.
fn preempts(new: Urgency, cur: Urgency) -> bool {
    match (new, cur) {
        (_, Urgency::Urgent) | (Urgency::Reading, _) | (Urgency::Prompt, Urgency::Echo) => false,
        (Urgency::News, cur) => cur == Urgency::Reading,
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
        if is_echo(item.urgency) {
            // A prompt still waiting is pointless once a newer key is echoed; an echo still
            // waiting gives way to a newer echo (only the newest waits).
            let newer_echo = item.urgency == Urgency::Echo;
            offer
                .superseded
                .extend(self.remove_waiting(1, |it| it.urgency == Urgency::Prompt || newer_echo));
        }
        if item.urgency == Urgency::Reading {
            self.make_room(&item, &mut offer);
        }
        if item.urgency == Urgency::News && item.topic == Topic::Status {
            offer
                .superseded
                .extend(self.remove_waiting(2, |it| it.topic == Topic::Status));
        }
        if let Some(cur) = self.current.take_if(|c| preempts(item.urgency, c.urgency)) {
            offer.interrupt = true;
            if is_echo(item.urgency) && is_echo(cur.urgency) {
                offer.superseded.push(cur);
            } else if cur.urgency == Urgency::Reading {
                offer.cut = Some(cur);
            } else {
                offer.requeued = Some(cur.id);
                self.waiting[class(cur.urgency)].push_front(cur);
            }
        }
        if item.urgency == Urgency::News && item.topic == Topic::Move {
            // Behind any News interrupted just now (said again from its start), ahead of
            // the rest.
            let at = usize::from(offer.requeued.is_some()).min(self.waiting[2].len());
            self.waiting[2].insert(at, item);
        } else {
            self.waiting[class(item.urgency)].push_back(item);
        }
        offer
    }

    /// Before a new Reading waits: an older one of its topic gives way, and the oldest when
    /// [`READINGS`] already wait.
    fn make_room(&mut self, item: &Item, offer: &mut Offer) {
        if item.topic != Topic::Other {
            offer
                .superseded
                .extend(self.remove_waiting(3, |it| it.topic == item.topic));
        }
        while self.waiting[3].len() >= READINGS {
            offer.superseded.extend(self.waiting[3].pop_front());
        }
    }

    /// Takes the waiting items of class index `c` that `pred` selects, keeping the others
    /// in order.
    fn remove_waiting(&mut self, c: usize, pred: impl Fn(&Item) -> bool) -> Vec<Item> {
        let (gone, kept): (Vec<Item>, Vec<Item>) = std::mem::take(&mut self.waiting[c])
            .into_iter()
            .partition(pred);
        self.waiting[c] = kept.into();
        gone
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

    /// The stop key: the Reading, News or Prompt being said, every Prompt and Reading
    /// waiting, leave the queue; returns them. News waiting stays: the stop key is for a long
    /// reading, and must never lose the opponent's move still to be said. A
    /// prompt is pointless once its sequence is complete: `/ /` (stop) is itself the key
    /// that completes the `/` whose prompt 「指令」 is being said.
    pub fn stop(&mut self) -> Vec<Item> {
        let mut gone: Vec<Item> = self
            .current
            .take_if(|c| {
                matches!(
                    c.urgency,
                    Urgency::Reading | Urgency::News | Urgency::Prompt
                )
            })
            .into_iter()
            .collect();
        gone.extend(self.remove_waiting(1, |it| it.urgency == Urgency::Prompt));
        gone.extend(self.waiting[3].drain(..));
        gone
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
        about(id, urgency, Topic::Other)
    }

    fn about(id: u64, urgency: Urgency, topic: Topic) -> Item {
        Item {
            id,
            phrase: Phrase::new(&id.to_string(), "", ""),
            urgency,
            topic,
        }
    }

    fn ids(items: &[Item]) -> Vec<u64> {
        items.iter().map(|i| i.id).collect()
    }

    fn say_next(q: &mut SpeechQueue) -> u64 {
        q.take_next().expect("something to say").id
    }

    #[test]
    fn a_long_reading_is_cut_for_good_by_the_opponents_move_an_alert_or_a_key() {
        for by in [Urgency::News, Urgency::Urgent, Urgency::Echo] {
            let mut q = SpeechQueue::new();
            q.offer(item(1, Urgency::Reading));
            assert_eq!(say_next(&mut q), 1);
            let o = q.offer(item(2, by));
            assert!(o.interrupt, "{by:?}");
            assert_eq!((o.requeued, o.cut.map(|c| c.id)), (None, Some(1)), "{by:?}");
            assert_eq!(say_next(&mut q), 2);
            q.finish();
            assert!(q.is_idle(), "{by:?}: the reading is not started again");
        }
    }

    #[test]
    fn the_opponents_move_is_said_again_after_an_alert_or_a_key_cuts_it() {
        for by in [Urgency::Urgent, Urgency::Echo] {
            let mut q = SpeechQueue::new();
            q.offer(item(1, Urgency::News));
            assert_eq!(say_next(&mut q), 1);
            let o = q.offer(item(2, by));
            assert_eq!((o.interrupt, o.requeued), (true, Some(1)), "{by:?}");
            assert_eq!(say_next(&mut q), 2);
            q.finish();
            assert_eq!(say_next(&mut q), 1);
        }
        // A reading never cuts the news; news waits for urgent items.
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::News));
        say_next(&mut q);
        assert!(!q.offer(item(2, Urgency::Reading)).interrupt);
        assert!(!q.offer(item(3, Urgency::News)).interrupt);
    }

    #[test]
    fn a_newer_reading_of_the_same_topic_replaces_the_waiting_one_and_readings_are_bounded() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Urgent));
        say_next(&mut q);
        q.offer(about(2, Urgency::Reading, Topic::Times));
        let o = q.offer(about(3, Urgency::Reading, Topic::Times));
        assert_eq!(ids(&o.superseded), [2]);
        for id in 4..=6 {
            q.offer(item(id, Urgency::Reading));
        }
        assert_eq!(q.waiting(), READINGS);
        assert!(q.peek_waiting(3).is_none(), "the oldest gave way");
        let o = q.offer(about(7, Urgency::Reading, Topic::Board));
        assert_eq!(ids(&o.superseded), [4]);
    }

    #[test]
    fn the_stop_key_silences_readings_but_never_loses_news_waiting() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Reading));
        say_next(&mut q);
        q.offer(item(2, Urgency::Reading));
        assert_eq!(ids(&q.stop()), [1, 2]);
        // News being said may be stopped (it was heard starting); news waiting stays.
        q.offer(item(3, Urgency::News));
        say_next(&mut q);
        q.offer(item(6, Urgency::News));
        assert_eq!(ids(&q.stop()), [3]);
        assert_eq!(say_next(&mut q), 6);
        q.finish();
        q.offer(item(4, Urgency::Urgent));
        say_next(&mut q);
        q.offer(item(5, Urgency::Echo));
        assert!(q.stop().is_empty());
        assert_eq!(q.waiting(), 1);
    }

    #[test]
    fn a_new_echo_cuts_the_echo_being_said_and_only_the_newest_waits() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Echo));
        assert_eq!(say_next(&mut q), 1);
        let o = q.offer(item(2, Urgency::Echo));
        assert!(o.interrupt);
        assert_eq!(o.requeued, None);
        assert_eq!(o.superseded.iter().map(|i| i.id).collect::<Vec<_>>(), [1]);
        assert_eq!(say_next(&mut q), 2);
        // Behind an urgent message (a time alert) only the newest echo waits: the player's
        // quick keys do not queue up ahead of the opponent's move.
        q.finish();
        q.offer(item(3, Urgency::Urgent));
        assert_eq!(say_next(&mut q), 3);
        assert!(!q.offer(item(4, Urgency::Echo)).interrupt);
        let o = q.offer(item(5, Urgency::Echo));
        assert!(!o.interrupt);
        assert_eq!(ids(&o.superseded), [4]);
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
    fn a_move_goes_ahead_of_news_waiting_and_a_newer_status_replaces_an_older_one() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Echo));
        say_next(&mut q);
        q.offer(about(2, Urgency::News, Topic::Other));
        q.offer(about(3, Urgency::News, Topic::Status));
        let o = q.offer(about(4, Urgency::News, Topic::Status));
        assert_eq!(ids(&o.superseded), [3], "the stale status gives way");
        q.offer(about(5, Urgency::News, Topic::Move));
        q.finish();
        let mut order = vec![];
        while q.take_next().is_some() {
            order.push(q.finish().unwrap().id);
        }
        assert_eq!(order, [5, 2, 4]);
    }

    #[test]
    fn the_stop_key_ends_the_prompt_of_its_own_sequence() {
        // `/` says 「指令」; the second `/` (stop) must not leave it said in full.
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Prompt));
        assert_eq!(say_next(&mut q), 1);
        assert_eq!(ids(&q.stop()), [1]);
        assert!(q.is_idle());
        // …nor waiting behind an echo; the echo stays.
        q.offer(item(2, Urgency::Echo));
        say_next(&mut q);
        q.offer(item(3, Urgency::Prompt));
        assert_eq!(ids(&q.stop()), [3]);
        assert_eq!(q.current().map(|c| c.id), Some(2));
    }

    #[test]
    fn a_prompt_never_cuts_the_read_back_being_said() {
        let mut q = SpeechQueue::new();
        q.offer(item(1, Urgency::Echo));
        assert_eq!(say_next(&mut q), 1);
        let o = q.offer(item(2, Urgency::Prompt));
        assert!(!o.interrupt && o.superseded.is_empty());
        q.finish();
        assert_eq!(say_next(&mut q), 2);
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
