//! `baoqi replay`: replays game records (PGN, any notation and encoding; XQF, CBF and
//! `DhtmlXQ`, each known by its content) and reports, per file, the final position or the first move that could
//! not be played.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use baoqi_grammar::{cbf, dhtmlxq, pgn, xqf};
use baoqi_rules::Position;
use clap::{Args, ValueEnum};

use super::CliError;
use super::terminal::shown;

/// How `baoqi replay` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReplayFormat {
    /// One line per file: `path<TAB>ok<TAB>PLIES<TAB>FINAL_FEN` or
    /// `path<TAB>fail<TAB>PLY<TAB>REASON`.
    Tsv,
    /// Only the failing files' lines.
    Failures,
}

/// Arguments of `baoqi replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// Files or folders (searched recursively for `*.pgn`, `*.xqf`, `*.cbf`, `*.txt`, `*.ubb`;
    /// each file's format is known by its content: PGN, XQF, CBF or `DhtmlXQ`).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "tsv")]
    format: ReplayFormat,
    /// Threads to replay with (files are split between them; output keeps file order).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
}

/// What replaying one file gave: its report line (if any) and its counts.
struct FileReport {
    line: Option<String>,
    passed: bool,
    plies: usize,
}

/// The record formats besides PGN, known by their content.
enum Other {
    Xqf,
    Cbf,
    Dhtmlxq,
}

/// Which format `bytes` hold, by content (PGN when none of the others).
fn sniff(bytes: &[u8]) -> Option<Other> {
    let head = &bytes[..bytes.len().min(4096)];
    let has = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    if bytes.starts_with(b"XQ") && bytes.len() >= 1024 {
        Some(Other::Xqf)
    } else if has(b"<ChineseChessRecord") {
        Some(Other::Cbf)
    } else if bytes.windows(9).any(|w| w == b"[DhtmlXQ_") {
        Some(Other::Dhtmlxq)
    } else {
        None
    }
}

/// One file's report; a file that cannot be read (a symbolic link that loops or leads
/// nowhere, no permission) fails with the reason, and the others are still read.
fn replayed(f: &Path, format: ReplayFormat) -> FileReport {
    replay_file(f, format).unwrap_or_else(|e| report_fail(f, 0, &format!("cannot be read: {e}")))
}

fn replay_file(f: &Path, format: ReplayFormat) -> std::io::Result<FileReport> {
    let bytes = std::fs::read(f)?;
    // A record is known by its content, not by its file name's extension.
    let read = match sniff(&bytes) {
        Some(Other::Xqf) => xqf::read_xqf(&bytes).map_err(|e| (e.ply(), e.to_string())),
        Some(Other::Cbf) => cbf::read_cbf_bytes(&bytes).map_err(|e| (e.ply(), e.to_string())),
        Some(Other::Dhtmlxq) => {
            dhtmlxq::read_dhtmlxq_bytes(&bytes).map_err(|e| (e.ply(), e.to_string()))
        }
        None => return Ok(replay_pgn(f, &bytes, format)),
    };
    Ok(match read {
        Ok(g) => report_ok(f, format, g.moves.len(), &g.end()),
        Err((ply, reason)) => report_fail(f, ply, &reason),
    })
}

/// A PGN file, in any notation and encoding.
fn replay_pgn(f: &Path, bytes: &[u8], format: ReplayFormat) -> FileReport {
    match pgn::replay_bytes(bytes) {
        Ok(r) => report_ok(f, format, r.moves.len(), &r.end),
        Err(e) => report_fail(f, e.ply, &e.reason),
    }
}

/// The line of a file that replayed to `end` in `plies` moves.
fn report_ok(f: &Path, format: ReplayFormat, plies: usize, end: &Position) -> FileReport {
    FileReport {
        line: (format == ReplayFormat::Tsv)
            .then(|| format!("{}\tok\t{plies}\t{}", named(f), end.fen())),
        passed: true,
        plies,
    }
}

/// A file's name as a report line shows it ([`shown`]: no terminal control of it printed).
fn named(f: &Path) -> String {
    shown(&f.display().to_string()).into_owned()
}

/// The line of a file that failed at `ply` for `reason` (its move text shown, not obeyed).
fn report_fail(f: &Path, ply: usize, reason: &impl std::fmt::Display) -> FileReport {
    let reason = reason.to_string();
    FileReport {
        line: Some(format!("{}\tfail\t{ply}\t{}", named(f), shown(&reason))),
        passed: false,
        plies: ply,
    }
}

/// Replays every record; the last line is `N passed, M failed`. Speed goes to stderr.
/// Exits 0 even when some files fail (only unreadable paths are errors).
pub(crate) fn run(args: &ReplayArgs) -> Result<(), CliError> {
    let mut files = collect_all(&args.paths)?;
    files.sort();
    let started = Instant::now();
    let chunk = files.len().div_ceil(usize::from(args.jobs)).max(1);
    let results: Vec<std::io::Result<Vec<FileReport>>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(|f| replayed(f, args.format)).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| std::io::Error::other("a replay thread panicked"))
            })
            .collect()
    });
    let (mut passed, mut failed, mut plies) = (0usize, 0usize, 0usize);
    for part in results {
        for o in part? {
            if let Some(line) = &o.line {
                println!("{line}");
            }
            if o.passed {
                passed += 1;
            } else {
                failed += 1;
            }
            plies += o.plies;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    if secs > 0.0 {
        #[allow(clippy::cast_precision_loss)] // a speed figure
        let rate = plies as f64 / secs / 1e6;
        eprintln!(
            "replayed {plies} moves of {} files in {secs:.3} s: {rate:.2} M moves/s",
            files.len()
        );
    }
    println!("{passed} passed, {failed} failed");
    Ok(())
}

/// The file names a folder is searched for (a file named on the command line is read
/// whatever its name; either way its content says its format).
const RECORD_EXTENSIONS: [&str; 5] = ["pgn", "xqf", "cbf", "txt", "ubb"];

/// The record files under each of `paths`; a path named that does not exist is an error.
fn collect_all(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for p in paths {
        if std::fs::symlink_metadata(p).is_err() {
            return Err(CliError::Usage(format!(
                "{}: no such file or folder",
                shown(&p.display().to_string())
            )));
        }
        collect(p, &mut out, &mut seen)?;
    }
    Ok(out)
}

/// The record files under `p`. A folder is read once however many links lead to it (`seen`
/// holds the folders read, by their real path), so a link to a folder above ends; anything
/// else, a link that loops or leads nowhere included, is a file, whose reading reports why
/// it fails.
fn collect(p: &Path, out: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) -> Result<(), CliError> {
    if !p.is_dir() {
        out.push(p.to_path_buf());
        return Ok(());
    }
    if !std::fs::canonicalize(p).is_ok_and(|real| seen.insert(real)) {
        return Ok(());
    }
    for entry in std::fs::read_dir(p)? {
        let path = entry?.path();
        let known = path
            .extension()
            .is_some_and(|e| RECORD_EXTENSIONS.iter().any(|k| e.eq_ignore_ascii_case(k)));
        if path.is_dir() || known {
            collect(&path, out, seen)?;
        }
    }
    Ok(())
}
