//! A braille display for the tests: BRLTTY (the standard braille daemon) with its Virtual
//! driver, connected to a socket this side holds. BRLTTY writes each line of cells it
//! shows (`Braille "1|12| |…"`); this side sends the display's keys (`FWINRT`, `PASSDOTS 6`,
//! `KEY_ENTER`). Between them, the keypad under test talks `BrlAPI` to BRLTTY like any screen
//! reader. Debian: `brltty`.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The cells of a 40-cell line.
pub(super) const CELLS: usize = 40;

/// One line the display showed, and when.
#[derive(Clone, Debug)]
pub(super) struct Shown {
    /// Since the display started.
    pub(super) at: Duration,
    /// The dots of each cell (bit 0 = dot 1 … bit 7 = dot 8).
    pub(super) dots: Vec<u8>,
}

/// BRLTTY and its virtual 40-cell display.
pub(super) struct Display {
    brltty: Child,
    to_brltty: TcpStream,
    shown: Arc<Mutex<Vec<Shown>>>,
    /// Where a `BrlAPI` client reaches BRLTTY (`127.0.0.1:N`).
    pub(super) brlapi_host: String,
}

impl Display {
    /// Starts BRLTTY in `dir` with the Virtual driver and a `BrlAPI` server on TCP, no
    /// authorisation; waits for it to connect and to take the 40 cells.
    pub(super) fn start(dir: &Path) -> Display {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        // BrlAPI's TCP port is 4101 + N; a free one for N.
        let api = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut api_port = api.local_addr().unwrap().port();
        drop(api);
        if api_port < 4101 {
            api_port = 4101 + 3000 + (std::process::id() % 1000) as u16;
        }
        let brlapi_host = format!("127.0.0.1:{}", api_port - 4101);
        let brltty = Command::new("brltty")
            .args(["-n", "-e", "-q", "-b", "vr", "-x", "no", "-s", "no"])
            .arg("-d")
            .arg(format!("client:127.0.0.1:{port}"))
            .arg("-A")
            .arg(format!("host={brlapi_host},auth=none"))
            .arg("-P")
            .arg(dir.join("brltty.pid"))
            .args([
                "-U",
                &dir.display().to_string(),
                "-W",
                &dir.display().to_string(),
            ])
            .arg("-L")
            .arg(dir.join("brltty.log"))
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("brltty");
        listener.set_nonblocking(false).unwrap();
        let (stream, _) = accept_within(&listener, Duration::from_secs(10));
        let mut to_brltty = stream.try_clone().unwrap();
        to_brltty
            .write_all(format!("cells {CELLS}\n").as_bytes())
            .unwrap();
        let shown = Arc::new(Mutex::new(Vec::new()));
        let record = shown.clone();
        let began = Instant::now();
        let mut file = std::fs::File::create(dir.join("display.txt")).unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { break };
                if let Some(dots) = line.strip_prefix("Braille ").and_then(parse_dots) {
                    let at = began.elapsed().as_secs_f64();
                    let _ = writeln!(file, "{at:>7.3}s {}", braille(&dots));
                    record.lock().unwrap().push(Shown {
                        at: began.elapsed(),
                        dots,
                    });
                }
            }
        });
        let d = Display {
            brltty,
            to_brltty,
            shown,
            brlapi_host,
        };
        d.wait_until(Duration::from_secs(10), "BRLTTY's first line", |_| true);
        d
    }

    /// Presses a key of the display (a BRLTTY command: `FWINRT`, `PASSDOTS 0x34`, …).
    pub(super) fn press(&self, command: &str) {
        (&self.to_brltty)
            .write_all(format!("{command}\n").as_bytes())
            .unwrap();
    }

    /// Every line shown so far.
    pub(super) fn history(&self) -> Vec<Shown> {
        self.shown.lock().unwrap().clone()
    }

    /// The line shown now.
    pub(super) fn now(&self) -> Vec<u8> {
        self.history()
            .last()
            .map(|s| s.dots.clone())
            .unwrap_or_default()
    }

    /// Waits until the line shown satisfies `ok`; the line.
    pub(super) fn wait_until(
        &self,
        within: Duration,
        what: &str,
        ok: impl Fn(&[u8]) -> bool,
    ) -> Vec<u8> {
        let deadline = Instant::now() + within;
        loop {
            let now = self.now();
            if !self.history().is_empty() && ok(&now) {
                return now;
            }
            assert!(
                Instant::now() < deadline,
                "the display never showed {what}; it shows {}",
                braille(&now)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.brltty.kill();
        let _ = self.brltty.wait();
    }
}

fn accept_within(listener: &TcpListener, within: Duration) -> (TcpStream, std::net::SocketAddr) {
    listener.set_nonblocking(true).unwrap();
    let deadline = Instant::now() + within;
    loop {
        match listener.accept() {
            Ok((s, a)) => {
                s.set_nonblocking(false).unwrap();
                return (s, a);
            }
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("BRLTTY's Virtual driver never connected: {e}"),
        }
    }
}

/// `"1|12| |…"` as dots.
fn parse_dots(quoted: &str) -> Option<Vec<u8>> {
    let inner = quoted.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some(
        inner
            .split('|')
            .map(|cell| {
                cell.chars()
                    .filter_map(|c| c.to_digit(10))
                    .filter(|d| (1..=8).contains(d))
                    .fold(0u8, |acc, d| acc | (1 << (d - 1)))
            })
            .collect(),
    )
}

/// Unicode braille for dots, as a transcript writes them.
pub(super) fn braille(dots: &[u8]) -> String {
    dots.iter()
        .map(|d| char::from_u32(0x2800 + u32::from(*d)).unwrap_or(' '))
        .collect()
}
