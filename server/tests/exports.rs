//! The exports of a finished game as a referee downloads them (附表四 第三部份): the
//! scoresheet's header complete, the PGN with the Seven Tag Roster, ＝ and `[%clk]`,
//! file names made of the event, round and table, and the PGN read back with the same moves
//! by baoqi's reader (what `baoqi replay` runs) and by the Python package `cchess`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, Request, header};
use baoqi_arbiter::Command;
use baoqi_server::Hub;
use baoqi_server::table::Handled;
use baoqi_store::model::{Role, TableId};
use common::{event_file, start};
use tower::ServiceExt;

/// Two tables of round 2; the game is played on the second. One referee names that table,
/// a chief referee covers the whole event.
const EVENT: &str = r#"
name = "2026 視障及共融象棋公開賽"
[[referees]]
name = "總裁判"
[[referees]]
name = "陳裁判"
tables = [2]
[[tables]]
round = 2
name = "普通賽 1"
red = "甲"
black = "乙"
[tables.match]
kind = "regular"
time.default = { base_ms = 600_000, mode = "plain" }
[[tables]]
round = 2
name = "普通賽 2"
red = "丙"
black = "丁"
[tables.match]
kind = "regular"
time.default = { base_ms = 600_000, mode = "plain" }
"#;

pub(crate) async fn ok(hub: &Hub, table: TableId, actor: Role, command: Command) {
    let handle = hub.table(table).expect("the table runs");
    let answer = handle
        .command(
            baoqi_server::table::SeatKey::in_process(actor),
            command.clone(),
        )
        .await;
    assert!(
        matches!(answer, Some(Handled::Accepted { .. })),
        "{actor:?} {command:?}: {answer:?}"
    );
}

pub(crate) async fn play(hub: &Hub, table: TableId, actor: Role, mv: &str) {
    let mv = mv.parse().expect("an ICCS move");
    ok(hub, table, actor, Command::BoardMove { board: None, mv }).await;
    ok(hub, table, actor, Command::PressClock).await;
}

/// 炮二平五 with a draw offer (＝), declined; 馬8進7; 馬二進三; black resigns; the referee
/// verifies the result. Returns the moves in ICCS.
async fn finished_game(hub: &Hub, table: TableId) -> Vec<String> {
    ok(hub, table, Role::Referee, Command::Start).await;
    ok(hub, table, Role::Red, Command::OfferDraw).await;
    play(hub, table, Role::Red, "h2e2").await;
    ok(hub, table, Role::Black, Command::DeclineDraw).await;
    play(hub, table, Role::Black, "h9g7").await;
    play(hub, table, Role::Red, "h0g2").await;
    ok(hub, table, Role::Black, Command::Resign).await;
    let note = "雙方口頭確認".to_string();
    ok(hub, table, Role::Referee, Command::VerifyResult { note }).await;
    ["h2e2", "h9g7", "h0g2"].map(String::from).to_vec()
}

async fn get(hub: &Arc<Hub>, path: String) -> (HeaderMap, String) {
    let router = baoqi_server::http::router(hub.clone());
    let request = Request::get(path).body(Body::empty()).unwrap();
    let resp = router.oneshot(request).await.unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    (headers, String::from_utf8(bytes.to_vec()).unwrap())
}

fn disposition(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_DISPOSITION)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

fn tag<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("[{name} \"");
    pgn.lines()
        .find_map(|l| l.strip_prefix(open.as_str())?.strip_suffix("\"]"))
}

/// `YYYY.MM.DD` with digits only (no `?`).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'.'
            } else {
                c.is_ascii_digit()
            }
        })
}

#[tokio::test]
async fn s4p3_the_scoresheet_header_is_complete() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let table = s.created.tables[1].id;
    finished_game(&s.hub, table).await;
    let (headers, sheet) = get(&s.hub, format!("/api/tables/{table}/scoresheet.txt")).await;
    for line in [
        "比賽名稱：2026 視障及共融象棋公開賽".to_string(),
        format!("對賽輪數：2　對賽枱號：{table}（普通賽 2）"),
        "紅方：丙　黑方：丁".to_string(),
        "終局裁判：陳裁判".to_string(),
        "結果口頭核實：雙方口頭確認".to_string(),
    ] {
        assert!(sheet.lines().any(|l| l == line), "no {line:?} in\n{sheet}");
    }
    let date = sheet
        .lines()
        .find_map(|l| l.strip_prefix("對賽日期："))
        .unwrap_or_default();
    assert!(is_date(date), "{sheet}");
    assert!(sheet.contains("炮二平五＝ ("), "{sheet}");
    let named = disposition(&headers);
    assert!(
        named.contains(&format!("filename=\"baoqi-2026-r2-t{table}.txt\"")),
        "{named}"
    );
    s.stop().await;
}

#[tokio::test]
async fn s4p3_the_pgn_has_the_seven_tags_draw_marks_and_clock_times() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let table = s.created.tables[1].id;
    finished_game(&s.hub, table).await;
    let (headers, pgn) = get(&s.hub, format!("/api/tables/{table}/game.pgn")).await;
    let roster: Vec<&str> = pgn.lines().take(7).collect();
    let names: Vec<&str> = roster
        .iter()
        .filter_map(|l| l.strip_prefix('[')?.split(' ').next())
        .collect();
    assert_eq!(
        names,
        ["Event", "Site", "Date", "Round", "Red", "Black", "Result"],
        "{pgn}"
    );
    assert_eq!(tag(&pgn, "Event"), Some("2026 視障及共融象棋公開賽"));
    assert_eq!(tag(&pgn, "Site"), Some("?"), "no venue is known: {pgn}");
    assert!(tag(&pgn, "Date").is_some_and(is_date), "{pgn}");
    assert_eq!(tag(&pgn, "Date"), tag(&pgn, "UTCDate"), "{pgn}");
    assert_eq!(tag(&pgn, "Round"), Some("2"));
    assert_eq!(tag(&pgn, "Result"), Some("1-0"));
    assert!(pgn.contains("炮二平五 {＝ [%clk 0:"), "{pgn}");
    assert_eq!(pgn.matches("[%clk ").count(), 3, "{pgn}");
    let named = disposition(&headers);
    let fallback = format!("attachment; filename=\"baoqi-2026-r2-t{table}.pgn\"; ");
    assert!(named.starts_with(&fallback), "{named}");
    let utf8 = "filename*=UTF-8''baoqi-2026-%E8%A6%96%E9%9A%9C%E5%8F%8A";
    assert!(named.contains(utf8), "{named}");
    s.stop().await;
}

/// A Python with the package `cchess` (`BAOQI_PYTHON`, `.venv/bin/python` or `python3`).
fn python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    [
        std::env::var_os("BAOQI_PYTHON").map(PathBuf::from),
        Some(root.join(".venv/bin/python")),
        Some(PathBuf::from("python3")),
    ]
    .into_iter()
    .flatten()
    .find(|py| {
        Process::new(py)
            .args(["-c", "import cchess"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// The moves `cchess` reads from a PGN file, in ICCS; `None` without a Python with cchess
/// (the test is then skipped, unless `BAOQI_REQUIRE_CCHESS=1`).
fn cchess_moves(file: &Path) -> Option<Vec<String>> {
    let Some(py) = python() else {
        assert!(
            !std::env::var("BAOQI_REQUIRE_CCHESS").is_ok_and(|v| v == "1"),
            "no Python with cchess"
        );
        eprintln!("skipped: no Python with `cchess` (scripts/setup.sh test)");
        return None;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/cchess_pgn.py");
    let out = Process::new(py)
        .env("PYTHONUTF8", "1")
        .arg(script)
        .arg(file)
        .output()
        .expect("python runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    Some(text.lines().map(String::from).collect())
}

#[tokio::test]
async fn s4p3_the_exported_pgn_reads_back_with_the_same_moves() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let table = s.created.tables[1].id;
    let played = finished_game(&s.hub, table).await;
    let (_, pgn) = get(&s.hub, format!("/api/tables/{table}/game.pgn")).await;
    let replayed = baoqi_grammar::pgn::replay_bytes(pgn.as_bytes()).expect("baoqi reads it");
    let ours: Vec<String> = replayed.moves.iter().map(ToString::to_string).collect();
    assert_eq!(ours, played, "{pgn}");
    let file = s.db.with_extension(format!("t{table}.pgn"));
    std::fs::write(&file, &pgn).unwrap();
    let theirs = cchess_moves(&file);
    let _ = std::fs::remove_file(&file);
    if let Some(theirs) = theirs {
        assert_eq!(theirs, played, "cchess read\n{pgn}");
    }
    s.stop().await;
}
