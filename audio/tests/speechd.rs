//! speech-dispatcher (the `tts` crate's Linux backend) headless: a private configuration
//! sends its espeak-ng module's sound to the ALSA file tap. Skipped with a message when
//! speech-dispatcher or its espeak-ng module is missing; `BAOQI_REQUIRE_SPEECHD=1` makes
//! it required.

use crate::common;

use std::path::Path;
use std::time::Duration;

use baoqi_audio::phrasebook::phrase;
use baoqi_audio::{DispatcherSpeaker, Speaker, Utterance, Voice};
use baoqi_grammar::Word;
use baoqi_grammar::speech::Lang;
use baoqi_rules::{Color, Kind};
use common::{WavTap, heard};

fn installed() -> bool {
    let ok = Path::new("/usr/bin/speech-dispatcher").exists()
        && Path::new("/usr/lib/speech-dispatcher-modules/sd_espeak-ng").exists();
    if !ok {
        assert!(
            std::env::var("BAOQI_REQUIRE_SPEECHD").as_deref() != Ok("1"),
            "BAOQI_REQUIRE_SPEECHD=1 but speech-dispatcher or speech-dispatcher-espeak-ng is missing"
        );
        println!("SKIPPED: speech-dispatcher with its espeak-ng module is not installed");
    }
    ok
}

#[test]
fn speech_dispatcher_speaks_both_languages_into_the_tap() {
    if !installed() {
        return;
    }
    let tap = WavTap::new("speechd");
    let conf = tap.dir.join("config/speech-dispatcher");
    let run = tap.dir.join("run");
    std::fs::create_dir_all(&conf).unwrap();
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(
        conf.join("speechd.conf"),
        "AudioOutputMethod \"alsa\"\nAudioALSADevice \"wavtap\"\n\
         AddModule \"espeak-ng\" \"sd_espeak-ng\" \"espeak-ng.conf\"\nDefaultModule espeak-ng\n\
         Timeout 3\nLogLevel 2\n",
    )
    .unwrap();
    let result = std::panic::catch_unwind(|| {
        tap.run_child(
            "child_speechd_speaks",
            &[
                ("XDG_CONFIG_HOME", tap.dir.join("config").to_str().unwrap()),
                ("XDG_RUNTIME_DIR", run.to_str().unwrap()),
            ],
        )
    });
    // The daemon was started (autospawn) for this test only: stop it by its pid file.
    let pid_file = run.join("speech-dispatcher/pid/speech-dispatcher.pid");
    if let Ok(pid) = std::fs::read_to_string(&pid_file) {
        let _ = std::process::Command::new("kill").arg(pid.trim()).status();
        for _ in 0..100 {
            if !Path::new(&format!("/proc/{}", pid.trim())).exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let out = result.unwrap_or_else(|e| std::panic::resume_unwind(e));
    println!("{out}");
    let got = heard(&tap.read(), 0.01);
    assert!(
        got > 1.0,
        "the tap heard {got:.2} s of speech from speech-dispatcher"
    );
}

#[test]
#[ignore = "child of speech_dispatcher_speaks_both_languages_into_the_tap"]
fn child_speechd_speaks() {
    for lang in [Lang::Yue, Lang::Cmn] {
        let v = Voice::spawn(lang, move || {
            Ok(Box::new(DispatcherSpeaker::connect(lang)?) as Box<dyn Speaker>)
        })
        .unwrap();
        let u = Utterance::Move {
            side: Color::Red,
            words: vec![
                Word::Piece(Kind::Rook),
                Word::Numeral(1),
                Word::Across,
                Word::Numeral(4),
            ],
            captured: None,
            check: false,
        };
        v.say(&u);
        assert!(
            v.wait_idle(Duration::from_secs(20)),
            "{}",
            v.log().to_text()
        );
        assert_eq!(
            v.log().spoken(),
            [phrase(&u).display],
            "{}",
            v.log().to_text()
        );
        let e = &v.log().entries()[1];
        println!(
            "{lang:?}: request to speech-dispatcher's begin report: {:?}",
            e.latency
        );
    }
}
