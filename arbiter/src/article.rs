//! [`Article`]: a reference into the 通用象棋規則, as events and rulings cite it. Either an
//! article with its items (`69(2)(c)(ii)`, `126(1)(b)`) or a provision of 附表七, whose part
//! comes first (`6.4(b)` is 附表七 第六部分 4(b), `7.4(2)(g)(ii)` 第七部分 4(2)(g)(ii)).
//! JSON: the reference as the rule text writes it.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A reference to an article or to a provision of 附表七.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Article(Cow<'static, str>);

/// Why a text is not a reference to the rule text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a reference to the rules: write an article and its items, e.g. 70(1) or 69(2)(c)(ii), or 附表七's part first, e.g. 7.4(2)(d)"
)]
pub struct ParseArticleError(pub String);

/// Whether `s` is `N`, `N(i)(j)…` or `P.N(i)…` with items of digits, a letter, or a roman
/// numeral.
fn valid(s: &str) -> bool {
    let (head, items) = s
        .split_once('(')
        .map_or((s, ""), |(h, _)| (h, &s[h.len()..]));
    let number = |t: &str| !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
    let head_ok = match head.split_once('.') {
        Some((part, n)) => matches!(part, "6" | "7") && number(n),
        None => number(head),
    };
    let mut rest = items;
    while let Some(r) = rest.strip_prefix('(') {
        let Some((item, after)) = r.split_once(')') else {
            return false;
        };
        let roman = !item.is_empty() && item.bytes().all(|b| matches!(b, b'i' | b'v' | b'x'));
        let letter = item.len() == 1 && item.bytes().all(|b| b.is_ascii_lowercase());
        if !(number(item) || roman || letter) {
            return false;
        }
        rest = after;
    }
    head_ok && rest.is_empty()
}

impl Article {
    /// A reference written in the code. A malformed one is a bug: it panics in debug
    /// builds, and every such reference is reached by the tests.
    pub fn of(text: &'static str) -> Article {
        debug_assert!(valid(text), "malformed article reference {text:?}");
        Article(Cow::Borrowed(text))
    }

    /// The reference as the rule text writes it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part of 附表七 this provision belongs to (6 or 7), or `None` for an article.
    pub fn schedule7_part(&self) -> Option<u8> {
        let head = self.0.split('(').next().unwrap_or_default();
        head.split_once('.').and_then(|(p, _)| p.parse().ok())
    }
}

/// Several references, in the order cited: `["6.4(b)", "126(1)(b)"]`.
pub fn articles(texts: &[&'static str]) -> Vec<Article> {
    texts.iter().map(|t| Article::of(t)).collect()
}

impl FromStr for Article {
    type Err = ParseArticleError;
    fn from_str(s: &str) -> Result<Article, ParseArticleError> {
        let s = s.trim();
        if valid(s) {
            Ok(Article(Cow::Owned(s.to_owned())))
        } else {
            Err(ParseArticleError(s.to_owned()))
        }
    }
}

impl fmt::Display for Article {
    /// The reference itself (`69(2)(c)(ii)`); how a reader's language frames it (第…條,
    /// 附表七 …) is the edge's business.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Article {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Article {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Article, D::Error> {
        let s = <Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_of_the_rule_text_are_read() {
        for ok in [
            "67",
            "69(2)(c)(ii)",
            "126(1)(b)",
            "6.4(b)",
            "7.4(2)(g)(ii)",
            "103",
        ] {
            let a: Article = ok.parse().unwrap();
            assert_eq!(a.as_str(), ok);
        }
        assert_eq!(Article::of("7.4(2)(d)").schedule7_part(), Some(7));
        assert_eq!(Article::of("6.3(7)").schedule7_part(), Some(6));
        assert_eq!(Article::of("70(4)").schedule7_part(), None);
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in ["", "第70條", "70(1", "8.1", "70(1)x", "6.4, 7.5", "70(ab)"] {
            assert!(bad.parse::<Article>().is_err(), "{bad}");
        }
        let e = serde_json::from_str::<Article>("\"70 (1)\"").unwrap_err();
        assert!(e.to_string().contains("not a reference"), "{e}");
    }
}
