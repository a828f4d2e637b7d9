//! A `BrlAPI` client: the socket protocol of BRLTTY, the standard braille daemon (version 8,
//! as BRLTTY's `brlapi_protocol.h` defines it), written out in safe Rust: connect and
//! authorise, take the display in tty mode, write dots, read its keys.
//!
//! Every packet is a header (its payload's size and its type, both 32-bit big-endian) and
//! the payload.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::time::Duration;

use super::BrailleError;

/// The protocol version spoken.
const VERSION: u32 = 8;
/// The largest packet either side sends.
const MAX_PACKET: usize = 4096;
/// Where BRLTTY's local sockets are (`:N` is `/var/lib/BrlAPI/N`).
const SOCKETS: &str = "/var/lib/BrlAPI";
/// The TCP port of display `host:0`.
const PORT: u16 = 4101;
/// The key file BRLTTY writes for key authorisation.
const KEY_FILE: &str = "/etc/brlapi.key";

/// Packet types (their ASCII letters).
mod packet {
    pub(super) const VERSION: u32 = b'v' as u32;
    pub(super) const AUTH: u32 = b'a' as u32;
    pub(super) const DISPLAY_SIZE: u32 = b's' as u32;
    pub(super) const ENTER_TTY: u32 = b't' as u32;
    pub(super) const KEY: u32 = b'k' as u32;
    pub(super) const WRITE: u32 = b'w' as u32;
    pub(super) const ACK: u32 = b'A' as u32;
    pub(super) const ERROR: u32 = b'e' as u32;
    pub(super) const EXCEPTION: u32 = b'E' as u32;
}

/// Authorisation methods.
const AUTH_NONE: u32 = b'N' as u32;
const AUTH_KEY: u32 = b'K' as u32;

/// Write flags: a region, text, dots or'ed over it, the cursor.
const WRITE_REGION: u32 = 0x02;
const WRITE_TEXT: u32 = 0x04;
const WRITE_OR: u32 = 0x10;
const WRITE_CURSOR: u32 = 0x20;

/// A key of the display, as BRLTTY reports it to a client in tty mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayKey {
    /// Pan the window left (BRLTTY's `FWINLT`).
    PanLeft,
    /// Pan the window right (`FWINRT`).
    PanRight,
    /// One line up (`LNUP`).
    LineUp,
    /// One line down (`LNDN`).
    LineDown,
    /// The top (`TOP`).
    Top,
    /// The bottom (`BOT`).
    Bottom,
    /// A character typed on the braille keyboard (BRLTTY's text table read the dots).
    Char(char),
    /// Enter.
    Enter,
    /// Backspace.
    Backspace,
    /// Escape.
    Escape,
}

/// BRLTTY's command codes used here.
const LNUP: u64 = 1;
const LNDN: u64 = 2;
const TOP: u64 = 9;
const BOT: u64 = 10;
const FWINLT: u64 = 23;
const FWINRT: u64 = 24;

impl DisplayKey {
    /// The key of a `BrlAPI` key code; `None` for a key this client does not use.
    pub fn of(code: u64) -> Option<DisplayKey> {
        const TYPE_CMD: u64 = 0x2000_0000;
        const TYPE_MASK: u64 = 0xe000_0000;
        let code = code & 0xffff_ffff; // the flags (shift, long press) are not used
        if code & TYPE_MASK == TYPE_CMD {
            // A block of 0 is a basic command, its number in the argument.
            if code & 0x1fff_0000 != 0 {
                return None;
            }
            return Some(match code & 0xffff {
                LNUP => DisplayKey::LineUp,
                LNDN => DisplayKey::LineDown,
                TOP => DisplayKey::Top,
                BOT => DisplayKey::Bottom,
                FWINLT => DisplayKey::PanLeft,
                FWINRT => DisplayKey::PanRight,
                _ => return None,
            });
        }
        // A keysym, as X11 numbers them: Latin-1 as itself, Unicode above 0x1000000.
        let sym = (code & 0x1fff_ffff) as u32;
        Some(match sym {
            0xff0d | 0xff8d => DisplayKey::Enter,
            0xff08 => DisplayKey::Backspace,
            0xff1b => DisplayKey::Escape,
            0x20..=0x7e | 0xa0..=0xff => DisplayKey::Char(char::from_u32(sym)?),
            0x0100_0000.. => DisplayKey::Char(char::from_u32(sym - 0x0100_0000)?),
            _ => return None,
        })
    }
}

/// Where BRLTTY listens: `:N` (its local socket N), `host:N` or `host` (TCP).
fn connect(host: &str) -> Result<Box<dyn Stream>, BrailleError> {
    let fail = |e: std::io::Error| BrailleError::Connect(host.to_owned(), e);
    let (name, number) = host.rsplit_once(':').unwrap_or((host, "0"));
    let n: u16 = number
        .parse()
        .map_err(|_| BrailleError::Host(host.to_owned()))?;
    if name.is_empty() {
        let s = UnixStream::connect(format!("{SOCKETS}/{n}")).map_err(fail)?;
        Ok(Box::new(s))
    } else {
        let s = TcpStream::connect((name, PORT + n)).map_err(fail)?;
        s.set_nodelay(true).map_err(fail)?;
        Ok(Box::new(s))
    }
}

/// A socket of either kind.
trait Stream: Read + Write + Send {
    fn set_timeout(&self, t: Option<Duration>) -> std::io::Result<()>;
}

impl Stream for UnixStream {
    fn set_timeout(&self, t: Option<Duration>) -> std::io::Result<()> {
        self.set_read_timeout(t)
    }
}

impl Stream for TcpStream {
    fn set_timeout(&self, t: Option<Duration>) -> std::io::Result<()> {
        self.set_read_timeout(t)
    }
}

/// A connection to BRLTTY holding the display.
pub struct Connection {
    stream: Box<dyn Stream>,
    /// Bytes read and not yet a whole packet.
    pending: Vec<u8>,
    /// The display's cells (columns × rows).
    size: usize,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Connection({} cells)", self.size)
    }
}

impl Connection {
    /// Connects to `host` (default `BRLAPI_HOST`, else `:0`), authorises with `auth` (`none`,
    /// or a key file; default `BRLAPI_AUTH`, else `/etc/brlapi.key` when asked for a key),
    /// and takes the display for this client.
    pub fn open(host: Option<&str>, auth: Option<&str>) -> Result<Connection, BrailleError> {
        let env_host = std::env::var("BRLAPI_HOST").ok();
        let host = host.or(env_host.as_deref()).unwrap_or(":0");
        let env_auth = std::env::var("BRLAPI_AUTH").ok();
        let auth = auth.or(env_auth.as_deref()).map(str::to_owned);
        let mut c = Connection {
            stream: connect(host)?,
            pending: Vec::new(),
            size: 0,
        };
        c.handshake(auth.as_deref())?;
        c.send(packet::DISPLAY_SIZE, &[])?;
        let size = c.expect(packet::DISPLAY_SIZE)?;
        let (x, y) = (word(&size, 0)?, word(&size, 4)?);
        c.size = (x * y) as usize;
        // No tty path and no driver name: keys come as BRLTTY's commands and keysyms.
        c.send(packet::ENTER_TTY, &[0, 0, 0, 0, 0])?;
        c.expect(packet::ACK)?;
        Ok(c)
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.size
    }

    fn handshake(&mut self, auth: Option<&str>) -> Result<(), BrailleError> {
        self.expect(packet::VERSION)?;
        self.send(packet::VERSION, &VERSION.to_be_bytes())?;
        let offered = self.expect_any(&[packet::AUTH, packet::ACK])?;
        let (kind, body) = offered;
        if kind == packet::ACK {
            return Ok(());
        }
        let methods: Vec<u32> = body
            .chunks_exact(4)
            .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // Offering no authorisation means none is needed: nothing is answered.
        if methods.contains(&AUTH_NONE) {
            return Ok(());
        }
        if !methods.contains(&AUTH_KEY) {
            return Err(BrailleError::Refused(
                "no authorisation method in common".into(),
            ));
        }
        let file = auth
            .filter(|a| *a != "none")
            .map_or(KEY_FILE, |a| a.trim_start_matches("keyfile:"));
        let key = std::fs::read(file).map_err(|e| BrailleError::Key(file.to_owned(), e))?;
        let mut reply = AUTH_KEY.to_be_bytes().to_vec();
        reply.extend(key);
        self.send(packet::AUTH, &reply)?;
        self.expect(packet::ACK).map(|_| ())
    }

    /// Shows `dots` (one byte per cell; blank cells after them), the cursor hidden.
    pub fn write_dots(&mut self, dots: &[u8]) -> Result<(), BrailleError> {
        let n = self.size;
        let mut body = Vec::with_capacity(16 + 2 * n);
        body.extend((WRITE_REGION | WRITE_TEXT | WRITE_OR | WRITE_CURSOR).to_be_bytes());
        body.extend(1u32.to_be_bytes());
        body.extend((n as u32).to_be_bytes());
        body.extend((n as u32).to_be_bytes());
        body.extend(std::iter::repeat_n(b' ', n));
        body.extend((0..n).map(|i| dots.get(i).copied().unwrap_or(0)));
        body.extend(0u32.to_be_bytes());
        self.send(packet::WRITE, &body)
    }

    /// The next key within `wait`, or `None`.
    pub fn read_key(&mut self, wait: Duration) -> Result<Option<u64>, BrailleError> {
        match self.next_packet(Some(wait))? {
            Some((packet::KEY, body)) => {
                let (hi, lo) = (word(&body, 0)?, word(&body, 4)?);
                Ok(Some((u64::from(hi) << 32) | u64::from(lo)))
            }
            // A non-fatal error answers something sent before (a write BRLTTY would not
            // take): said, and the display goes on; an exception ends the connection.
            Some((packet::ERROR, body)) => {
                eprintln!("baoqi: braille display: {}", refusal(packet::ERROR, &body));
                Ok(None)
            }
            Some((packet::EXCEPTION, body)) => Err(refusal(packet::EXCEPTION, &body)),
            // Anything else (a parameter's update) is not for this client.
            Some(_) | None => Ok(None),
        }
    }

    fn send(&mut self, kind: u32, body: &[u8]) -> Result<(), BrailleError> {
        let mut p = Vec::with_capacity(8 + body.len());
        p.extend((body.len() as u32).to_be_bytes());
        p.extend(kind.to_be_bytes());
        p.extend(body);
        self.stream.write_all(&p).map_err(BrailleError::Io)
    }

    fn expect(&mut self, kind: u32) -> Result<Vec<u8>, BrailleError> {
        self.expect_any(&[kind]).map(|(_, body)| body)
    }

    fn expect_any(&mut self, kinds: &[u32]) -> Result<(u32, Vec<u8>), BrailleError> {
        match self.next_packet(Some(Duration::from_secs(5)))? {
            Some((kind, body)) if kinds.contains(&kind) => Ok((kind, body)),
            Some((kind, body)) => Err(refusal(kind, &body)),
            None => Err(BrailleError::Refused("BRLTTY did not answer".into())),
        }
    }

    /// The next whole packet, reading for at most `wait`.
    fn next_packet(
        &mut self,
        wait: Option<Duration>,
    ) -> Result<Option<(u32, Vec<u8>)>, BrailleError> {
        loop {
            if self.pending.len() >= 8 {
                let size = word(&self.pending, 0)? as usize;
                if size > MAX_PACKET {
                    return Err(BrailleError::Refused(format!("a packet of {size} bytes")));
                }
                if self.pending.len() >= 8 + size {
                    let kind = word(&self.pending, 4)?;
                    let body = self.pending[8..8 + size].to_vec();
                    self.pending.drain(..8 + size);
                    return Ok(Some((kind, body)));
                }
            }
            self.stream.set_timeout(wait).map_err(BrailleError::Io)?;
            let mut buf = [0u8; 1024];
            match self.stream.read(&mut buf) {
                Ok(0) => return Err(BrailleError::Closed),
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Ok(None);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(BrailleError::Io(e)),
            }
        }
    }
}

/// The 32-bit big-endian word at `at`.
fn word(b: &[u8], at: usize) -> Result<u32, BrailleError> {
    b.get(at..at + 4)
        .map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]]))
        .ok_or_else(|| BrailleError::Refused("a packet cut short".into()))
}

/// What an unexpected packet says.
fn refusal(kind: u32, body: &[u8]) -> BrailleError {
    let code = word(body, 0).unwrap_or(0);
    BrailleError::Refused(match kind {
        packet::ERROR => format!("BRLTTY's error {code}"),
        packet::EXCEPTION => format!("BRLTTY's exception {code}"),
        other => format!(
            "an unexpected packet {:?}",
            char::from_u32(other).unwrap_or('?')
        ),
    })
}
