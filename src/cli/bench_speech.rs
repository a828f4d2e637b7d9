//! `baoqi bench speech`: how long the blind player's readings last and how fast speech
//! answers. Two parts:
//!
//! - **Lengths**: the whole start position (terse and full), each help page and a 10-second
//!   time alert, rendered by espeak-ng at the chosen rate; the length of the sound, in
//!   seconds (the same text always gives the same sound, so one rendering is the figure).
//! - **Latency** (with `--device` or `--tap`): a voice over espeak-ng and cpal, as the keypad
//!   runs it. Each round says the whole position (a reading) twice; 400 ms into the first the
//!   echo of a key is asked for, into the second an opponent's move never said before (so it
//!   is rendered then, not taken from the cache). The spoken log gives, for each, the time
//!   from the request to its first sample written. Medians, 99th percentiles and maxima.
//!   `BAOQI_BENCH_LOG=1` prints the whole spoken log too (what was cut, by what, when).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use baoqi_audio::{
    EspeakSpeaker, Fate, HelpPage, Notice, Output, Pieces, Rate, Speaker, Utterance, Voice,
    phrasebook,
};
use baoqi_clients::keypad::queries;
use baoqi_grammar::Word;
use baoqi_grammar::speech::Lang;
use baoqi_rules::{Color, Kind, Position};
use clap::Args;

use super::CliError;

/// Arguments of `baoqi bench speech`.
#[derive(Debug, Args)]
pub(crate) struct SpeechArgs {
    /// Speech rate, words per minute (espeak-ng's default is 175).
    #[arg(long, default_value_t = Rate::DEFAULT.wpm())]
    rate: u16,
    /// Measure latency through this sound device (cpal id); without it or `--tap`, lengths only.
    #[arg(long)]
    device: Option<String>,
    /// Measure latency through an ALSA file tap in this folder (no sound card needed).
    #[arg(long, conflicts_with = "device")]
    tap: Option<PathBuf>,
    /// Latency rounds.
    #[arg(long, default_value_t = 40)]
    rounds: usize,
}

/// Runs `baoqi bench speech`.
pub(crate) fn run(a: &SpeechArgs) -> Result<(), CliError> {
    let rate = Rate::new(a.rate).map_err(|e| CliError::Usage(e.to_string()))?;
    if let Some(dir) = &a.tap
        && std::env::var_os("BAOQI_BENCH_TAP").is_none()
    {
        return rerun_with_tap(dir);
    }
    lengths(rate)?;
    let device = match (&a.device, &a.tap) {
        (Some(d), _) => d.clone(),
        (None, Some(_)) => "alsa:wavtap".to_owned(),
        (None, None) => return Ok(()),
    };
    latency(&device, rate, a.rounds)
}

/// ALSA reads its configuration once per process: the bench runs itself again with a
/// configuration whose `wavtap` device writes to a file in `dir`.
fn rerun_with_tap(dir: &std::path::Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)?;
    let dir = dir.canonicalize()?;
    let conf = dir.join("asound.conf");
    std::fs::write(
        &conf,
        format!(
            "</usr/share/alsa/alsa.conf>\npcm.wavtap {{\n  type file\n  slave.pcm \"null\"\n  \
             file \"{}\"\n  format \"wav\"\n}}\n",
            dir.join("tap.wav").display()
        ),
    )?;
    let status = std::process::Command::new(std::env::current_exe()?)
        .args(std::env::args_os().skip(1))
        .env("ALSA_CONFIG_PATH", &conf)
        .env("BAOQI_BENCH_TAP", "1")
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(CliError::Failed(format!("bench speech: {status}")))
    }
}

/// The readings whose length matters, by name.
fn readings() -> Vec<(String, Utterance)> {
    let whole = queries::whole(&Position::start(), Color::Red);
    let list: Vec<baoqi_audio::PieceAt> = whole.into_iter().map(Into::into).collect();
    let position = |form| {
        Utterance::Client(Notice::Pieces(Pieces {
            list: list.clone(),
            form,
            along: baoqi_audio::Along::Anywhere,
        }))
    };
    let mut out = vec![
        (
            "whole start position, terse".to_owned(),
            position(baoqi_audio::Form::Terse),
        ),
        (
            "whole start position, full".to_owned(),
            position(baoqi_audio::Form::Full),
        ),
    ];
    let mut page = Some(HelpPage::First);
    while let Some(p) = page {
        out.push((
            format!("help, {p:?} page"),
            Utterance::Client(Notice::Help(p)),
        ));
        page = p.next();
    }
    out.push(("time alert, 10 s left".to_owned(), ten_second_alert()));
    out
}

fn ten_second_alert() -> Utterance {
    use baoqi_audio::{SideTime, TimeReason};
    Utterance::Times {
        reason: TimeReason::Alert,
        first: SideTime {
            side: Color::Red,
            left: Duration::from_secs(10),
        },
        second: SideTime {
            side: Color::Black,
            left: Duration::from_secs(330),
        },
        me: Color::Red,
    }
}

/// Prints each reading's length in both languages.
fn lengths(rate: Rate) -> Result<(), CliError> {
    let espeak = baoqi_audio::Espeak::default();
    espeak.set_rate(rate);
    println!("lengths at {} words per minute (espeak-ng):", rate.wpm());
    for (name, u) in readings() {
        let p = phrasebook::phrase(&u);
        let mut cols = Vec::new();
        for lang in baoqi_audio::LANGS {
            let pcm = espeak
                .render_uncached(p.speak(lang), baoqi_audio::voice(lang))
                .map_err(|e| CliError::Failed(format!("espeak-ng: {e}")))?;
            let secs = pcm.samples.len() as f64 / f64::from(pcm.rate);
            cols.push(format!("{lang:?} {secs:5.1} s"));
        }
        println!("  {name:<34} {}", cols.join("  "));
    }
    Ok(())
}

/// Samples of one kind of latency.
#[derive(Default)]
struct Samples(Vec<Duration>);

impl Samples {
    fn line(&mut self, name: &str) -> String {
        self.0.sort();
        let n = self.0.len();
        if n == 0 {
            return format!("  {name:<44} no samples");
        }
        let at = |q: f64| self.0[((n as f64 * q).ceil() as usize).clamp(1, n) - 1];
        format!(
            "  {name:<44} n={n:<4} median {:>6.1} ms  p99 {:>6.1} ms  max {:>6.1} ms",
            ms(at(0.5)),
            ms(at(0.99)),
            ms(self.0[n - 1])
        )
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// An opponent's move for round `i`, different in every round (so never in the cache).
fn fresh_move(i: usize) -> Utterance {
    let kinds = [Kind::Rook, Kind::Horse, Kind::Cannon, Kind::Pawn];
    let dirs = [Word::Forward, Word::Backward, Word::Across];
    let n = |k: usize| Word::Numeral(u8::try_from(k % 9).unwrap_or(0) + 1);
    Utterance::Move {
        side: Color::Black,
        words: vec![
            Word::Piece(kinds[i % 4]),
            n(i / 4),
            dirs[(i / 36) % 3],
            n(i / 108 + i),
        ],
        captured: None,
        check: false,
    }
}

/// Says readings, echoes and moves through `device` and prints the latencies.
fn latency(device: &str, rate: Rate, rounds: usize) -> Result<(), CliError> {
    let output = Arc::new(
        Output::open(Some(device)).map_err(|e| CliError::Failed(format!("{device}: {e}")))?,
    );
    let espeak = Arc::new(baoqi_audio::Espeak::default());
    espeak.set_rate(rate);
    let (e, o) = (espeak.clone(), output.clone());
    let voice = Voice::spawn(Lang::Yue, move || {
        let s = EspeakSpeaker::new(e, o);
        s.warm_phrasebook();
        Ok(Box::new(s) as Box<dyn Speaker>)
    })
    .map_err(|err| CliError::Failed(err.to_string()))?;
    let position = readings().remove(0).1;
    let echo = Utterance::Word {
        word: Word::Numeral(5),
        side: Color::Red,
    };
    for i in 0..rounds {
        // Each cuts a reading under way, alone (an echo still playing would delay a move by
        // design: an echo outranks news).
        for u in [echo.clone(), fresh_move(i)] {
            voice.say(&position);
            std::thread::sleep(Duration::from_millis(400));
            voice.say_at(&u, Instant::now());
            voice.wait_idle(Duration::from_secs(10));
        }
    }
    if std::env::var_os("BAOQI_BENCH_LOG").is_some() {
        eprintln!("{}", voice.log().to_text());
    }
    report(&voice, device, rate, rounds);
    Ok(())
}

fn report(voice: &Voice, device: &str, rate: Rate, rounds: usize) {
    let (mut echoes, mut moves) = (Samples::default(), Samples::default());
    let echo_text = phrasebook::phrase(&Utterance::Word {
        word: Word::Numeral(5),
        side: Color::Red,
    })
    .display;
    for e in voice.log().entries() {
        let (Fate::Spoken | Fate::Interrupted | Fate::Superseded { .. }, Some(l)) =
            (&e.fate, e.latency)
        else {
            continue;
        };
        if e.display == echo_text {
            echoes.0.push(l);
        } else if e.display.starts_with("黑方") {
            moves.0.push(l);
        }
    }
    println!(
        "latency through {device} at {} wpm, {rounds} rounds (request to first sample):",
        rate.wpm()
    );
    println!("{}", echoes.line("key echo while a reading plays"));
    println!(
        "{}",
        moves.line("opponent's move (not cached) cutting a reading")
    );
}
