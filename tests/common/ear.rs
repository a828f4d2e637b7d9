//! The blind player's game by ear, end to end: an event file, a real server, and
//! scripted `baoqi keypad` processes whose spoken logs are what each player heard. A keypad
//! speaks through the text speaker (no time passes while "speaking") or, when speech must
//! take real time (a reading to be cut), through espeak-ng into an ALSA file tap.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{BIN, Scratch, Server, token_of};

/// A one-table event of `kind` (`part6`, `part7`), the sides given as TOML inline tables'
/// contents (`name = "李明", categories = ["blind"], board = "none"`), 10 minutes each.
pub fn event(kind: &str, red: &str, black: &str) -> String {
    format!(
        r#"
name = "e2e by ear"
spectators = 0
[settings]
resume = {{ mode = "referee" }}
[[referees]]
name = "裁判"
tables = []
[[tables]]
round = 1
name = "by ear"
red = "紅"
black = "黑"
[tables.match]
kind = "{kind}"
red = {{ {red} }}
black = {{ {black} }}
time.default = {{ base_ms = 600_000, mode = "plain" }}
"#
    )
}

/// Two blind players (視障賽); `board` is added to each side (`, board = "none"`) or empty.
pub fn part6(board: &str) -> String {
    event(
        "part6",
        &format!(r#"name = "李明", categories = ["blind"]{board}"#),
        &format!(r#"name = "張華", categories = ["blind"]{board}"#),
    )
}

/// The server of event `toml`; red's and black's tokens.
pub fn table(dir: &Scratch, toml: &str) -> (Server, String, String) {
    table_on(dir, toml, "127.0.0.1:0")
}

/// [`table`] listening on `listen`.
pub fn table_on(dir: &Scratch, toml: &str, listen: &str) -> (Server, String, String) {
    let (db, seats) = super::create_event(dir, toml);
    let server = Server::start_on(&db, false, &[], listen);
    let red = token_of(&seats, "red", Some(1));
    let black = token_of(&seats, "black", Some(1));
    (server, red, black)
}

/// One keypad: its seat's token and script. What follows a `--- board` line in the script
/// is played by a simulated sensor board attached to it; `espeak` speaks into a file tap
/// (real durations) instead of the text speaker.
pub struct Pad<'a> {
    /// The seat's token.
    pub token: &'a str,
    /// Keys and awaits (`docs/keypad.md`), then optionally `--- board` and board lines.
    pub script: &'a str,
    /// Speak with espeak-ng through an ALSA file tap.
    pub espeak: bool,
}

impl<'a> Pad<'a> {
    /// A text-speaker keypad.
    pub fn text(token: &'a str, script: &'a str) -> Pad<'a> {
        Pad {
            token,
            script,
            espeak: false,
        }
    }
}

/// An ALSA configuration whose `wavtap` writes to a file in `dir` (`NAME-tap.wav`).
pub fn tap(dir: &Path, name: &str) -> PathBuf {
    let conf = dir.join(format!("{name}-asound.conf"));
    std::fs::write(
        &conf,
        format!(
            "</usr/share/alsa/alsa.conf>\npcm.wavtap {{\n  type file\n  slave.pcm \"null\"\n  \
             file \"{}\"\n  format \"wav\"\n}}\n",
            dir.join(format!("{name}-tap.wav")).display()
        ),
    )
    .unwrap();
    conf
}

/// Starts a keypad for `pad`; the process and its spoken log.
pub fn spawn(dir: &Scratch, url: &str, name: &str, pad: &Pad<'_>) -> (Child, PathBuf) {
    let (script, board) = pad
        .script
        .split_once("--- board\n")
        .unwrap_or((pad.script, ""));
    let path = dir.join(format!("{name}.txt"));
    std::fs::write(&path, script).unwrap();
    let log = dir.join(format!("{name}.log"));
    let mut cmd = Command::new(BIN);
    cmd.args(["keypad", "--url", url, "--token", pad.token])
        .arg("--script")
        .arg(&path)
        .arg("--spoken-log")
        .arg(&log);
    if !board.is_empty() {
        let b = dir.join(format!("{name}-board.txt"));
        std::fs::write(&b, board).unwrap();
        cmd.arg(format!("--board=sim:{}", b.display()));
    }
    if pad.espeak {
        cmd.args(["--device", "alsa:wavtap"])
            .env("ALSA_CONFIG_PATH", tap(&dir.0, name));
    } else {
        cmd.args(["--speaker", "text"]);
    }
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("baoqi keypad");
    (child, log)
}

/// Waits for keypads to end (each ends a second after its script, or at the game's end), at
/// most 30 s; kills what is left.
pub fn wait_all(children: Vec<Child>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    for mut child in children {
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Plays red's and black's keypads to their end; their spoken logs.
pub fn play(dir: &Scratch, server: &Server, red: &Pad<'_>, black: &Pad<'_>) -> [String; 2] {
    let (r, red_log) = spawn(dir, &server.url, "red", red);
    let (b, black_log) = spawn(dir, &server.url, "black", black);
    wait_all(vec![r, b]);
    [red_log, black_log].map(|p| std::fs::read_to_string(p).unwrap_or_default())
}

/// The log's lines whose fate is `fate` (`Requested`, `Spoken`, `Cut`…) and whose text
/// contains `text`.
pub fn lines<'a>(log: &'a str, fate: &str, text: &str) -> Vec<&'a str> {
    log.lines()
        .filter(|l| l.contains(&format!(" {fate}")) && l.contains(text))
        .collect()
}

/// Whether the log has a line of `fate` containing `text`.
pub fn heard(log: &str, fate: &str, text: &str) -> bool {
    !lines(log, fate, text).is_empty()
}

/// The latency in ms a `Spoken` line reports (`… (38 ms)`).
pub fn latency_ms(line: &str) -> Option<f64> {
    line.rsplit_once(" (")?.1.strip_suffix(" ms)")?.parse().ok()
}
