//! Board queries a blind player asks by ear: what stands on a file or a rank, where
//! pieces of a kind stand, the whole position. Files and ranks are counted as the asking
//! player counts them in traditional notation: files 1–9 from his right (附表六), ranks 1–10
//! from his own side.

use baoqi_rules::{Color, Kind, Piece, Point, Position};

/// A piece and where it stands, seen from the asking player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The piece.
    pub piece: Piece,
    /// File 1..=9 from the asker's right.
    pub file: u8,
    /// Rank 1..=10 from the asker's side.
    pub rank: u8,
}

impl Seen {
    fn new(piece: Piece, p: Point, asker: Color) -> Seen {
        Seen {
            piece,
            file: p.file_number_for(asker),
            rank: p.rank_for(asker) + 1,
        }
    }

    /// Spoken-style text: colour, piece, file and rank, e.g. `紅傌 二線 三排`.
    pub fn describe(&self) -> String {
        format!(
            "{}{} {}線 {}排",
            self.piece.color.chinese(),
            self.piece.chinese(),
            chinese_number(self.file),
            chinese_number(self.rank)
        )
    }
}

impl From<Seen> for baoqi_audio::PieceAt {
    fn from(s: Seen) -> baoqi_audio::PieceAt {
        baoqi_audio::PieceAt {
            piece: s.piece,
            file: s.file,
            rank: s.rank,
        }
    }
}

/// 1..=10 as Chinese numerals.
pub fn chinese_number(n: u8) -> &'static str {
    [
        "零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
    ]
    .get(usize::from(n))
    .copied()
    .unwrap_or("?")
}

fn seen_all(pos: &Position, asker: Color, keep: impl Fn(Point, Piece) -> bool) -> Vec<Seen> {
    let mut out: Vec<Seen> = Point::all()
        .filter_map(|p| pos.piece_at(p).map(|piece| (p, piece)))
        .filter(|&(p, piece)| keep(p, piece))
        .map(|(p, piece)| Seen::new(piece, p, asker))
        .collect();
    out.sort_by_key(|s| (s.rank, s.file));
    out
}

/// What stands on file `n` (1..=9 from the asker's right), nearest the asker first.
pub fn file(pos: &Position, asker: Color, n: u8) -> Vec<Seen> {
    seen_all(pos, asker, |p, _| p.file_number_for(asker) == n)
}

/// What stands on rank `n` (1..=10 from the asker's side), from the asker's right.
pub fn rank(pos: &Position, asker: Color, n: u8) -> Vec<Seen> {
    let mut v = seen_all(pos, asker, |p, _| p.rank_for(asker) + 1 == n);
    v.sort_by_key(|s| s.file);
    v
}

/// Where `owner`'s pieces of `kind` stand, seen from the asker.
pub fn pieces(pos: &Position, asker: Color, owner: Color, kind: Kind) -> Vec<Seen> {
    seen_all(pos, asker, |_, piece| piece == Piece::new(owner, kind))
}

/// Every piece, the asker's own first (general first, then by kind), then the opponent's.
pub fn whole(pos: &Position, asker: Color) -> Vec<Seen> {
    let mut v = seen_all(pos, asker, |_, _| true);
    v.sort_by_key(|s| (s.piece.color != asker, s.piece.kind, s.rank, s.file));
    v
}

/// Joins descriptions for speaking; says 無子 (no piece) for an empty answer.
pub fn describe(list: &[Seen]) -> String {
    if list.is_empty() {
        return "無子".to_owned();
    }
    list.iter()
        .map(Seen::describe)
        .collect::<Vec<_>>()
        .join("，")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_five_from_the_start_seen_by_red() {
        let list = file(&Position::start(), Color::Red, 5);
        assert_eq!(
            describe(&list),
            "紅帥 五線 一排，紅兵 五線 四排，黑卒 五線 七排，黑將 五線 十排"
        );
    }

    #[test]
    fn black_counts_files_and_ranks_from_its_own_side() {
        let list = pieces(&Position::start(), Color::Black, Color::Black, Kind::Horse);
        assert_eq!(describe(&list), "黑馬 二線 一排，黑馬 八線 一排");
        let red_cannons = pieces(&Position::start(), Color::Black, Color::Red, Kind::Cannon);
        assert_eq!(describe(&red_cannons), "紅炮 二線 八排，紅炮 八線 八排");
    }

    #[test]
    fn rank_and_whole_board() {
        let start = Position::start();
        assert_eq!(rank(&start, Color::Red, 3).len(), 2);
        assert_eq!(describe(&rank(&start, Color::Red, 5)), "無子");
        let all = whole(&start, Color::Red);
        assert_eq!(all.len(), 32);
        assert_eq!(all[0].piece, Piece::new(Color::Red, Kind::General));
        assert_eq!(all[16].piece.color, Color::Black);
    }
}
