//! The ALSA file tap of STYLE.md ("Audio without a sound card"): a named PCM `wavtap` of
//! `type file` over the `null` device, so that real cpal playback ends up in a WAV.
//!
//! ALSA reads its configuration once per process, so each tap test runs an ignored child
//! test of the same binary in a fresh process with `ALSA_CONFIG_PATH` pointing at its own
//! configuration (setting the variable in-process would need `unsafe`).

#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;
use std::process::Command;

use baoqi_audio::Pcm;

/// The cpal id of the tap device.
pub const DEVICE: &str = "alsa:wavtap";

/// The cpal id of the capture tap: a microphone that plays [`WavTap::feed_mic`]'s samples.
pub const MIC: &str = "alsa:mictap";

/// The capture side of the tap: `mictap` reads `raw` (16-bit mono at 22 050 Hz) through
/// the file plugin's `infile`; the plug converts to whatever format cpal asks for.
pub fn mic_conf(raw: &std::path::Path) -> String {
    format!(
        "pcm.mictap {{\n  type plug\n  slave {{ pcm \"mictapraw\" format S16_LE rate 22050 channels 1 }}\n}}\n\
         pcm.mictapraw {{\n  type file\n  slave.pcm \"null\"\n  file \"/dev/null\"\n  infile \"{}\"\n  format \"raw\"\n}}\n",
        raw.display()
    )
}

/// Writes samples as what the capture tap will deliver (16-bit mono, 22 050 Hz).
pub fn write_mic_raw(raw: &std::path::Path, pcm: &Pcm) {
    assert_eq!(pcm.rate, 22_050, "the capture tap runs at 22 050 Hz");
    let bytes: Vec<u8> = pcm
        .samples
        .iter()
        .flat_map(|s| ((s.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16).to_le_bytes())
        .collect();
    std::fs::write(raw, bytes).unwrap();
}

/// A private ALSA configuration whose `wavtap` PCM writes to `wav`.
pub struct WavTap {
    pub conf: PathBuf,
    pub wav: PathBuf,
    pub dir: PathBuf,
}

impl WavTap {
    /// A fresh directory under the target's tmp dir with the configuration in it.
    pub fn new(name: &str) -> WavTap {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("baoqi-audio-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let wav = dir.join("tap.wav");
        let _ = std::fs::remove_file(&wav);
        let conf = dir.join("asound.conf");
        std::fs::write(
            &conf,
            format!(
                "</usr/share/alsa/alsa.conf>\n\
                 pcm.wavtap {{\n  type file\n  slave.pcm \"null\"\n  file \"{}\"\n  format \"wav\"\n  \
                 hint {{ show on description \"baoqi WAV tap\" }}\n}}\n{}",
                wav.display(),
                mic_conf(&dir.join("mic.raw"))
            ),
        )
        .unwrap();
        WavTap { conf, wav, dir }
    }

    /// Runs the ignored test `test` of this binary (the function's name; its module is any
    /// file of the binary) in a child process that sees the tap; returns its stdout; panics
    /// with its output if it failed or if the name picked more than one test.
    pub fn run_child(&self, test: &str, env: &[(&str, &str)]) -> String {
        let out = Command::new(std::env::current_exe().unwrap())
            .args([
                "--ignored",
                &format!("::{test}"),
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("ALSA_CONFIG_PATH", &self.conf)
            .env("BAOQI_TAP_WAV", &self.wav)
            .env("BAOQI_TAP_DIR", &self.dir)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "child {test} failed:\n{stdout}\n{stderr}"
        );
        stdout
    }

    /// What the capture tap (`mictap`) will hear.
    pub fn feed_mic(&self, pcm: &Pcm) {
        write_mic_raw(&self.dir.join("mic.raw"), pcm);
    }

    /// The WAV the tap wrote.
    pub fn read(&self) -> Pcm {
        Pcm::from_wav_file(&self.wav).expect("the tap wrote no readable WAV")
    }
}

impl Drop for WavTap {
    /// Removes the directory unless `BAOQI_KEEP_TAP` is set (to listen to a failing test).
    fn drop(&mut self) {
        if std::env::var_os("BAOQI_KEEP_TAP").is_none() && !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// In a child: the WAV its tap writes.
pub fn child_wav() -> PathBuf {
    PathBuf::from(std::env::var("BAOQI_TAP_WAV").expect("run through WavTap::run_child"))
}

/// Seconds of sound louder than `threshold` in `pcm`.
pub fn heard(pcm: &Pcm, threshold: f32) -> f64 {
    let spans = baoqi_audio::pcm::loud_spans(&pcm.samples, pcm.rate, threshold);
    spans.iter().map(|(a, b)| b - a).sum::<usize>() as f64 / f64::from(pcm.rate)
}

/// In a child: the directory of its tap.
pub fn child_dir() -> PathBuf {
    PathBuf::from(std::env::var("BAOQI_TAP_DIR").expect("run through WavTap::run_child"))
}

/// A sine tone.
pub fn tone(freq: f32, secs: f32, rate: u32) -> Pcm {
    let n = (secs * rate as f32) as usize;
    Pcm {
        rate,
        samples: (0..n)
            .map(|i| 0.5 * (i as f32 * freq * std::f32::consts::TAU / rate as f32).sin())
            .collect(),
    }
}

/// Cantonese: characters, Chinese punctuation and Jyutping syllables only.
pub fn cantonese_ok(s: &str) -> bool {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .all(|w| {
            let (letters, tone) = w.split_at(w.len() - 1);
            letters.chars().all(|c| c.is_ascii_lowercase())
                && ('1'..='6').contains(&tone.chars().next().unwrap_or('0'))
        })
}

/// Mandarin: pinyin syllables with tones, spaces and ASCII commas only.
pub fn pinyin_ok(s: &str) -> bool {
    s.split([' ', ',']).filter(|w| !w.is_empty()).all(|w| {
        let (letters, tone) = w.split_at(w.len() - 1);
        !letters.is_empty()
            && letters.chars().all(|c| c.is_ascii_lowercase())
            && ('1'..='5').contains(&tone.chars().next().unwrap_or('0'))
    })
}
