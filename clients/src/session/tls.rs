//! What a keypad trusts when it reaches a hall over `wss://`: the hall's own certificate
//! authority (`baoqi keypad --ca FILE`, PEM), or, without one, the system's authorities (a
//! federation with a certificate a public authority signed). rustls with the ring provider.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ClientConfig, RootCertStore};

/// Why the authorities could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// The authority's file could not be read as PEM certificates.
    #[error("{}: {why}", .path.display())]
    Pem {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        why: String,
    },
    /// No authority to trust: the file held none, or the system has none.
    #[error("no certificate authority to trust ({0})")]
    NoAuthority(String),
    /// rustls refused.
    #[error("TLS: {0}")]
    Rustls(#[from] rustls::Error),
}

/// A client configuration trusting the certificates of `ca` (PEM), or the system's
/// authorities when `ca` is `None`.
pub fn trusting(ca: Option<&Path>) -> Result<Arc<ClientConfig>, TrustError> {
    let mut roots = RootCertStore::empty();
    match ca {
        Some(path) => {
            let pem = |e: rustls::pki_types::pem::Error| TrustError::Pem {
                path: path.to_owned(),
                why: e.to_string(),
            };
            let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
                .map_err(pem)?
                .collect::<Result<_, _>>()
                .map_err(pem)?;
            roots.add_parsable_certificates(certs);
        }
        None => {
            roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
        }
    }
    if roots.is_empty() {
        let whose = ca.map_or_else(|| "the system's".to_owned(), |p| p.display().to_string());
        return Err(TrustError::NoAuthority(whose));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(Arc::new(
        ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth(),
    ))
}
