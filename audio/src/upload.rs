//! Sending a game's recording to the server, where the referee can play it back.
//!
//! [`Uploader`] is what the table client calls; [`HttpUploader`] POSTs the WAV to a URL
//! (`http://` or `https://`, through ureq, with a timeout on the whole exchange) and puts the
//! metadata in headers, to the server's `POST /api/tables/{id}/recording`
//! (`server/src/recording/`; the contract is in `docs/protocol.md`, "Uploading a
//! recording"). Over https it trusts the hall's own certificate authority when given one
//! ([`HttpUploader::trusting`]), else the public authorities.

use std::path::Path;
use std::time::Duration;

use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig};

use crate::recording::RecordingMeta;

/// Why an upload failed.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// The URL is not `http://host[:port]/path` or `https://host[:port]/path`.
    #[error("bad upload URL {0:?} (http://host[:port]/path or https://…)")]
    Url(String),
    /// The certificate authority's file holds no certificate, or cannot be read.
    #[error("certificate authority {path}: {why}")]
    Authority {
        /// The file.
        path: String,
        /// What was wrong.
        why: String,
    },
    /// Network or file trouble.
    #[error("upload: {0}")]
    Io(#[from] std::io::Error),
    /// The HTTP exchange failed (connection, TLS, timeout).
    #[error("upload: {0}")]
    Http(#[from] ureq::Error),
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
    url: String,
    token: Option<String>,
    timeout: Duration,
    /// The authorities trusted over https; `None`: the public ones.
    roots: Option<Vec<Certificate<'static>>>,
}

impl HttpUploader {
    /// An uploader to `url` (`http://host[:port]/path` or `https://…`), authenticated with
    /// the seat's `token` as a bearer token when given.
    pub fn new(url: &str, token: Option<&str>) -> Result<HttpUploader, UploadError> {
        let bad = || UploadError::Url(url.to_owned());
        let rest = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"))
            .ok_or_else(bad)?;
        let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
        let host = match authority.rsplit_once(':') {
            Some((h, p)) => p.parse::<u16>().map(|_| h).map_err(|_| bad())?,
            None => authority,
        };
        if host.is_empty() {
            return Err(bad());
        }
        Ok(HttpUploader {
            url: url.to_owned(),
            token: token.map(str::to_owned),
            timeout: Duration::from_secs(30),
            roots: None,
        })
    }

    /// Trusts, over https, the certificate authorities of the PEM file `ca` (the hall's
    /// own) instead of the public ones.
    pub fn trusting(mut self, ca: &Path) -> Result<HttpUploader, UploadError> {
        let refused = |why: String| UploadError::Authority {
            path: ca.display().to_string(),
            why,
        };
        let pem = std::fs::read(ca).map_err(|e| refused(e.to_string()))?;
        let mut roots = Vec::new();
        for item in ureq::tls::parse_pem(&pem) {
            if let PemItem::Certificate(cert) = item.map_err(|e| refused(e.to_string()))? {
                roots.push(cert.to_owned());
            }
        }
        if roots.is_empty() {
            return Err(refused("no certificate in it".to_owned()));
        }
        self.roots = Some(roots);
        Ok(self)
    }

    fn agent(&self) -> ureq::Agent {
        let roots = match &self.roots {
            Some(certs) => RootCerts::new_with_certs(certs),
            None => RootCerts::WebPki,
        };
        ureq::Agent::config_builder()
            .timeout_global(Some(self.timeout))
            .http_status_as_error(false)
            .tls_config(TlsConfig::builder().root_certs(roots).build())
            .build()
            .into()
    }
}

impl Uploader for HttpUploader {
    /// `POST {url}` with `Content-Type: audio/wav`, the WAV as body, and headers
    /// `X-Baoqi-Game`, `X-Baoqi-Event-Log-Offset-Ms`, `X-Baoqi-Started-Unix-Ms`,
    /// `X-Baoqi-Sample-Rate`; any 2xx answer is success.
    fn upload(&self, meta: &RecordingMeta) -> Result<(), UploadError> {
        let body = std::fs::read(&meta.wav)?;
        let mut post = self
            .agent()
            .post(&self.url)
            .header("Content-Type", "audio/wav")
            .header("X-Baoqi-Game", meta.game.replace(['\r', '\n'], ""))
            .header(
                "X-Baoqi-Event-Log-Offset-Ms",
                meta.event_log_offset_ms.to_string(),
            )
            .header("X-Baoqi-Started-Unix-Ms", meta.started_unix_ms.to_string())
            .header("X-Baoqi-Sample-Rate", meta.rate.to_string());
        if let Some(t) = &self.token {
            post = post.header("Authorization", format!("Bearer {t}"));
        }
        let mut answer = post.send(&body[..])?;
        let status = answer.status();
        if status.is_success() {
            return Ok(());
        }
        let said = answer
            .body_mut()
            .with_config()
            .limit(64 * 1024)
            .read_to_string()
            .unwrap_or_default();
        Err(UploadError::Status(
            format!(
                "HTTP {} {} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or(""),
                said.trim()
            )
            .trim()
            .to_owned(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read_or_refused() {
        for good in [
            "http://127.0.0.1:8080/games/7/recording",
            "http://example.invalid",
            "https://hall.example:7443/api/tables/3/recording",
        ] {
            assert!(HttpUploader::new(good, Some("t")).is_ok(), "{good}");
        }
        for bad in ["ftp://x", "http://:80/", "http://x:port/", "x/y"] {
            assert!(HttpUploader::new(bad, None).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_authority_file_without_a_certificate_is_refused_with_its_name() {
        let path = std::env::temp_dir().join(format!("baoqi-no-ca-{}.pem", std::process::id()));
        std::fs::write(&path, "not a certificate\n").unwrap();
        let refused = HttpUploader::new("https://x/y", None)
            .unwrap()
            .trusting(&path)
            .unwrap_err();
        let _ = std::fs::remove_file(&path);
        assert!(refused.to_string().contains("no certificate"), "{refused}");
    }
}
