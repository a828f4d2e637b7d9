//! TLS on the server's own listener (rustls, with the ring provider the federation's bus
//! client already uses): a hall's certificate and key, in PEM, as `baoqi serve --tls-cert
//! --tls-key` names them. With TLS on, the listener speaks nothing else: a plain HTTP or
//! WebSocket request fails its handshake and is closed, so no token is ever read in clear.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Why the certificate and key could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read as PEM.
    #[error("{}: {why}", .path.display())]
    Pem {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        why: String,
    },
    /// The certificate file holds no certificate.
    #[error("{}: no certificate in it", .0.display())]
    NoCertificate(PathBuf),
    /// rustls refused the pair (a key that is not the certificate's, say).
    #[error("TLS: {0}")]
    Rustls(#[from] rustls::Error),
}

/// A server configuration from a PEM certificate chain (the hall's certificate first, then
/// any intermediate) and its PEM private key; HTTP/1.1, which the web sockets upgrade.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, TlsError> {
    let pem = |path: &Path, e: rustls::pki_types::pem::Error| TlsError::Pem {
        path: path.to_owned(),
        why: e.to_string(),
    };
    let chain = CertificateDer::pem_file_iter(cert)
        .map_err(|e| pem(cert, e))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| pem(cert, e))?;
    if chain.is_empty() {
        return Err(TlsError::NoCertificate(cert.to_owned()));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| pem(key, e))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}
