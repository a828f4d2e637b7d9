//! Sending a game's recording to the server, where the referee can play it back.
//!
//! [`Uploader`] is what the table client calls; [`HttpUploader`] POSTs the WAV to a URL
//! (plain HTTP/1.1 over `std::net`, with a timeout on every step) and puts the metadata in
//! headers, to the server's `POST /api/tables/{id}/recording` (`server/src/recording/`;
//! the contract is in `docs/protocol.md`, "Uploading a recording").

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use crate::recording::RecordingMeta;

/// Why an upload failed.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// The URL is not `http://host[:port]/path`.
    #[error("bad upload URL {0:?} (http://host[:port]/path)")]
    Url(String),
    /// Network or file trouble.
    #[error("upload: {0}")]
    Io(#[from] std::io::Error),
    /// The server said no.
    #[error("upload refused: {0}")]
    Status(String),
}

/// Something that takes a finished recording.
pub trait Uploader {
    /// Sends the WAV of `meta` with its metadata.
    fn upload(&self, meta: &RecordingMeta) -> Result<(), UploadError>;
}

/// POSTs recordings to `url`.
#[derive(Clone, Debug)]
pub struct HttpUploader {
    host: String,
    port: u16,
    path: String,
    token: Option<String>,
    timeout: Duration,
}

impl HttpUploader {
    /// An uploader to `url` (`http://host[:port]/path`), authenticated with the seat's
    /// `token` as a bearer token when given.
    pub fn new(url: &str, token: Option<&str>) -> Result<HttpUploader, UploadError> {
        let bad = || UploadError::Url(url.to_owned());
        let rest = url.strip_prefix("http://").ok_or_else(bad)?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => (h, p.parse().map_err(|_| bad())?),
            None => (authority, 80),
        };
        if host.is_empty() {
            return Err(bad());
        }
        Ok(HttpUploader {
            host: host.to_owned(),
            port,
            path: if path.is_empty() { "/" } else { path }.to_owned(),
            token: token.map(str::to_owned),
            timeout: Duration::from_secs(30),
        })
    }
}

impl Uploader for HttpUploader {
    /// `POST {path}` with `Content-Type: audio/wav`, the WAV as body, and headers
    /// `X-Baoqi-Game`, `X-Baoqi-Event-Log-Offset-Ms`, `X-Baoqi-Started-Unix-Ms`,
    /// `X-Baoqi-Sample-Rate`; any 2xx answer is success.
    fn upload(&self, meta: &RecordingMeta) -> Result<(), UploadError> {
        let body = std::fs::read(&meta.wav)?;
        let addr = (self.host.as_str(), self.port)
            .to_socket_addrs()?
            .next()
            .ok_or_else(|| UploadError::Url(self.host.clone()))?;
        let mut stream = TcpStream::connect_timeout(&addr, self.timeout)?;
        stream.set_read_timeout(Some(self.timeout))?;
        stream.set_write_timeout(Some(self.timeout))?;
        let auth = self
            .token
            .as_ref()
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: audio/wav\r\n\
             Content-Length: {len}\r\n{auth}X-Baoqi-Game: {game}\r\n\
             X-Baoqi-Event-Log-Offset-Ms: {offset}\r\nX-Baoqi-Started-Unix-Ms: {started}\r\n\
             X-Baoqi-Sample-Rate: {rate}\r\nConnection: close\r\n\r\n",
            path = self.path,
            host = self.host,
            port = self.port,
            len = body.len(),
            game = meta.game.replace(['\r', '\n'], ""),
            offset = meta.event_log_offset_ms,
            started = meta.started_unix_ms,
            rate = meta.rate,
        );
        stream.write_all(head.as_bytes())?;
        stream.write_all(&body)?;
        stream.flush()?;
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status)?;
        let code = status.split_whitespace().nth(1).unwrap_or("");
        if code.starts_with('2') {
            // Drain the answer politely; its content does not matter.
            let _ = reader.take(64 * 1024).read_to_end(&mut Vec::new());
            Ok(())
        } else {
            Err(UploadError::Status(status.trim().to_owned()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read_or_refused() {
        let u = HttpUploader::new("http://127.0.0.1:8080/games/7/recording", None).unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("127.0.0.1", 8080, "/games/7/recording")
        );
        let u = HttpUploader::new("http://example.invalid", Some("t")).unwrap();
        assert_eq!((u.port, u.path.as_str()), (80, "/"));
        for bad in ["https://x/y", "ftp://x", "http://:80/", "http://x:port/"] {
            assert!(HttpUploader::new(bad, None).is_err(), "{bad}");
        }
    }
}
