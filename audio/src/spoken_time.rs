//! Numbers and clock times as a person says them: `五分三十秒`, `一分鐘`, `三十秒`,
//! `一小時零五分`, in characters for the screen, in characters for the Cantonese voice and
//! in pinyin for the Mandarin voice.
//!
//! Rules followed (both languages say times the same way in characters):
//! - whole minutes take 鐘: `一分鐘`, `十五分鐘`; minutes with seconds do not: `五分三十秒`;
//! - under a minute only seconds: `三十秒`, `零秒`;
//! - from one hour: `一小時`, `一小時三十分`, `一小時零五分`, seconds dropped only when the
//!   clock has an hour or more (a player never needs the seconds then);
//! - 2 before a unit is 兩 (`兩分鐘`, `兩小時`), but 二 inside a number (`十二`, `二十二`);
//! - seconds under ten after minutes take 零: `十分零五秒`;
//! - a remaining time is read rounded down to the whole second (the clock must never
//!   promise time the player does not have).

use std::time::Duration;

use crate::phrasebook::Phrase;

/// Digits 0–9 as characters, Cantonese (read right by the `yue` voice) and pinyin.
const DIGITS: [(&str, &str); 10] = [
    ("零", "ling2"),
    ("一", "yi1"),
    ("二", "er4"),
    ("三", "san1"),
    ("四", "si4"),
    ("五", "wu3"),
    ("六", "liu4"),
    ("七", "qi1"),
    ("八", "ba1"),
    ("九", "jiu3"),
];

/// A number 0..=9999 as (characters, pinyin), e.g. 35 → (`三十五`, `san1 shi2 wu3`).
///
/// `liang`: say 2 as 兩 (liang3) when the whole number is 2 (before a unit, `兩分鐘`).
pub fn number(n: u32, liang: bool) -> (String, String) {
    if n == 2 && liang {
        return ("兩".to_owned(), "liang3".to_owned());
    }
    if n < 10 {
        let (c, p) = DIGITS[n as usize];
        return (c.to_owned(), p.to_owned());
    }
    let n = n.min(9999);
    let mut chars = String::new();
    let mut pinyin: Vec<&str> = Vec::new();
    let units = [
        (1000, "千", "qian1"),
        (100, "百", "bai3"),
        (10, "十", "shi2"),
    ];
    let mut rest = n;
    let mut pending_zero = false;
    let mut started = false;
    for (value, unit_c, unit_p) in units {
        let d = rest / value;
        rest %= value;
        if d == 0 {
            pending_zero |= started;
            continue;
        }
        if pending_zero {
            chars.push('零');
            pinyin.push("ling2");
            pending_zero = false;
        }
        // 10–19 are 十, 十一 … (not 一十) when they stand alone.
        if !(value == 10 && d == 1 && !started) {
            let (c, p) = DIGITS[d as usize];
            chars.push_str(c);
            pinyin.push(p);
        }
        chars.push_str(unit_c);
        pinyin.push(unit_p);
        started = true;
    }
    if rest > 0 {
        if pending_zero {
            chars.push('零');
            pinyin.push("ling2");
        }
        let (c, p) = DIGITS[rest as usize];
        chars.push_str(c);
        pinyin.push(p);
    }
    (chars, pinyin.join(" "))
}

/// A count as a phrase (`三`, `san1`): the same characters for the screen and the
/// Cantonese voice, pinyin for Mandarin.
pub fn count(n: u32) -> Phrase {
    let (c, p) = number(n, false);
    Phrase::new(&c, &c, &p)
}

/// A count shown in digits (`4`, as the pages show it) and spoken in words (四, si4): a
/// violation's tally and its limit.
pub fn count_in_digits(n: u32) -> Phrase {
    Phrase {
        display: n.to_string(),
        ..count(n)
    }
}

/// A clock time said naturally, rounded down to the second: spoken in words (五分三十秒,
/// wu3 fen1 san1 shi2 miao3), shown in digits (`5 分 30 秒`) as the pages show it: a braille
/// line and a screen reader read digits in fewer cells and syllables.
///
/// ```
/// # use std::time::Duration;
/// let t = baoqi_audio::spoken_time::duration(Duration::from_secs(330));
/// assert_eq!(t.yue, "五分三十秒");
/// assert_eq!(t.cmn, "wu3 fen1 san1 shi2 miao3");
/// assert_eq!(t.display, "5 分 30 秒");
/// ```
pub fn duration(d: Duration) -> Phrase {
    let secs = d.as_secs();
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    let mut out = Builder::default();
    if h > 0 {
        out.part(h, true, "小時", "xiao3 shi2");
        if m > 0 {
            if m < 10 {
                out.zero();
            }
            out.part(m, false, "分", "fen1");
        }
    } else if m > 0 && s == 0 {
        out.part(m, true, "分鐘", "fen1 zhong1");
    } else if m > 0 {
        out.part(m, true, "分", "fen1");
        if s < 10 {
            out.zero();
        }
        out.part(s, false, "秒", "miao3");
    } else {
        out.part(s, true, "秒", "miao3");
    }
    let cmn = out.pinyin.join(" ");
    Phrase::new(&shown(h, m, s), &out.chars, &cmn)
}

/// A clock time in digits, by the same rules as it is said: `1 小時 5 分`, `2 分鐘`,
/// `5 分 30 秒`, `30 秒`.
fn shown(h: u64, m: u64, s: u64) -> String {
    match (h, m, s) {
        (1.., 0, _) => format!("{h} 小時"),
        (1.., _, _) => format!("{h} 小時 {m} 分"),
        (0, 1.., 0) => format!("{m} 分鐘"),
        (0, 1.., _) => format!("{m} 分 {s} 秒"),
        (0, 0, _) => format!("{s} 秒"),
    }
}

/// Characters and pinyin syllables of a time being said.
#[derive(Default)]
struct Builder {
    chars: String,
    pinyin: Vec<String>,
}

impl Builder {
    fn part(&mut self, n: u64, liang: bool, unit_c: &str, unit_p: &str) {
        let (nc, np) = number(n.min(9999) as u32, liang);
        self.chars.push_str(&nc);
        self.chars.push_str(unit_c);
        self.pinyin.push(np);
        self.pinyin.push(unit_p.to_owned());
    }

    fn zero(&mut self) {
        self.chars.push('零');
        self.pinyin.push("ling2".to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Phrase {
        duration(Duration::from_secs(s))
    }

    #[test]
    fn numbers_read_like_chinese() {
        let cases = [
            (0, "零"),
            (7, "七"),
            (10, "十"),
            (12, "十二"),
            (20, "二十"),
            (35, "三十五"),
            (100, "一百"),
            (105, "一百零五"),
            (110, "一百一十"),
            (1005, "一千零五"),
        ];
        for (n, want) in cases {
            assert_eq!(number(n, false).0, want, "{n}");
        }
        assert_eq!(number(35, false).1, "san1 shi2 wu3");
        assert_eq!(number(2, true), ("兩".to_owned(), "liang3".to_owned()));
    }

    #[test]
    fn s7p6_6_times_are_said_naturally() {
        let cases = [
            (330, "五分三十秒", "wu3 fen1 san1 shi2 miao3", "5 分 30 秒"),
            (60, "一分鐘", "yi1 fen1 zhong1", "1 分鐘"),
            (30, "三十秒", "san1 shi2 miao3", "30 秒"),
            (10, "十秒", "shi2 miao3", "10 秒"),
            (0, "零秒", "ling2 miao3", "0 秒"),
            (120, "兩分鐘", "liang3 fen1 zhong1", "2 分鐘"),
            (2, "兩秒", "liang3 miao3", "2 秒"),
            (900, "十五分鐘", "shi2 wu3 fen1 zhong1", "15 分鐘"),
            (3600, "一小時", "yi1 xiao3 shi2", "1 小時"),
            (
                5400,
                "一小時三十分",
                "yi1 xiao3 shi2 san1 shi2 fen1",
                "1 小時 30 分",
            ),
            (
                3900,
                "一小時零五分",
                "yi1 xiao3 shi2 ling2 wu3 fen1",
                "1 小時 5 分",
            ),
            (7200, "兩小時", "liang3 xiao3 shi2", "2 小時"),
            (
                122,
                "兩分零二秒",
                "liang3 fen1 ling2 er4 miao3",
                "2 分 2 秒",
            ),
            (605, "十分零五秒", "shi2 fen1 ling2 wu3 miao3", "10 分 5 秒"),
        ];
        for (s, said, cmn, shown) in cases {
            let t = secs(s);
            assert_eq!((t.yue.as_str(), t.cmn.as_str()), (said, cmn), "{s}");
            assert_eq!(t.display, shown, "{s}");
        }
    }

    #[test]
    fn remaining_time_is_rounded_down() {
        assert_eq!(duration(Duration::from_millis(30_999)).yue, "三十秒");
        assert_eq!(duration(Duration::from_millis(59_999)).display, "59 秒");
    }
}
