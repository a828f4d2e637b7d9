//! A register file's bytes as text. A spreadsheet on Traditional Chinese Windows saves
//! "CSV" in Big5 (code page 950) and "Unicode Text" in UTF-16 with a byte order mark; only
//! "CSV UTF-8" is UTF-8, with a BOM. The bytes are read in that order of certainty: a BOM
//! (UTF-8, UTF-16 LE or BE) names its encoding; else valid UTF-8 is UTF-8; else Big5, only
//! when every byte decodes; else the file is refused with the way to save it as UTF-8.
//! Which encoding was read is said back to the organiser.

use encoding_rs::{BIG5, Encoding, UTF_8, UTF_16LE};

/// The encoding a register was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    /// UTF-8 with a byte order mark (Excel's "CSV UTF-8").
    Utf8Bom,
    /// UTF-8 without a byte order mark.
    Utf8,
    /// UTF-16, little-endian, with a byte order mark (Excel's "Unicode Text").
    Utf16Le,
    /// UTF-16, big-endian, with a byte order mark.
    Utf16Be,
    /// Big5 (code page 950, read as Big5-HKSCS): Excel's "CSV" on Traditional Chinese Windows.
    Big5,
}

impl std::fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TextEncoding::Utf8Bom => "UTF-8 (with BOM)",
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Utf16Le => "UTF-16 LE",
            TextEncoding::Utf16Be => "UTF-16 BE",
            TextEncoding::Big5 => "Big5 (繁體中文 Windows)",
        })
    }
}

/// A register file read as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text, without its byte order mark.
    pub text: String,
    /// The encoding it was read in.
    pub encoding: TextEncoding,
}

/// How to save a spreadsheet so that the register reads: said in every refusal.
pub const SAVE_AS_UTF8: &str = "In Excel: File > Save As, type \"CSV UTF-8 (Comma delimited) (*.csv)\" \
     (Excel 2016 and later); in LibreOffice Calc: Save As, \"Text CSV\", character set \"Unicode (UTF-8)\". \
     Excel：檔案 > 另存新檔，存檔類型選「CSV UTF-8 (逗號分隔) (*.csv)」。";

/// Why a register file's bytes cannot be read as text; nothing was read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A BOM names UTF-8 or UTF-16, but what follows is not.
    #[error("the file begins as {encoding} but is not valid {encoding}. {SAVE_AS_UTF8}")]
    Malformed {
        /// The encoding its BOM names.
        encoding: TextEncoding,
    },
    /// Neither UTF-8 nor Big5.
    #[error(
        "the file is neither UTF-8 nor Big5 (byte {offset} cannot be read): it was saved in another encoding. {SAVE_AS_UTF8}"
    )]
    Unknown {
        /// The first byte that is not UTF-8.
        offset: usize,
    },
}

/// The encoding a byte order mark names, and the mark's length.
fn by_bom(bytes: &[u8]) -> Option<(TextEncoding, &'static Encoding, usize)> {
    let (encoding, length) = Encoding::for_bom(bytes)?;
    let ours = if encoding == UTF_8 {
        TextEncoding::Utf8Bom
    } else if encoding == UTF_16LE {
        TextEncoding::Utf16Le
    } else {
        TextEncoding::Utf16Be
    };
    Some((ours, encoding, length))
}

/// `bytes` in `encoding`, only when every byte decodes.
fn strictly(encoding: &'static Encoding, bytes: &[u8]) -> Option<String> {
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(std::borrow::Cow::into_owned)
}

/// Reads a register file's bytes as text: by its BOM, else UTF-8, else Big5 when every byte
/// decodes (module doc).
pub fn decode_register(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    if let Some((ours, encoding, length)) = by_bom(bytes) {
        let text = strictly(encoding, &bytes[length..])
            .ok_or(DecodeError::Malformed { encoding: ours })?;
        return Ok(Decoded {
            text,
            encoding: ours,
        });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(Decoded {
            text: text.to_string(),
            encoding: TextEncoding::Utf8,
        }),
        Err(e) => strictly(BIG5, bytes)
            .map(|text| Decoded {
                text,
                encoding: TextEncoding::Big5,
            })
            .ok_or(DecodeError::Unknown {
                offset: e.valid_up_to(),
            }),
    }
}
