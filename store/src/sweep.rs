//! The temporary stores of tests whose processes have ended (`SqliteStore::open_temp`): a
//! test's file outlives its store, since a test may open it again as after a restart; the
//! next test to make one removes those of the processes that are gone, so that test runs do
//! not fill the disk.

use std::path::Path;

/// Removes from `dir` the files of [`crate::SqliteStore::open_temp`] (`baoqi-test-PID-…`,
/// with their WAL, index and recordings) whose process has ended. Only where `/proc` says which
/// processes live.
pub(crate) fn ended_tests(dir: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let owner = temp_owner(&entry.file_name().to_string_lossy());
        if owner.is_some_and(|pid| !proc.join(pid.to_string()).exists()) {
            let path = entry.path();
            let _ = if path.is_dir() {
                std::fs::remove_dir_all(path)
            } else {
                std::fs::remove_file(path)
            };
        }
    }
}

/// The process that made a file of [`crate::SqliteStore::open_temp`], from its name:
/// `baoqi-test-PID-XXXXXXXXXXXX.db` (twelve characters of a token) and the files `SQLite` and
/// the recordings put beside it; nothing else.
fn temp_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("baoqi-test-")?;
    let (pid, rest) = rest.split_once('-')?;
    let (token, suffix) = rest.split_at_checked(12)?;
    let known = [".db", ".db-wal", ".db-shm", ".db-journal", ".db.recordings"];
    let ours = token.bytes().all(|b| b.is_ascii_alphanumeric()) && known.contains(&suffix);
    ours.then(|| pid.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_temporary_stores_of_ended_processes_are_swept_and_no_others() {
        let dir = std::env::temp_dir().join(format!("baoqi-sweep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ended = "baoqi-test-4000000000-0123456789ab.db";
        let mine = format!("baoqi-test-{}-0123456789ab.db", std::process::id());
        let names = [
            ended.to_owned(),
            format!("{ended}-wal"),
            format!("{ended}-shm"),
            mine.clone(),
            "hall.db".to_owned(),
            "baoqi-test-4000000000-notes.txt".to_owned(),
        ];
        for name in &names {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let recordings = dir.join(format!("{ended}.recordings"));
        std::fs::create_dir_all(&recordings).unwrap();
        std::fs::write(recordings.join("1-red.wav"), b"x").unwrap();
        ended_tests(&dir);
        let left: std::collections::BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        let kept = [
            mine,
            "hall.db".to_owned(),
            "baoqi-test-4000000000-notes.txt".to_owned(),
        ];
        assert_eq!(left, kept.into_iter().collect());
    }
}
