//! What a refreshable braille display shows, and how its keys move through the messages:
//! pure, with no display and no clock (`docs/keypad.md`, "Braille").
//!
//! Every message is kept, in order. The display shows one window of one message at a time.
//! A message from the game (the opponent's move, a ruling, a time alert) is shown at once
//! when everything before it has been read, and otherwise waits its turn: nothing is ever
//! replaced before the player has read it. Panning right reads on, window by window and then
//! into the next message; a message counts as read when the player pans on past it, or
//! starts typing while it is shown. What answers the player's own key is shown at once.
//!
//! The last cell carries two marks in the dots Chinese braille leaves free: dot 7 when this
//! message goes on beyond the window, dot 8 when unread messages wait.

use super::contract::Cells;

/// Dot 7: this message goes on to the right.
pub const MORE_TEXT: u8 = 0x40;
/// Dot 8: unread messages wait.
pub const MORE_MESSAGES: u8 = 0x80;

/// What comes to the display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A word of the player's own announcement, added to the line he is typing.
    Word(Cells),
    /// The prompt after the first key of a two-key word, shown after the words typed.
    Prompt(Cells),
    /// The answer to the player's own key (his announcement read back, a reading he asked
    /// for): kept, and shown at once; the words typed are done with.
    Answer(Cells),
    /// An answer in the middle of his announcement (the piece his first words touched):
    /// kept and shown at once, the words typed kept for the next word.
    Aside(Cells),
    /// News from the game: kept, shown at once only when nothing before it is unread.
    News(Cells),
}

/// A key of the display that moves through the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// The previous window (or the end of the previous message).
    PanLeft,
    /// The next window, or the next message to read.
    PanRight,
    /// The start of the previous message.
    Previous,
    /// The start of the next message.
    Next,
    /// The first message kept.
    First,
    /// The newest message; everything before it counts as read.
    Newest,
}

/// Where the display is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    /// Nothing has come yet.
    Empty,
    /// A window of a message: its index and the window's first cell.
    Message { index: usize, offset: usize },
    /// The line the player is typing.
    Typing,
}

#[derive(Clone, Debug)]
struct Entry {
    cells: Cells,
    read: bool,
}

/// The display's state.
#[derive(Clone, Debug)]
pub struct Reader {
    width: usize,
    log: Vec<Entry>,
    view: View,
    typed: Cells,
    prompt: Cells,
}

impl Reader {
    /// A display `width` cells wide, empty.
    pub fn new(width: usize) -> Reader {
        Reader {
            width: width.max(2),
            log: Vec::new(),
            view: View::Empty,
            typed: Cells::default(),
            prompt: Cells::default(),
        }
    }

    /// The number of messages kept.
    pub fn kept(&self) -> usize {
        self.log.len()
    }

    /// How many messages wait unread.
    pub fn unread(&self) -> usize {
        self.log.iter().filter(|e| !e.read).count()
    }

    /// Something arrives.
    pub fn arrive(&mut self, what: Incoming) {
        match what {
            Incoming::Word(c) => {
                self.read_shown();
                append(&mut self.typed, &c);
                self.prompt = Cells::default();
                self.view = View::Typing;
            }
            Incoming::Prompt(c) => {
                self.read_shown();
                self.prompt = c;
                self.view = View::Typing;
            }
            Incoming::Answer(c) => {
                self.typed = Cells::default();
                self.keep_and_show(c);
            }
            Incoming::Aside(c) => self.keep_and_show(c),
            Incoming::News(c) => {
                let free = self.unread() == 0
                    && match self.view {
                        View::Empty => true,
                        View::Message { index, .. } => self.log[index].read,
                        View::Typing => false,
                    };
                self.log.push(Entry {
                    cells: c,
                    read: false,
                });
                if free {
                    self.show(self.log.len() - 1);
                }
            }
        }
    }

    /// The player pressed a key of the keypad's (typed on the braille keyboard): what was
    /// shown has been read, and a prompt has had its answer. With no words typed, the
    /// display goes back to the messages, so that what comes next is shown.
    pub fn typing(&mut self) {
        self.read_shown();
        self.prompt = Cells::default();
        if self.view == View::Typing && self.typed.is_empty() && !self.log.is_empty() {
            let last = self.log.len() - 1;
            self.read_on(last);
        }
    }

    /// A display key moves the view.
    pub fn go(&mut self, m: Move) {
        let last = self.log.len().checked_sub(1);
        let Some(last) = last else { return };
        let (index, offset) = match self.view {
            View::Message { index, offset } => (index, offset),
            View::Empty | View::Typing => (last, usize::MAX),
        };
        let starts = self
            .log
            .get(index)
            .map(|e| windows(&e.cells, self.width))
            .unwrap_or_default();
        match m {
            Move::PanRight if self.view == View::Typing => self.read_on(last),
            Move::PanRight => {
                if let Some(&next) = starts.iter().find(|s| **s > offset) {
                    self.view = View::Message {
                        index,
                        offset: next,
                    };
                } else {
                    self.log[index].read = true;
                    self.read_on(index);
                }
            }
            Move::PanLeft => match starts.iter().rev().find(|s| **s < offset) {
                Some(&prev) => {
                    self.view = View::Message {
                        index,
                        offset: prev,
                    }
                }
                None if index > 0 => {
                    let before = windows(&self.log[index - 1].cells, self.width);
                    self.view = View::Message {
                        index: index - 1,
                        offset: before.last().copied().unwrap_or(0),
                    };
                }
                None => {}
            },
            Move::Previous => self.show(index.saturating_sub(usize::from(offset != usize::MAX))),
            Move::Next => {
                self.log[index].read = true;
                self.show((index + 1).min(last));
            }
            Move::First => self.show(0),
            Move::Newest => {
                for e in &mut self.log {
                    e.read = true;
                }
                self.show(last);
            }
        }
    }

    /// The cells the display shows now, `width` of them.
    pub fn window(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.width];
        let (cells, offset, message) = match self.view {
            View::Empty => return out,
            View::Typing => {
                let mut line = self.typed.clone();
                append(&mut line, &self.prompt);
                // The end of the line, where the next word goes.
                let from = windows(&line, self.width).last().copied().unwrap_or(0);
                (line, from, None)
            }
            View::Message { index, offset } => (self.log[index].cells.clone(), offset, Some(index)),
        };
        let end = window_end(&cells, offset, self.width);
        out[..end - offset].copy_from_slice(&cells.dots[offset..end]);
        let mut marks = 0;
        if end < cells.len() {
            marks |= MORE_TEXT;
        }
        if self
            .log
            .iter()
            .enumerate()
            .any(|(i, e)| !e.read && Some(i) != message)
        {
            marks |= MORE_MESSAGES;
        }
        out[self.width - 1] |= marks;
        out
    }

    /// Keeps an answer to the player's key, read, and shows it.
    fn keep_and_show(&mut self, cells: Cells) {
        self.prompt = Cells::default();
        self.log.push(Entry { cells, read: true });
        self.show(self.log.len() - 1);
    }

    /// Shows message `index` from its start.
    fn show(&mut self, index: usize) {
        self.view = View::Message { index, offset: 0 };
    }

    /// After message `index`: the first unread message, else the one after it.
    fn read_on(&mut self, index: usize) {
        if let Some(first) = self.log.iter().position(|e| !e.read) {
            self.show(first);
        } else if index + 1 < self.log.len() {
            self.show(index + 1);
        } else {
            self.show(index.min(self.log.len() - 1));
        }
    }

    /// The message shown counts as read.
    fn read_shown(&mut self) {
        if let View::Message { index, .. } = self.view {
            self.log[index].read = true;
        }
    }
}

/// `more` after `line`.
fn append(line: &mut Cells, more: &Cells) {
    line.dots.extend_from_slice(&more.dots);
    line.starts.extend_from_slice(&more.starts);
}

/// The first cell after the window that starts at `offset`: as many cells as fit, ending
/// before a character that would not fit whole.
fn window_end(cells: &Cells, offset: usize, width: usize) -> usize {
    let full = (offset + width).min(cells.len());
    if full == cells.len() {
        return full;
    }
    (offset + 1..=full)
        .rev()
        .find(|&j| cells.starts.get(j).copied().unwrap_or(true))
        .unwrap_or(full)
}

/// The first cell of each window of `cells`.
fn windows(cells: &Cells, width: usize) -> Vec<usize> {
    let mut starts = vec![0];
    let mut at = 0;
    while window_end(cells, at, width) < cells.len() {
        at = window_end(cells, at, width);
        starts.push(at);
    }
    starts
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
