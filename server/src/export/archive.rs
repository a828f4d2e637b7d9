//! An event's games as one archive: a ZIP holding, for each table, its game in each record
//! format asked for — PGN, XQF, CBF, `DhtmlXQ` — named by round and table, as a player or a
//! club keeps them.

use std::io::{Cursor, Write};

use baoqi_arbiter::View;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::{ExportError, FileName, Known};

/// A game-record format a table's game is exported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN, in traditional notation with `[%clk]` comments.
    Pgn,
    /// 象棋演播室's binary XQF 1.0.
    Xqf,
    /// 象棋橋's XML.
    Cbf,
    /// The UBB text of 東萍象棋網.
    Dhtmlxq,
}

impl RecordFormat {
    /// Every format, in the order an archive holds them.
    pub const ALL: [RecordFormat; 4] = [Self::Pgn, Self::Xqf, Self::Cbf, Self::Dhtmlxq];

    /// The format of a name as the command line and the URLs write it.
    #[must_use]
    pub fn named(name: &str) -> Option<RecordFormat> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Its name on the command line and in URLs.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Pgn => "pgn",
            Self::Xqf => "xqf",
            Self::Cbf => "cbf",
            Self::Dhtmlxq => "dhtmlxq",
        }
    }

    /// The file name's extension (`DhtmlXQ` is text the sites paste: `.dhtmlxq.txt`).
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Dhtmlxq => "dhtmlxq.txt",
            other => other.name(),
        }
    }

    /// The media type a download is served with.
    #[must_use]
    pub fn mime(self) -> &'static str {
        match self {
            Self::Pgn => "application/x-chess-pgn; charset=utf-8",
            Self::Xqf => "application/octet-stream",
            Self::Cbf => "application/xml; charset=utf-8",
            Self::Dhtmlxq => "text/plain; charset=utf-8",
        }
    }

    /// A table's game in this format.
    pub fn render(self, known: &Known, view: &View) -> Result<Vec<u8>, ExportError> {
        Ok(match self {
            Self::Pgn => super::pgn(known, view)?.into_bytes(),
            Self::Xqf => super::xqf(known, view)?,
            Self::Cbf => super::cbf(known, view)?.into_bytes(),
            Self::Dhtmlxq => super::dhtmlxq(known, view)?.into_bytes(),
        })
    }
}

/// Whether a table's game began (a move played or a result): only such games go into an
/// event's archive.
#[must_use]
pub fn began(view: &View) -> bool {
    !view.moves.is_empty() || view.result.is_some()
}

/// `formats` each once, in their first order: a format asked twice would write each game's
/// file twice under one name, which a ZIP cannot hold.
fn distinct(formats: &[RecordFormat]) -> Vec<RecordFormat> {
    let mut out: Vec<RecordFormat> = Vec::with_capacity(formats.len());
    for f in formats {
        if !out.contains(f) {
            out.push(*f);
        }
    }
    out
}

/// The ZIP of `games` (each table as the exports know it, with its snapshot), each in every
/// format of `formats`, named `r<round>-t<table>.<ext>` after the event's name (a name
/// already taken gets `-table<N>`, the table's number). A format named twice is written
/// once. The callers leave out the tables set aside by a 108 replay: their games no longer
/// count, and the replay is the board's record.
pub fn archive(games: &[(Known, View)], formats: &[RecordFormat]) -> Result<Vec<u8>, ExportError> {
    let formats = distinct(formats);
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let mut taken = std::collections::BTreeSet::new();
    for (known, view) in games {
        for format in &formats {
            let ext = format.extension();
            let mut name = FileName::of_table(&known.header(), known.event.id, ext).full;
            // Two tables of one round and board (a header the organiser gave twice): the
            // second is told apart by its table's number, since a ZIP holds a name once.
            if !taken.insert(name.clone()) {
                let stem = name.strip_suffix(&format!(".{ext}")).unwrap_or(&name);
                name = format!("{stem}-table{}.{ext}", known.table.id);
                taken.insert(name.clone());
            }
            zip.start_file(name, options)?;
            zip.write_all(&format.render(known, view)?)
                .map_err(zip::result::ZipError::Io)?;
        }
    }
    Ok(zip.finish()?.into_inner())
}
