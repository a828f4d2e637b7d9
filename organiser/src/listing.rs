//! How `baoqi round pair` lists a round: the byes and the games decided without play first
//! (a 30-player round prints some 80 lines of links and tokens, and the bye must not be lost
//! below them), then each table with its seats, a player whose name another player of the
//! register shares named with his number and club (two 陳大文 are told apart).

use std::fmt::Write as _;

use baoqi_rules::Color;
use baoqi_tournament::{Player, PlayerId};

use super::rounds::{Decided, Paired};
use crate::admin::{self, Created};
use baoqi_store::model::Role;

/// Whether two names are one as the register compares them: spaces left out, letters in
/// one case (`陳 大文` is `陳大文`).
fn same_name(a: &str, b: &str) -> bool {
    let key = |s: &str| {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    key(a) == key(b)
}

/// Player `id` as a listing names him: his name, and when another line of `register`
/// shares it, his number and club too (`陳大文（#3 東區）`).
pub fn label(register: &[Player], id: PlayerId) -> String {
    let Some(p) = register.iter().find(|p| p.id == id) else {
        return id.to_string();
    };
    let shared = register
        .iter()
        .any(|o| o.id != p.id && same_name(&o.name, &p.name));
    if !shared {
        return p.name.clone();
    }
    match p.club.as_deref().filter(|c| !c.trim().is_empty()) {
        Some(club) => format!("{}（{} {club}）", p.name, p.id),
        None => format!("{}（{}）", p.name, p.id),
    }
}

/// `paired`'s tables and seats with each player named by [`label`]: what is printed, not
/// what is stored.
fn shown(paired: &Paired) -> Created {
    let mut created = paired.created.clone();
    let player = |table, colour: Color| {
        paired
            .boards
            .iter()
            .find(|b| b.table == Some(table))
            .map(|b| {
                let id = match colour {
                    Color::Red => Some(b.red),
                    Color::Black => b.black,
                };
                id.map(|id| label(&paired.register, id))
            })
    };
    for t in &mut created.tables {
        if let Some(Some(red)) = player(t.id, Color::Red) {
            t.red = red;
        }
        if let Some(Some(black)) = player(t.id, Color::Black) {
            t.black = black;
        }
    }
    for s in &mut created.seats {
        let colour = match s.seat.role {
            Role::Red => Color::Red,
            Role::Black => Color::Black,
            _ => continue,
        };
        if let [table] = s.seat.tables[..]
            && let Some(Some(name)) = player(table, colour)
        {
            s.seat.name = name;
        }
    }
    created
}

/// A round's listing: its byes, the games decided without play and the rules the pairing
/// had to break first, then each table's players and join links ([`admin::describe`]).
pub fn describe(paired: &Paired, base: &str) -> String {
    let mut out = format!("round {}\n", paired.round);
    for p in &paired.byes {
        let _ = writeln!(
            out,
            "  bye (輪空): {} {}",
            p.id,
            label(&paired.register, p.id)
        );
    }
    for d in &paired.decided {
        let _ = writeln!(
            out,
            "  board {} without play (不戰, 89(2)): {} vs {} {}",
            d.row.board,
            named(paired, Some(d.row.red), d),
            named(paired, d.row.black, d),
            super::standings::result_text(d.row.result),
        );
    }
    for r in &paired.relaxed {
        let _ = writeln!(out, "  relaxed: {r:?}");
    }
    out.push_str(&admin::describe(&shown(paired), base));
    for (name, tables) in &paired.extended {
        let list: Vec<String> = tables.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            out,
            "referee monitor ({name}): the link given before now covers table(s) {} too (一個連結用於整個賽事)",
            list.join(", ")
        );
    }
    out
}

/// `#3 王芳` of a board decided without play, or the number alone for a player the
/// register lacks.
fn named(paired: &Paired, id: Option<PlayerId>, d: &Decided) -> String {
    let Some(id) = id else {
        return String::new();
    };
    let known = d.red.iter().chain(d.black.iter()).any(|p| p.id == id);
    if known {
        format!("{id} {}", label(&paired.register, id))
    } else {
        id.to_string()
    }
}
