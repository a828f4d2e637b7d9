//! The game corpus the tests read, shipped in the repository as `corpus/ccpd.tar.xz` and
//! unpacked once under the build's `target/corpus/` (or taken from `$BAOQI_CORPUS`).
//!
//! Included with `#[path]` by each test binary that reads the corpus (the grammar's tests and
//! the command line's), so the unpacking is written once. Several test processes may ask at
//! the same moment (nextest runs each test in a process of its own): each unpacks into a
//! folder of its own and renames it into place; the first rename wins, the others find the
//! corpus there and remove their copy.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The folder of the Chinese Chess Practical Dataset's sample (6,196 PGN files): `$BAOQI_CORPUS`
/// when set, else `target/corpus/ccpd`, unpacked from the repository's archive on first use.
///
/// # Panics
/// When the archive cannot be unpacked (no `tar` or `xz` on the machine: `scripts/setup.sh
/// test` installs them), with the command's own message.
pub(crate) fn corpus_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("BAOQI_CORPUS") {
        return PathBuf::from(dir);
    }
    let repo = repository();
    let target = option_env!("CARGO_TARGET_DIR").map_or_else(|| repo.join("target"), PathBuf::from);
    let dest = target.join("corpus");
    let root = dest.join("ccpd");
    if !root.is_dir() {
        unpack(&repo.join("corpus/ccpd.tar.xz"), &dest, &root);
    }
    root
}

/// The repository's root: the folder holding `corpus/`, found upwards from the crate
/// that includes this file.
fn repository() -> PathBuf {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    while !dir.join("corpus/ccpd.tar.xz").is_file() {
        assert!(
            dir.pop(),
            "corpus/ccpd.tar.xz not found above {}",
            env!("CARGO_MANIFEST_DIR")
        );
    }
    dir
}

/// Unpacks `archive` into a folder of this process's own under `dest`, then renames its
/// `ccpd` into `root`; a rename that finds `root` already there lost the race, harmlessly.
fn unpack(archive: &Path, dest: &Path, root: &Path) {
    let own = dest.join(format!("unpacking-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&own);
    std::fs::create_dir_all(&own).expect("a folder under target/ to unpack the corpus into");
    let out = Command::new("tar")
        .arg("-xJf")
        .arg(archive)
        .arg("-C")
        .arg(&own)
        .output()
        .expect("tar runs (scripts/setup.sh test installs tar and xz-utils)");
    assert!(
        out.status.success(),
        "unpacking {} failed: {}",
        archive.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    if std::fs::rename(own.join("ccpd"), root).is_err() {
        assert!(
            root.is_dir(),
            "the corpus could not be put at {}",
            root.display()
        );
    }
    let _ = std::fs::remove_dir_all(&own);
}
