//! The service units in `deploy/` are ones systemd accepts: `systemd-analyze verify` on each,
//! their `ExecStart` pointed at the binary under test (skipped, with a note, where systemd's
//! tools are not installed).

use std::path::Path;
use std::process::Command;

use crate::common;
use common::{BIN, Scratch};

#[test]
fn the_service_units_verify() {
    if !Path::new("/usr/bin/systemd-analyze").exists() {
        eprintln!("skipped: no systemd-analyze");
        return;
    }
    let dir = Scratch::new("deploy-units");
    let units = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy");
    for (file, instance) in [
        ("baoqi-hall.service", "baoqi-hall.service"),
        ("baoqi-node@.service", "baoqi-node@n1.service"),
    ] {
        let text = std::fs::read_to_string(units.join(file)).unwrap();
        let local = text.replace("/usr/local/bin/baoqi", BIN);
        let path = dir.join(instance);
        std::fs::write(&path, local).unwrap();
        let out = Command::new("systemd-analyze")
            .args(["verify", "--man=no"])
            .arg(&path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        // What systemd says of the machine rather than of the unit (no curl installed, say)
        // is not the unit's fault; anything about the file is.
        let about_unit: Vec<_> = said
            .lines()
            .filter(|l| l.contains(instance) && !l.contains("is not executable"))
            .collect();
        assert!(about_unit.is_empty(), "{file}: {said}");
        assert!(
            out.status.success() || said.contains("is not executable"),
            "{file}: {said}"
        );
    }
}
