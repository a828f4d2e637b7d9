//! No record file panics its reader or makes it grow without bound: XQF, CBF and `DhtmlXQ`
//! written by us from random legal setups and games, then damaged the ways files are
//! damaged — bytes changed, cut short, a version and keys made up, fragments of the
//! format's own syntax inserted — and random bytes as well. A read that succeeds gives a
//! line no longer than [`MAX_PLIES`] from a legal position.

use crate::common::{self, Rng};

use baoqi_grammar::record::{MAX_PLIES, RecordGame, RecordHeader, RecordResult};
use baoqi_grammar::{cbf, dhtmlxq, xqf};
use baoqi_rules::{Move, Position};
use proptest::prelude::*;

/// A game of up to `plies` random legal moves from a random setup or the start.
fn game(seed: u64, plies: usize) -> (Position, Vec<Move>) {
    let start = common::setup(seed).unwrap_or_else(Position::start);
    let mut rng = Rng(seed ^ 0x5555);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos.make(m);
        moves.push(m);
    }
    (start, moves)
}

const HEADER: RecordHeader<'static> = RecordHeader {
    comments: &[],
    round: "",
    table: "",
    title: "題",
    event: "賽",
    date: "2026",
    site: "館",
    red: "紅",
    black: "黑",
    result: RecordResult::Draw,
};

/// What any successful read must satisfy.
fn sound(g: &RecordGame) -> Result<(), TestCaseError> {
    prop_assert!(g.moves.len() <= MAX_PLIES);
    prop_assert!(Position::from_fen(&g.start.fen()).is_ok());
    Ok(())
}

/// `bytes` with each `(at, value)` poke applied (`at` taken modulo the length), then cut.
fn damage(mut bytes: Vec<u8>, pokes: &[(usize, u8)], cut: Option<usize>) -> Vec<u8> {
    if !bytes.is_empty() {
        let n = bytes.len();
        for (at, v) in pokes {
            bytes[at % n] = *v;
        }
    }
    if let Some(c) = cut {
        bytes.truncate(c % (bytes.len() + 1));
    }
    bytes
}

/// Pieces of XML and of the CBF and `DhtmlXQ` syntax to insert.
const FRAGMENTS: [&str; 16] = [
    "<Move value=\"77-47\"/>",
    "<Move value=\"99-99\" end=\"1\"/>",
    "</MoveList>",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&#0;",
    "&x;",
    "<!DOCTYPE a>",
    "<Head>",
    "[DhtmlXQ_movelist]",
    "[/DhtmlXQ_movelist]",
    "[DhtmlXQ_binit]",
    "9999",
    "7747",
    "\u{feff}",
];

fn spliced(text: &str, inserts: &[(usize, usize)]) -> String {
    let mut out = text.to_string();
    for (at, f) in inserts {
        let mut i = at % (out.len() + 1);
        while !out.is_char_boundary(i) {
            i -= 1;
        }
        out.insert_str(i, FRAGMENTS[f % FRAGMENTS.len()]);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn no_xqf_panics_its_reader(
        seed in any::<u64>(),
        plies in 0usize..120,
        pokes in prop::collection::vec((any::<usize>(), any::<u8>()), 0..12),
        cut in prop::option::of(any::<usize>()),
        version in prop::option::of(0u8..=20),
        keys in any::<[u8; 3]>(),
        noise in prop::collection::vec(any::<u8>(), 0..2048),
    ) {
        let (start, moves) = game(seed, plies);
        let mut bytes = xqf::write_xqf(&HEADER, &start, &moves);
        if let Some(v) = version {
            // A made-up encrypted header: the keys sum to zero, so the reader decrypts.
            bytes[2] = v;
            bytes[0x0D..0x10].copy_from_slice(&keys);
            bytes[0x0C] = 0u8.wrapping_sub(keys[0]).wrapping_sub(keys[1]).wrapping_sub(keys[2]);
        }
        for b in [damage(bytes, &pokes, cut), [b"XQ".as_slice(), &noise].concat(), noise.clone()] {
            if let Ok(g) = xqf::read_xqf(&b) {
                sound(&g)?;
            }
        }
    }

    #[test]
    fn no_cbf_panics_its_reader(
        seed in any::<u64>(),
        plies in 0usize..120,
        inserts in prop::collection::vec((any::<usize>(), any::<usize>()), 0..6),
        pokes in prop::collection::vec((any::<usize>(), any::<u8>()), 0..6),
        cut in prop::option::of(any::<usize>()),
    ) {
        let (start, moves) = game(seed, plies);
        let text = spliced(&cbf::write_cbf(&HEADER, &start, &moves), &inserts);
        for b in [text.clone().into_bytes(), damage(text.into_bytes(), &pokes, cut)] {
            if let Ok(g) = cbf::read_cbf_bytes(&b) {
                sound(&g)?;
            }
        }
    }

    #[test]
    fn no_dhtmlxq_panics_its_reader(
        seed in any::<u64>(),
        plies in 0usize..120,
        inserts in prop::collection::vec((any::<usize>(), any::<usize>()), 0..6),
        pokes in prop::collection::vec((any::<usize>(), any::<u8>()), 0..6),
        cut in prop::option::of(any::<usize>()),
    ) {
        let (start, moves) = game(seed, plies);
        let text = spliced(&dhtmlxq::write_dhtmlxq(&HEADER, &start, &moves), &inserts);
        for b in [text.clone().into_bytes(), damage(text.into_bytes(), &pokes, cut)] {
            if let Ok(g) = dhtmlxq::read_dhtmlxq_bytes(&b) {
                sound(&g)?;
            }
        }
    }

    #[test]
    fn what_each_format_writes_reads_back_from_any_legal_setup(seed in any::<u64>(), plies in 0usize..150) {
        let (start, moves) = game(seed, plies);
        let reads = [
            xqf::read_xqf(&xqf::write_xqf(&HEADER, &start, &moves)).map_err(|e| e.to_string()),
            cbf::read_cbf(&cbf::write_cbf(&HEADER, &start, &moves)).map_err(|e| e.to_string()),
            dhtmlxq::read_dhtmlxq(&dhtmlxq::write_dhtmlxq(&HEADER, &start, &moves)).map_err(|e| e.to_string()),
        ];
        for (k, r) in reads.into_iter().enumerate() {
            let g = r.map_err(|e| TestCaseError::fail(format!("format {k}: {e}")))?;
            prop_assert_eq!(g.start.fen(), start.fen(), "format {}", k);
            prop_assert_eq!(&g.moves, &moves, "format {}", k);
            prop_assert_eq!(g.result, RecordResult::Draw);
        }
    }
}
