//! The blind players' clients end to end (issue 7): `baoqi serve` with a 視障賽 table (附表七
//! 第六部分, two VI players on one VI board), two scripted `baoqi keypad` processes speaking
//! through espeak-ng into an ALSA file tap (STYLE.md), red with a simulated tactile board
//! that senses both sides' moves on the shared board. A short game: black starts the clocks
//! (95(3)), red hears a time alert and asks the times (6.5, 6.6), reads a file, announces and
//! moves on the board, black announces with a draw offer (69(2)), red declines, repeats the
//! opponent's move and resigns with the confirmation step (69(1)). Each client's spoken-text
//! log must hold what it should hear, its WAV must carry sound, and each game's recording
//! is uploaded (black's to a local listener, red's to the server's endpoint).
//!
//! Skipped, with a message, only when espeak-ng is not installed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use baoqi_audio::{Espeak, Pcm};

mod common;
use common::{BIN, Scratch, Server, baoqi, token_of};

const EVENT: &str = r#"
name = "e2e 視障賽"
spectators = 0
[settings]
resume = { mode = "referee" }
[[referees]]
name = "裁判"
tables = []
[[tables]]
round = 1
name = "視障賽 e2e"
red = "李明"
black = "張華"
[tables.match]
kind = "part6"
talking_clock = true
red = { name = "李明", categories = ["blind"] }
black = { name = "張華", categories = ["partially_sighted"] }
time.default = { base_ms = 62_000, mode = "plain" }
alerts = { set = "custom", thresholds_ms = [60_000], half = false }
"#;

const RED: &str = "
await my_turn
# 62 s on the clock: the 60 s alert comes 2 s into red's first move
sleep 2600
keys / 1
keys / 3 5
keys 0 6 2 * 5
await moved side=black
keys / 9
keys / 2
sleep 400
keys / 0
keys / 0
";

/// Red's tactile board: one VI board for both players (part 6), so it senses black's moves too.
const RED_BOARD: &str = "
await announced side=red
L h2
P e2
sleep 100
C
await announced side=black
L h9
P g7
";

const BLACK: &str = "
sleep 2500
# 95(3): black's press starts the clocks
keys Enter
await moved side=red
keys 0 2 8 + 7
keys / 8
await board step=h9g7
keys Enter
await over
";

/// The ALSA configuration of one client: `wavtap` writes what it plays to `wav`.
fn alsa_conf(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let wav = dir.join(format!("{name}-tap.wav"));
    let conf = dir.join(format!("{name}-asound.conf"));
    std::fs::write(
        &conf,
        format!(
            "</usr/share/alsa/alsa.conf>\npcm.wavtap {{\n  type file\n  slave.pcm \"null\"\n  \
             file \"{}\"\n  format \"wav\"\n}}\n",
            wav.display()
        ),
    )
    .unwrap();
    (conf, wav)
}

/// A one-request HTTP listener standing in for an upload endpoint: the request's head and
/// body length.
fn upload_listener() -> (String, std::thread::JoinHandle<(String, Vec<u8>)>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/api/tables/1/recording", l.local_addr().unwrap());
    let h = std::thread::spawn(move || {
        let (s, _) = l.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut r = BufReader::new(s);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            head.push_str(&line);
        }
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; len];
        r.read_exact(&mut body).unwrap();
        r.get_mut()
            .write_all(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
            .unwrap();
        (head, body)
    });
    (url, h)
}

fn wait(mut child: Child, deadline: Instant) -> (bool, String) {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return (status.success(), err);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return (false, "timed out".into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether the log has an entry of `fate` whose text contains `text`.
fn said(log: &str, fate: &str, text: &str) -> bool {
    log.lines().any(|l| l.contains(fate) && l.contains(text))
}

/// The median and maximum of the `(N ms)` request-to-first-sample latencies of the echoes
/// and urgent items of a log (readings wait their turn in the queue by design).
fn latencies(log: &str) -> String {
    let mut ms: Vec<u64> = log
        .lines()
        .filter(|l| !l.contains(" Reading "))
        .filter_map(|l| l.rsplit_once(" (")?.1.strip_suffix(" ms)")?.parse().ok())
        .collect();
    ms.sort_unstable();
    match (ms.get(ms.len() / 2), ms.last()) {
        (Some(median), Some(max)) => format!("median {median} ms, max {max} ms (n = {})", ms.len()),
        _ => "not measured".into(),
    }
}

/// Seconds of sound above a low threshold.
fn loud_seconds(pcm: &Pcm) -> f64 {
    let spans = baoqi_audio::pcm::loud_spans(&pcm.samples, pcm.rate, 0.01);
    spans.iter().map(|(a, b)| b - a).sum::<usize>() as f64 / f64::from(pcm.rate)
}

/// Creates the event of [`EVENT`] and starts the server: it, red's and black's tokens.
fn start_table(dir: &Scratch) -> (Server, String, String) {
    let db = dir.join("e2e.db");
    let event = dir.join("event.toml");
    std::fs::write(&event, EVENT).unwrap();
    let created = baoqi(&[
        "event",
        "create",
        "--config",
        event.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    let seats = common::seat_lines(&created);
    let (red_token, black_token) = (
        token_of(&seats, "red", None),
        token_of(&seats, "black", None),
    );
    (Server::start(&db, false), red_token, black_token)
}

/// What each player must have heard (the spoken-text logs).
fn hears_what_it_should(red_said: &str, black_said: &str) {
    // Red: own words echoed at each key, the touched piece, a file read by ear, the answer to
    // the time query (part 6: the side to move first, 6.5(2)), the opponent's move and offer.
    // Echoes cut each other (a new word cuts the previous echo) and readings wait their
    // turn, so these are checked as asked for; urgent items (the alert, the end) as said.
    for text in [
        "炮",
        "二",
        "平",
        "摸子：炮二",
        "紅方帥五線一排",
        "黑方：馬８進７",
        "黑方提和",
    ] {
        assert!(said(red_said, "Requested", text), "red: {text}\n{red_said}");
    }
    for text in ["紅方尚餘一分鐘", "對局結束，紅方認負，黑方勝"] {
        assert!(said(red_said, "Spoken", text), "red: {text}\n{red_said}");
    }
    let first_word = red_said
        .lines()
        .position(|l| l.contains("Requested 炮"))
        .expect("red's first word");
    assert!(
        red_said.lines().take(first_word).any(|l| {
            l.contains("Reading Requested 紅方") && l.contains("，黑方") && !l.contains("尚餘")
        }),
        "red: the answer to the time query, before the move\n{red_said}"
    );
    // Black (Mandarin voice): the opponent's move, own words, the decline, the end.
    for text in ["紅方：炮二平五", "馬", "８", "紅方拒絕提和"] {
        assert!(
            said(black_said, "Requested", text),
            "black: {text}\n{black_said}"
        );
    }
    assert!(
        said(black_said, "Spoken", "對局結束，紅方認負，黑方勝"),
        "{black_said}"
    );
}

#[test]
fn s7p6_two_blind_players_play_a_game_with_keypads_and_a_tactile_board() {
    if !Espeak::default().available() {
        eprintln!("SKIPPED: espeak-ng is not installed (apt-get install espeak-ng)");
        return;
    }
    let dir = Scratch::new("e2e-keypad");
    let (mut server, red_token, black_token) = start_table(&dir);
    let addr = server.url.clone();
    let script = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let (red_script, red_board, black_script) = (
        script("red.txt", RED),
        script("red-board.txt", RED_BOARD),
        script("black.txt", BLACK),
    );
    let (upload_url, upload) = upload_listener();
    let keypad = |name: &str, token: &str, script: &Path, extra: &[String]| {
        let (conf, wav) = alsa_conf(&dir.0, name);
        let log = dir.join(format!("{name}.log"));
        let child = Command::new(BIN)
            .args([
                "keypad",
                "--url",
                &addr,
                "--token",
                token,
                "--device",
                "alsa:wavtap",
            ])
            .arg("--script")
            .arg(script)
            .arg("--spoken-log")
            .arg(&log)
            .arg("--record")
            .arg(dir.join(format!("{name}-rec")))
            .args(extra)
            .env("ALSA_CONFIG_PATH", conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("baoqi keypad");
        (child, log, wav)
    };
    let started = Instant::now();
    let (red, red_log, red_wav) = keypad(
        "red",
        &red_token,
        &red_script,
        &[format!("--board=sim:{}", red_board.display())],
    );
    let (black, black_log, black_wav) = keypad(
        "black",
        &black_token,
        &black_script,
        &[
            format!("--upload-url={upload_url}"),
            "--voice=cmn".to_owned(),
        ],
    );
    let deadline = started + Duration::from_secs(50);
    let (red_ok, red_err) = wait(red, deadline);
    let (black_ok, black_err) = wait(black, deadline);
    server.kill();
    let red_said = std::fs::read_to_string(&red_log).unwrap_or_default();
    let black_said = std::fs::read_to_string(&black_log).unwrap_or_default();
    assert!(red_ok, "red keypad: {red_err}\n{red_said}");
    assert!(black_ok, "black keypad: {black_err}\n{black_said}");
    eprintln!("game played in {:.1} s", started.elapsed().as_secs_f64());

    hears_what_it_should(&red_said, &black_said);
    eprintln!(
        "request to first sample (echoes, urgent): red {}, black {}",
        latencies(&red_said),
        latencies(&black_said)
    );

    // What was played reached the sound device: seconds of speech in each tap.
    for (name, wav) in [("red", &red_wav), ("black", &black_wav)] {
        let pcm = Pcm::from_wav_file(wav).unwrap_or_else(|e| panic!("{name} tap: {e}"));
        let loud = loud_seconds(&pcm);
        assert!(loud > 3.0, "{name}: only {loud:.1} s of sound in the tap");
    }

    // Black's recording went to the listener with the seat's token and the metadata.
    let (head, body) = upload.join().expect("an upload");
    assert!(head.starts_with("POST /api/tables/1/recording"), "{head}");
    assert!(
        head.contains(&format!("Authorization: Bearer {black_token}")),
        "{head}"
    );
    assert!(head.contains("X-Baoqi-Event-Log-Offset-Ms:"), "{head}");
    let rec = Pcm::from_wav_bytes(&body).expect("a WAV");
    assert!(loud_seconds(&rec) > 2.0, "the recording has speech");
    // Red's went to the server's own endpoint.
    assert!(red_err.contains("uploaded"), "red's upload: {red_err}");
}
