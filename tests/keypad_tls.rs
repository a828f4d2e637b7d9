//! A blind player's keypad reaches a hall that speaks TLS only (`baoqi serve --tls-cert
//! --tls-key`), trusting the hall's own certificate authority (`baoqi keypad --ca`): it
//! joins its seat and says so. Without the authority it never joins (the hall's certificate
//! is no public authority's), and the listener answers nothing in clear.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common;
use common::ear::tap;
use common::{BIN, Scratch, seat_lines, started, token_of};

/// A hall's authority and a certificate it signed for 127.0.0.1, as PEM files in `dir`:
/// (the authority's file, the server's certificate, its key).
fn hall_pki(dir: &Scratch) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, "hall CA");
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let ca = ca.self_signed(&ca_key).unwrap();
    let leaf = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap();
    let leaf_key = rcgen::KeyPair::generate().unwrap();
    let leaf = leaf.signed_by(&leaf_key, &ca, &ca_key).unwrap();
    let files = (
        dir.join("ca.pem"),
        dir.join("hall.crt"),
        dir.join("hall.key"),
    );
    std::fs::write(&files.0, ca.pem()).unwrap();
    std::fs::write(&files.1, leaf.pem()).unwrap();
    std::fs::write(&files.2, leaf_key.serialize_pem()).unwrap();
    files
}

/// Runs red's keypad against `url` for a few seconds (a script that only waits); what it
/// said.
fn keypad(
    dir: &Scratch,
    name: &str,
    url: &str,
    token: &str,
    ca: Option<&std::path::Path>,
) -> String {
    let script = dir.join(format!("{name}.txt"));
    std::fs::write(&script, "sleep 2500\n").unwrap();
    let log = dir.join(format!("{name}.log"));
    let mut cmd = Command::new(BIN);
    cmd.args([
        "keypad",
        "--url",
        url,
        "--token",
        token,
        "--speaker",
        "text",
        "--stay",
    ])
    .arg("--script")
    .arg(&script)
    .arg("--spoken-log")
    .arg(&log);
    if let Some(ca) = ca {
        cmd.arg("--ca").arg(ca);
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("baoqi keypad");
    std::thread::sleep(Duration::from_secs(4));
    let _ = child.kill();
    let _ = child.wait();
    std::fs::read_to_string(&log).unwrap_or_default()
}

/// The demo hall speaking TLS only with a certificate of its own authority, its database
/// `hall.db` in `dir`: the authority's file, the server, what it printed.
fn tls_hall(dir: &Scratch) -> (std::path::PathBuf, std::process::Child, common::Started) {
    let (ca, cert, key) = hall_pki(dir);
    let mut server = Command::new(BIN)
        .args(["serve", "--demo", "--listen", "127.0.0.1:0", "--db"])
        .arg(dir.join("hall.db"))
        .arg("--tls-cert")
        .arg(&cert)
        .arg("--tls-key")
        .arg(&key)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("baoqi serve");
    let up = started(&mut server);
    (ca, server, up)
}

#[test]
fn a_keypad_joins_a_tls_hall_with_its_own_authority_and_not_without() {
    let dir = Scratch::new("keypad-tls");
    let (ca, mut server, up) = tls_hall(&dir);
    assert!(up.url.starts_with("https://"), "{}", up.url);
    let seats = seat_lines(&up.lines.concat());
    let token = token_of(&seats, "red", Some(1));

    let trusted = keypad(&dir, "trusted", &up.url, &token, Some(&ca));
    let untrusted = keypad(&dir, "untrusted", &up.url, &token, None);
    let plain = keypad(
        &dir,
        "plain",
        &up.url.replace("https://", "http://"),
        &token,
        None,
    );
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        trusted.contains("已連線，你是紅方"),
        "with the hall's authority: {trusted}"
    );
    assert!(!untrusted.contains("已連線"), "without it: {untrusted}");
    assert!(!plain.contains("已連線"), "in clear: {plain}");
}

/// A keypad that records its game (`--record`) uploads it at the game's end to a hall that
/// speaks TLS only, trusting the hall's authority (`--ca`): the WAV lands beside the hall's
/// database. Skipped, with a message, without espeak-ng (the recording is what it speaks).
#[test]
fn a_keypad_uploads_its_recording_to_a_tls_hall() {
    if Command::new("espeak-ng").arg("--version").output().is_err() {
        eprintln!("skipped: espeak-ng is not installed");
        return;
    }
    let dir = Scratch::new("keypad-tls-upload");
    let (ca, mut server, up) = tls_hall(&dir);
    let seats = seat_lines(&up.lines.concat());
    let script = |name: &str, text: &str| {
        let path = dir.join(format!("{name}.txt"));
        std::fs::write(&path, text).unwrap();
        path
    };
    // Black starts the clocks (95(3)); red resigns at his turn, with the confirmation.
    let red = Command::new(BIN)
        .args([
            "keypad",
            "--url",
            &up.url,
            "--token",
            &token_of(&seats, "red", Some(1)),
        ])
        .args(["--device", "alsa:wavtap", "--record"])
        .arg(dir.join("rec"))
        .arg("--ca")
        .arg(&ca)
        .arg("--script")
        .arg(script("red", "await my_turn\nkeys / 0\nkeys / 0\n"))
        .env("ALSA_CONFIG_PATH", tap(&dir.0, "red"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("red's keypad");
    let black = Command::new(BIN)
        .args([
            "keypad",
            "--url",
            &up.url,
            "--token",
            &token_of(&seats, "black", Some(1)),
        ])
        .args(["--speaker", "text", "--ca"])
        .arg(&ca)
        .arg("--script")
        .arg(script("black", "sleep 1500\nkeys Enter\nawait over\n"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("black's keypad");
    let red = wait_with_deadline(red, Duration::from_secs(40));
    let _ = wait_with_deadline(black, Duration::from_secs(5));
    let _ = server.kill();
    let _ = server.wait();
    assert!(red.contains("uploaded"), "red's keypad: {red}");
    let folder = dir.join("hall.db.recordings").join("table-1");
    let wavs: Vec<_> = std::fs::read_dir(&folder)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    let wav = wavs
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "wav"))
        .unwrap_or_else(|| panic!("no recording in {}: {wavs:?}; red: {red}", folder.display()));
    let bytes = std::fs::read(wav).unwrap();
    assert!(
        bytes.starts_with(b"RIFF") && bytes.len() > 44 + 22_050,
        "a WAV with sound in it: {} bytes",
        bytes.len()
    );
}

/// Waits for `child` at most `within`, then kills it; its standard error.
fn wait_with_deadline(mut child: std::process::Child, within: Duration) -> String {
    let deadline = std::time::Instant::now() + within;
    while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The load benchmark over `wss://` with the hall's own authority: its bots trust what a
/// keypad trusts (`--ca`), play and lose nothing; without the authority they are refused.
#[test]
fn the_load_benchmark_plays_a_tls_hall_over_wss_with_its_own_authority() {
    let dir = Scratch::new("bench-tls");
    let (ca, mut server, up) = tls_hall(&dir);
    let db = dir.join("hall.db");
    let bench = |ca: Option<&std::path::Path>| {
        let mut c = Command::new(BIN);
        c.args([
            "bench",
            "load",
            "--games",
            "2",
            "--seconds",
            "2",
            "--rate",
            "4",
            "--url",
        ])
        .arg(&up.url)
        .arg("--db")
        .arg(&db);
        if let Some(ca) = ca {
            c.arg("--ca").arg(ca);
        }
        c.output().expect("baoqi bench load")
    };
    let trusted = bench(Some(&ca));
    let untrusted = bench(None);
    let _ = server.kill();
    let _ = server.wait();
    let out = String::from_utf8_lossy(&trusted.stdout);
    assert!(
        trusted.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&trusted.stderr)
    );
    assert!(out.contains("games 2 (4 player sockets"), "{out}");
    assert!(out.contains("lost 0, reordered 0"), "{out}");
    assert!(!untrusted.status.success(), "without the hall's authority");
}
