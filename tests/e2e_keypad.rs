//! The blind players' clients end to end: `baoqi serve` with a 視障賽 table (附表七
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

use crate::common;
use common::{BIN, Scratch, Server, baoqi, get_with, token_of};

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
await board step.mv=h9g7
keys Enter
await over
";

/// The ALSA configuration of one client: `wavtap` writes what it plays to `wav`; `mictap`
/// is a microphone that hears a 440 Hz tone (16-bit mono 22 050 Hz raw, through a plug).
fn alsa_conf(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let wav = dir.join(format!("{name}-tap.wav"));
    let conf = dir.join(format!("{name}-asound.conf"));
    let raw = dir.join(format!("{name}-mic.raw"));
    let tone: Vec<u8> = (0..22_050 * 4)
        .map(|i| (6000.0 * (f64::from(i) * 440.0 * std::f64::consts::TAU / 22_050.0).sin()) as i16)
        .flat_map(i16::to_le_bytes)
        .collect();
    std::fs::write(&raw, tone).unwrap();
    std::fs::write(
        &conf,
        format!(
            "</usr/share/alsa/alsa.conf>\npcm.wavtap {{\n  type file\n  slave.pcm \"null\"\n  \
             file \"{}\"\n  format \"wav\"\n}}\n\
             pcm.mictap {{\n  type plug\n  slave {{ pcm \"mictapraw\" format S16_LE rate 22050 channels 1 }}\n}}\n\
             pcm.mictapraw {{\n  type file\n  slave.pcm \"null\"\n  file \"/dev/null\"\n  \
             infile \"{}\"\n  format \"raw\"\n}}\n",
            wav.display(),
            raw.display()
        ),
    )
    .unwrap();
    (conf, wav)
}

/// Follows red's recorder on the server (`GET /api/tables/1/recordings`, as the referee)
/// until `stop`: every state seen, with whether the microphone was reported.
fn watch_recorder(
    addr: String,
    referee: String,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<Vec<String>> {
    std::thread::spawn(move || {
        let mut seen: Vec<String> = Vec::new();
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            let (_, body) = get_with(&addr, "/api/tables/1/recordings", Some(&referee));
            if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&body) {
                let red = &v["status"]["red"];
                let state = format!("{} mic={}", red["state"], red["microphone"]);
                if seen.last() != Some(&state) {
                    seen.push(state);
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        seen
    })
}

/// Checks that the tap has sound where the log says speech started: for each utterance
/// said whole, sound within a window around its first sample (the tap and the log both
/// start when the client opens its voice, a few milliseconds apart).
fn sound_where_speech_was_said(name: &str, log: &str, pcm: &Pcm) {
    let mut requested = std::collections::HashMap::new();
    let mut checked = 0;
    for line in log.lines() {
        let mut parts = line.split_whitespace();
        let (Some(at), Some(id), _, Some(fate)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(at) = at.trim_end_matches('s').parse::<f64>() else {
            continue;
        };
        if fate == "Requested" {
            requested.insert(id.to_owned(), at);
            continue;
        }
        let latency = line
            .rsplit_once(" (")
            .and_then(|(_, l)| l.strip_suffix(" ms)")?.parse::<f64>().ok());
        let (true, Some(latency), Some(asked)) = (fate == "Spoken", latency, requested.get(id))
        else {
            continue;
        };
        let first = asked + latency / 1000.0;
        let from = ((first - 0.2).max(0.0) * f64::from(pcm.rate)) as usize;
        let to = (((first + 0.8) * f64::from(pcm.rate)) as usize).min(pcm.samples.len());
        let window = &pcm.samples[from.min(to)..to];
        assert!(
            baoqi_audio::pcm::rms(window) > 0.01,
            "{name}: silence at {first:.2} s where the log says speech began: {line}"
        );
        checked += 1;
    }
    assert!(
        checked >= 3,
        "{name}: only {checked} utterances checked\n{log}"
    );
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
        let len: usize = header(&head, "Content-Length")
            .and_then(|v| v.parse().ok())
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

/// The value of header `name` in a request's head; names are case-insensitive (RFC 9110
/// §5.1).
fn header<'h>(head: &'h str, name: &str) -> Option<&'h str> {
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then_some(v.trim())
    })
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

/// The median and maximum of the `(N ms)` latencies (from the key press or the server
/// message's arrival to the first sample) of the utterances that had nothing to wait for
/// (`[0 ahead]` when requested): the pipeline's own delay, not the queue's policy.
fn latencies(log: &str) -> String {
    let idle: std::collections::HashSet<&str> = log
        .lines()
        .filter(|l| l.contains(" Requested ") && l.ends_with("[0 ahead]"))
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    let mut ms: Vec<u64> = log
        .lines()
        .filter(|l| !l.contains(" Requested "))
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|id| idle.contains(id))
        })
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

/// Starts `baoqi keypad` for a seat with a script, speaking into its own ALSA tap, logging
/// what it says and recording the game: the process, its spoken-text log, its tap's WAV.
fn spawn_keypad(
    dir: &Scratch,
    url: &str,
    name: &str,
    token: &str,
    script: &Path,
    extra: &[String],
) -> (Child, PathBuf, PathBuf) {
    let (conf, wav) = alsa_conf(&dir.0, name);
    let log = dir.join(format!("{name}.log"));
    let child = Command::new(BIN)
        .args(["keypad", "--url", url, "--token", token])
        .args(["--device", "alsa:wavtap"])
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
}

/// Creates the event of [`EVENT`] and starts the server: it, red's, black's and the
/// referee's tokens.
fn start_table(dir: &Scratch) -> (Server, String, String, String) {
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
    let referee = token_of(&seats, "referee", None);
    (Server::start(&db, false), red_token, black_token, referee)
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
        // File 5 read in red's own turn: terse, ranks only.
        "紅方 帥一 兵四",
        "黑方 馬８進７",
        "對手提和",
    ] {
        assert!(said(red_said, "Requested", text), "red: {text}\n{red_said}");
    }
    for text in ["你尚餘 1 分鐘", "對局結束：你負。你認負"] {
        assert!(said(red_said, "Spoken", text), "red: {text}\n{red_said}");
    }
    let first_word = red_said
        .lines()
        .position(|l| l.contains("Requested 炮"))
        .expect("red's first word");
    assert!(
        red_said.lines().take(first_word).any(|l| {
            l.contains("Reading Requested 時間：你") && l.contains("。對手") && !l.contains("尚餘")
        }),
        "red: the answer to the time query, before the move\n{red_said}"
    );
    // Black (Mandarin voice): the opponent's move, own words, the decline, the end.
    for text in ["紅方 炮二平五", "馬", "８", "對手不接受提和"] {
        assert!(
            said(black_said, "Requested", text),
            "black: {text}\n{black_said}"
        );
    }
    assert!(
        said(black_said, "Spoken", "對局結束：你勝。對手認負"),
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
    let (mut server, red_token, black_token, referee_token) = start_table(&dir);
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
    let started = Instant::now();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let recorder = watch_recorder(server.addr().to_owned(), referee_token, stop.clone());
    let keypad = |name: &str, token: &str, script: &Path, extra: &[String]| {
        spawn_keypad(&dir, &addr, name, token, script, extra)
    };
    let (red, red_log, red_wav) = keypad(
        "red",
        &red_token,
        &red_script,
        &[
            format!("--board=sim:{}", red_board.display()),
            "--mic=alsa:mictap".to_owned(),
        ],
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
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let red_recorder = recorder.join().unwrap();
    server.kill();
    let red_said = std::fs::read_to_string(&red_log).unwrap_or_default();
    let black_said = std::fs::read_to_string(&black_log).unwrap_or_default();
    assert!(red_ok, "red keypad: {red_err}\n{red_said}");
    assert!(black_ok, "black keypad: {black_err}\n{black_said}");
    eprintln!("game played in {:.1} s", started.elapsed().as_secs_f64());

    hears_what_it_should(&red_said, &black_said);
    eprintln!(
        "key press or event arrival to first sample, nothing ahead in the queue: red {}, black {}",
        latencies(&red_said),
        latencies(&black_said)
    );

    // What was played reached the sound device: sound in each tap where speech was said.
    for (name, wav, log) in [
        ("red", &red_wav, &red_said),
        ("black", &black_wav, &black_said),
    ] {
        let pcm = Pcm::from_wav_file(wav).unwrap_or_else(|e| panic!("{name} tap: {e}"));
        let loud = loud_seconds(&pcm);
        assert!(loud > 3.0, "{name}: only {loud:.1} s of sound in the tap");
        sound_where_speech_was_said(name, log, &pcm);
    }

    // Red's recorder, as the referee's monitor saw it: recording with the microphone, then
    // the recording uploaded (建議每局對賽設錄音設備).
    assert!(
        red_recorder.contains(&"\"recording\" mic=true".to_owned()),
        "{red_recorder:?}"
    );
    assert_eq!(
        red_recorder.last().map(String::as_str),
        Some("\"uploaded\" mic=null"),
        "{red_recorder:?}"
    );

    // Black's recording went to the listener with the seat's token and the metadata.
    let (head, body) = upload.join().expect("an upload");
    assert!(head.starts_with("POST /api/tables/1/recording"), "{head}");
    assert_eq!(
        header(&head, "Authorization"),
        Some(format!("Bearer {black_token}").as_str()),
        "{head}"
    );
    assert!(
        header(&head, "X-Baoqi-Event-Log-Offset-Ms").is_some(),
        "{head}"
    );
    let rec = Pcm::from_wav_bytes(&body).expect("a WAV");
    assert!(loud_seconds(&rec) > 2.0, "the recording has speech");
    // Red's went to the server's own endpoint.
    assert!(red_err.contains("uploaded"), "red's upload: {red_err}");
}
