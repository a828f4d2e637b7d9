//! `baoqi export --pgn` of a finished game reads back through `baoqi replay` with the same
//! moves: the clock comments, ＝ marks and `1...` numbers of the export are skipped by the
//! reader, and the replay ends on the game's final position.

use std::process::Command as Process;
use std::sync::Arc;

use baoqi_arbiter::Command;
use baoqi_organiser::admin;
use baoqi_server::Hub;
use baoqi_server::table::Handled;
use baoqi_store::config::EventFile;
use baoqi_store::model::{Role, TableId};
use baoqi_store::{SqliteStore, Store};

use crate::common;
use crate::records_cchess::{cchess, run_reader};
use common::{BIN, Scratch};

const EVENT: &str = r#"
name = "2026 視障及共融象棋公開賽"
[[referees]]
name = "陳裁判"
[[tables]]
round = 1
name = "普通賽 1"
red = "丙"
black = "丁"
[tables.match]
kind = "regular"
time.default = { base_ms = 600_000, mode = "increment", extra_ms = 5_000 }
"#;

async fn ok(hub: &Hub, table: TableId, actor: Role, command: Command) {
    let answer = hub
        .table(table)
        .unwrap()
        .command(baoqi_server::table::SeatKey::in_process(actor), command)
        .await;
    assert!(
        matches!(answer, Some(Handled::Accepted { .. })),
        "{answer:?}"
    );
}

/// Plays 炮二平五＝ 馬8進7 馬二進三 車9平8 and black resigns; returns the final FEN.
async fn finished_game(db: &std::path::Path) -> (TableId, String) {
    let store = SqliteStore::open(db, false).unwrap();
    let file = EventFile::from_toml(EVENT).unwrap();
    let created = admin::create_event(&store, &file).unwrap();
    let store: Arc<dyn Store> = Arc::new(store);
    let hub = Hub::open(store).unwrap();
    hub.start_tables(true).await.unwrap();
    let table = created.tables[0].id;
    ok(&hub, table, Role::Referee, Command::Start).await;
    ok(&hub, table, Role::Red, Command::OfferDraw).await;
    for (i, mv) in ["h2e2", "h9g7", "h0g2", "i9h9"].into_iter().enumerate() {
        let actor = if i % 2 == 0 { Role::Red } else { Role::Black };
        let mv = mv.parse().unwrap();
        ok(&hub, table, actor, Command::BoardMove { board: None, mv }).await;
        ok(&hub, table, actor, Command::PressClock).await;
    }
    ok(&hub, table, Role::Black, Command::Resign).await;
    let (_, view) = hub.table(table).unwrap().record().await.unwrap();
    hub.shutdown();
    (table, view.fen.clone())
}

fn baoqi(args: &[&str]) -> String {
    let out = Process::new(BIN).args(args).output().expect("run baoqi");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "baoqi {args:?}: {err}");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[tokio::test]
async fn s4p3_an_exported_pgn_replays_to_the_games_final_position() {
    let dir = Scratch::new("cli-export");
    let db = dir.join("event.db");
    let (table, fen) = finished_game(&db).await;
    let pgn = baoqi(&[
        "export",
        "--pgn",
        &table.to_string(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(
        pgn.contains("{＝ [%clk 0:10:0") && pgn.contains(" 1... 馬８進７ {[%clk"),
        "{pgn}"
    );
    let file = dir.join("game.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let out = baoqi(&["replay", file.to_str().unwrap()]);
    let expected = format!("{}\tok\t4\t{fen}", file.display());
    assert_eq!(out.lines().next(), Some(expected.as_str()), "{pgn}\n{out}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
}

/// `baoqi export --xqf` writes the game for 象棋演播室's readers; the Python package
/// `cchess` reads it back with the same moves, the result and the players.
#[tokio::test]
async fn an_exported_xqf_is_read_back_by_cchess() {
    let Some(py) = cchess() else {
        return;
    };
    let dir = Scratch::new("cli-export-xqf");
    let db = dir.join("event.db");
    let (table, _) = finished_game(&db).await;
    let out = Process::new(BIN)
        .args([
            "export",
            "--xqf",
            &table.to_string(),
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .expect("run baoqi");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(&out.stdout[..3], b"XQ\x0a", "an unencrypted XQF 1.0 file");
    let file = dir.join("game.xqf");
    std::fs::write(&file, &out.stdout).unwrap();
    let line = run_reader(&py, "tests/diff/cchess_xqf.py", &[file]);
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields[..3], ["1-0", "丙", "丁"], "black resigned: {line}");
    assert_eq!(fields[3], "h2e2 h9g7 h0g2 i9h9", "{line}");
    // The mover's clock after each move, as the PGN writes it, in the move's comment.
    let notes: Vec<&str> = fields[4].split('|').collect();
    assert_eq!(notes.len(), 4, "{line}");
    assert!(notes.iter().all(|n| n.contains("[%clk 0:")), "{line}");
}

/// `baoqi export --dhtmlxq` writes the game as the Chinese sites embed it; it reads back
/// (baoqi's reader, every move checked) with the moves, result and players.
#[tokio::test]
async fn an_exported_dhtmlxq_reads_back_with_the_game() {
    let dir = Scratch::new("cli-export-dhtmlxq");
    let db = dir.join("event.db");
    let (table, _) = finished_game(&db).await;
    let text = baoqi(&[
        "export",
        "--dhtmlxq",
        &table.to_string(),
        "--db",
        db.to_str().unwrap(),
    ]);
    let game = baoqi_grammar::dhtmlxq::read_dhtmlxq(&text).expect("a DhtmlXQ record");
    let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2", "i9h9"], "{text}");
    assert_eq!(
        game.result,
        baoqi_grammar::record::RecordResult::RedWins,
        "{text}"
    );
    assert_eq!(game.players, ["丙".to_string(), "丁".to_string()]);
    assert!(
        text.contains(&format!("[DhtmlXQ_table]{table}[/DhtmlXQ_table]")),
        "{text}"
    );
    // The mover's clock after each move, in the comment after it (brackets made full-width:
    // nothing escapes them in DhtmlXQ).
    for ply in 1..=4 {
        let tag = format!("[DhtmlXQ_comment{ply}]");
        let after = &text[text.find(&tag).expect("a comment") + tag.len()..];
        assert!(
            after.split('[').next().unwrap().contains("［%clk 0:"),
            "{text}"
        );
    }
    // `baoqi replay` knows it by its content, whatever the file is called.
    let file = dir.join("game.txt");
    std::fs::write(&file, &text).unwrap();
    let out = baoqi(&["replay", file.to_str().unwrap()]);
    assert!(
        out.starts_with(&format!("{}\tok\t4\t", file.display())),
        "{out}"
    );
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    let bad = text.replace("[DhtmlXQ_movelist]77477062", "[DhtmlXQ_movelist]77477060");
    assert_ne!(bad, text);
    std::fs::write(&file, bad).unwrap();
    let out = baoqi(&["replay", file.to_str().unwrap()]);
    assert!(
        out.contains("\tfail\t2\t") && out.contains("0 passed, 1 failed"),
        "{out}"
    );
}

/// `baoqi export --cbf` writes 象棋橋's XML; cchess reads its moves back.
#[tokio::test]
async fn an_exported_cbf_is_read_back_by_cchess() {
    let Some(py) = cchess() else {
        return;
    };
    let dir = Scratch::new("cli-export-cbf");
    let db = dir.join("event.db");
    let (table, _) = finished_game(&db).await;
    let doc = baoqi(&[
        "export",
        "--cbf",
        &table.to_string(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(
        doc.contains("<Red>丙</Red>") && doc.contains("<RecordResult>1</RecordResult>"),
        "{doc}"
    );
    assert!(doc.contains(&format!("<Table>{table}</Table>")), "{doc}");
    assert!(doc.contains("<Round>"), "{doc}");
    // The mover's clock after each move, as the move's text.
    assert_eq!(doc.matches("[%clk 0:").count(), 4, "{doc}");
    let file = dir.join("game.cbf");
    std::fs::write(&file, &doc).unwrap();
    let line = run_reader(&py, "tests/diff/cchess_cbf.py", &[file]);
    assert_eq!(line.trim_end(), "h2e2 h9g7 h0g2 i9h9");
}

/// `baoqi replay` reads XQF and CBF by their content, whatever the files are called, with
/// the same report as for PGN; a damaged file fails with its reason and the others still
/// replay.
#[tokio::test]
async fn exported_xqf_and_cbf_replay_by_their_content() {
    let dir = Scratch::new("cli-replay-formats");
    let db = dir.join("event.db");
    let (table, _) = finished_game(&db).await;
    let export = |flag: &str| {
        let out = Process::new(BIN)
            .args([
                "export",
                flag,
                &table.to_string(),
                "--db",
                db.to_str().unwrap(),
            ])
            .output()
            .expect("run baoqi");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let folder = dir.join("records");
    std::fs::create_dir_all(&folder).unwrap();
    let xqf = export("--xqf");
    // Named as if they were PGN: the content decides.
    std::fs::write(folder.join("a.pgn"), &xqf).unwrap();
    std::fs::write(folder.join("b.pgn"), export("--cbf")).unwrap();
    std::fs::write(folder.join("c.xqf"), &xqf[..xqf.len() - 5]).unwrap();
    let out = baoqi(&["replay", folder.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().collect();
    // 炮二平五 馬８進７ 傌二進三 車９平８: the game's final position.
    let end = "\tok\t4\trnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3";
    for (line, name) in lines.iter().zip(["a.pgn", "b.pgn"]) {
        assert_eq!(
            *line,
            format!("{}{end}", folder.join(name).display()),
            "{out}"
        );
    }
    assert!(
        lines[2].contains("c.xqf\tfail\t4\tmove record 4 is cut short"),
        "{out}"
    );
    assert_eq!(lines[3], "2 passed, 1 failed", "{out}");
}

/// `baoqi export --table T --format F` writes one game in any format, and
/// `baoqi export --archive E` the event's games as one ZIP; binary output is refused on a
/// terminal (not testable here) and a second `--format` with `--table` is a usage error.
#[tokio::test]
async fn export_by_format_and_the_events_archive() {
    use std::io::Read;
    let dir = Scratch::new("cli-export-archive");
    let db = dir.join("event.db");
    let (table, _) = finished_game(&db).await;
    let run = |args: &[&str]| {
        Process::new(BIN)
            .args(args)
            .args(["--db", db.to_str().unwrap()])
            .output()
            .expect("run baoqi")
    };
    let t = table.to_string();
    let out = run(&["export", "--table", &t, "--format", "cbf"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let g = baoqi_grammar::cbf::read_cbf_bytes(&out.stdout).expect("a CBF");
    assert_eq!(g.moves.len(), 4);
    let out = run(&["export", "--table", &t, "--format", "xqf,cbf"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--table takes one --format"));

    let out = run(&["export", "--archive", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(out.stdout)).expect("a ZIP");
    assert_eq!(zip.len(), 4, "one game in four formats");
    let mut xqf = Vec::new();
    let name = zip
        .file_names()
        .map(|n| n.unwrap().into_owned())
        .find(|n| {
            std::path::Path::new(n)
                .extension()
                .is_some_and(|e| e == "xqf")
        })
        .expect("an XQF");
    zip.by_name(&name).unwrap().read_to_end(&mut xqf).unwrap();
    let g = baoqi_grammar::xqf::read_xqf(&xqf).expect("the XQF reads back");
    assert_eq!(g.players, ["丙".to_string(), "丁".to_string()]);
    // An event whose games have not begun: said, not an empty ZIP.
    let idle = dir.join("idle.db");
    let store = SqliteStore::open(&idle, false).unwrap();
    let created = admin::create_event(&store, &EventFile::from_toml(EVENT).unwrap()).unwrap();
    drop(store);
    let out = Process::new(BIN)
        .args(["export", "--archive", &created.event.to_string()])
        .args(["--db", idle.to_str().unwrap()])
        .output()
        .expect("run baoqi");
    assert!(!out.status.success() && out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("has begun yet: nothing to archive"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["export", "--archive", "9"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains('9'));
}
