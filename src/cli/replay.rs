//! `baoqi replay`: replays game records (PGN, any notation and encoding; `DhtmlXQ`, known by its
//! content, issue 33) and reports, per file, the final position or the first move that could
//! not be played.

use std::path::{Path, PathBuf};
use std::time::Instant;

use baoqi_grammar::{dhtmlxq, pgn};
use clap::{Args, ValueEnum};

use super::CliError;

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
    /// Files or folders (searched recursively for `*.pgn`).
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

fn replay_file(f: &Path, format: ReplayFormat) -> std::io::Result<FileReport> {
    let bytes = std::fs::read(f)?;
    // A record is known by its content, not by its file name's extension.
    if bytes.windows(9).any(|w| w == b"[DhtmlXQ_") {
        return Ok(replay_dhtmlxq(f, &bytes, format));
    }
    Ok(match pgn::replay_bytes(&bytes) {
        Ok(r) => FileReport {
            line: (format == ReplayFormat::Tsv)
                .then(|| format!("{}\tok\t{}\t{}", f.display(), r.moves.len(), r.end.fen())),
            passed: true,
            plies: r.moves.len(),
        },
        Err(e) => FileReport {
            line: Some(format!("{}\tfail\t{}\t{}", f.display(), e.ply, e.reason)),
            passed: false,
            plies: e.ply,
        },
    })
}

/// A `DhtmlXQ` record (UTF-8, else GB18030 as the Chinese sites write it), replayed by its
/// reader, which checks every move.
fn replay_dhtmlxq(f: &Path, bytes: &[u8], format: ReplayFormat) -> FileReport {
    match dhtmlxq::read_dhtmlxq_bytes(bytes) {
        Ok(g) => {
            let mut end = g.start.clone();
            for m in &g.moves {
                end.make(*m);
            }
            FileReport {
                line: (format == ReplayFormat::Tsv)
                    .then(|| format!("{}\tok\t{}\t{}", f.display(), g.moves.len(), end.fen())),
                passed: true,
                plies: g.moves.len(),
            }
        }
        Err(e) => {
            let ply = match e {
                dhtmlxq::DhtmlError::Illegal { ply, .. } => ply,
                _ => 0,
            };
            FileReport {
                line: Some(format!("{}\tfail\t{ply}\t{e}", f.display())),
                passed: false,
                plies: ply,
            }
        }
    }
}

/// Replays every record; the last line is `N passed, M failed`. Speed goes to stderr.
/// Exits 0 even when some files fail (only unreadable paths are errors).
pub(crate) fn run(args: &ReplayArgs) -> Result<(), CliError> {
    let mut files = Vec::new();
    for p in &args.paths {
        collect(p, &mut files)?;
    }
    files.sort();
    let started = Instant::now();
    let chunk = files.len().div_ceil(usize::from(args.jobs)).max(1);
    let results: Vec<std::io::Result<Vec<FileReport>>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(|f| replay_file(f, args.format)).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("a replay thread panicked")))
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

fn collect(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), CliError> {
    if p.is_dir() {
        for entry in std::fs::read_dir(p)? {
            let path = entry?.path();
            if path.is_dir()
                || path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
            {
                collect(&path, out)?;
            }
        }
    } else if p.exists() {
        out.push(p.to_path_buf());
    } else {
        return Err(CliError::Usage(format!(
            "{}: no such file or folder",
            p.display()
        )));
    }
    Ok(())
}
