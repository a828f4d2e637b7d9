//! Time from an utterance request to its first sample written to the audio device
//! (goal < 100 ms), for earcons, cached word echoes, uncached readings and, with
//! `--speechd`, speech-dispatcher (its begin report).
//!
//! ```text
//! cargo run --release -p baoqi-audio --example latency [-- --device alsa:NAME] [--speechd]
//! ```
//!
//! Without `--device` it plays into a private ALSA file tap (`alsa:wavtap` over `null`, as
//! the tests do), re-running itself with `ALSA_CONFIG_PATH` set.

use std::sync::Arc;
use std::time::{Duration, Instant};

use baoqi_audio::phrasebook::all_words;
use baoqi_audio::{
    DispatcherSpeaker, Earcon, Espeak, EspeakSpeaker, Output, Speaker, TimeReason, TrackState,
    Utterance, Voice,
};
use baoqi_grammar::speech::Lang;
use baoqi_rules::Color;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let device = args
        .iter()
        .position(|a| a == "--device")
        .and_then(|i| args.get(i + 1).cloned());
    if device.is_none() && std::env::var_os("BAOQI_LATENCY_TAP").is_none() {
        rerun_with_tap(&args);
        return;
    }
    let device = device.unwrap_or_else(|| "alsa:wavtap".to_owned());
    let output = Arc::new(Output::open(Some(&device)).expect("open the output device"));
    println!("device {device} at {} Hz", output.rate());

    let earcons: Vec<Duration> = (0..40)
        .map(|i| {
            let pcm = Earcon::ALL[i % Earcon::ALL.len()].pcm(output.rate());
            let asked = Instant::now();
            let id = output.play(&pcm);
            let first = loop {
                match output.state(id) {
                    TrackState::Playing(at) | TrackState::Done(Some(at)) => break at,
                    _ if asked.elapsed() > Duration::from_secs(2) => panic!("earcon never played"),
                    _ => std::thread::sleep(Duration::from_micros(200)),
                }
            };
            std::thread::sleep(Duration::from_millis(30));
            output.stop(id);
            first - asked
        })
        .collect();
    report("earcon (synthesized, mixer)", &earcons);

    let espeak = Arc::new(Espeak::default());
    let (e2, o2) = (espeak.clone(), output.clone());
    let voice = Voice::spawn(Lang::Yue, move || {
        let s = EspeakSpeaker::new(e2, o2);
        let t = Instant::now();
        let failed = s.warm_phrasebook();
        println!(
            "warm-up: every echo rendered in {:?} ({failed} failed)",
            t.elapsed()
        );
        Ok(Box::new(s) as Box<dyn Speaker>)
    })
    .expect("voice");
    let echoes: Vec<Utterance> = all_words()
        .into_iter()
        .take(30)
        .map(|(word, side)| Utterance::Word { word, side })
        .collect();
    report("word echo (espeak-ng, cached)", &measure(&voice, &echoes));
    let readings: Vec<Utterance> = (0..20u64)
        .map(|i| {
            let red = Duration::from_secs(600 + 7 * i);
            let black = Duration::from_secs(300 + 13 * i);
            Utterance::times(TimeReason::Query, Color::Red, red, black, Color::Red)
        })
        .collect();
    report(
        "time reading (espeak-ng, rendered on demand)",
        &measure(&voice, &readings),
    );
    drop(voice);

    if args.iter().any(|a| a == "--speechd") {
        let t = Instant::now();
        let voice = Voice::spawn(Lang::Yue, || {
            Ok(Box::new(DispatcherSpeaker::connect(Lang::Yue)?) as Box<dyn Speaker>)
        })
        .expect("speech-dispatcher");
        println!("speech-dispatcher connected in {:?}", t.elapsed());
        report(
            "time reading (speech-dispatcher begin report)",
            &measure(&voice, &readings),
        );
    }
}

/// Says each utterance alone and collects its request-to-first-sample latency.
fn measure(voice: &Voice, us: &[Utterance]) -> Vec<Duration> {
    for u in us {
        voice.say(u);
        assert!(voice.wait_idle(Duration::from_secs(30)), "voice stuck");
    }
    let lat: Vec<Duration> = voice
        .log()
        .entries()
        .iter()
        .rev()
        .take(us.len() * 2)
        .filter_map(|e| e.latency)
        .collect();
    assert_eq!(lat.len(), us.len(), "{}", voice.log().to_text());
    lat
}

fn report(what: &str, lat: &[Duration]) {
    let mut v: Vec<f64> = lat.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    v.sort_by(f64::total_cmp);
    let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    println!(
        "{what}: n={} min {:.1} ms, median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        v.len(),
        v[0],
        q(0.5),
        q(0.95),
        v[v.len() - 1]
    );
}

fn rerun_with_tap(args: &[String]) {
    let dir = std::env::temp_dir().join(format!("baoqi-latency-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let conf = dir.join("asound.conf");
    std::fs::write(
        &conf,
        format!(
            "</usr/share/alsa/alsa.conf>\npcm.wavtap {{ type file slave.pcm \"null\" file \"{}\" \
             format \"wav\" hint {{ show on description \"baoqi WAV tap\" }} }}\n",
            dir.join("latency.wav").display()
        ),
    )
    .expect("ALSA configuration");
    let status = std::process::Command::new(&args[0])
        .args(&args[1..])
        .env("ALSA_CONFIG_PATH", &conf)
        .env("BAOQI_LATENCY_TAP", "1")
        .status()
        .expect("re-run");
    let _ = std::fs::remove_dir_all(&dir);
    std::process::exit(status.code().unwrap_or(1));
}
