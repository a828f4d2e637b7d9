//! `baoqi keypad`: the blind player's keypad client (`docs/keypad.md`). Keys from the
//! terminal (lines, or raw keys with `--raw`) or a script; speech through espeak-ng, speech-
//! dispatcher or text only; optionally a tactile board attached (`--board`). The logic is in
//! `baoqi_clients::session`; this file reads the arguments and starts the readers.

use std::io::{BufRead, Read};
use std::path::PathBuf;
use std::time::Duration;

use baoqi_clients::board::{SenseMode, parse_line};
use baoqi_clients::braille::display::BrailleDisplay;
use baoqi_clients::braille::{BrailleOptions, Table};
use baoqi_clients::keypad::Key;
use baoqi_clients::session::frontend::{AudioFrontend, FrontendOptions, SpeakerKind};
use baoqi_clients::session::net::{Local, LoopOptions, run, seat_url};
use baoqi_clients::session::{Runner, Session, SessionOptions, Step, parse_script};
use baoqi_grammar::speech::Lang;
use clap::{Args, ValueEnum};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

use super::CliError;

/// The language spoken.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum Voice {
    /// Cantonese.
    Yue,
    /// Mandarin.
    Cmn,
}

/// The speaker.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum SpeakerArg {
    /// espeak-ng played through the sound card (cpal).
    Espeak,
    /// speech-dispatcher.
    Dispatcher,
    /// No sound: print what would be said.
    Text,
}

impl From<SpeakerArg> for SpeakerKind {
    fn from(a: SpeakerArg) -> SpeakerKind {
        match a {
            SpeakerArg::Espeak => SpeakerKind::Espeak,
            SpeakerArg::Dispatcher => SpeakerKind::Dispatcher,
            SpeakerArg::Text => SpeakerKind::Text,
        }
    }
}

/// Which contracted Chinese braille the display shows (liblouis's tables).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum BrailleArg {
    /// Hong Kong Cantonese braille.
    #[value(name = "zh-hk")]
    HongKong,
    /// Taiwanese braille.
    #[value(name = "zh-tw")]
    Taiwan,
    /// Mainland Mandarin braille.
    #[value(name = "zh-chn")]
    Mainland,
}

impl From<BrailleArg> for Table {
    fn from(a: BrailleArg) -> Table {
        match a {
            BrailleArg::HongKong => Table::HongKong,
            BrailleArg::Taiwan => Table::Taiwan,
            BrailleArg::Mainland => Table::Mainland,
        }
    }
}

/// Options shared by `baoqi keypad` and `baoqi board`.
#[derive(Debug, Args)]
pub(crate) struct ClientArgs {
    /// The server, e.g. `http://127.0.0.1:7878`.
    #[arg(long)]
    url: String,
    /// The seat's token (from `baoqi event create` or `serve --demo`).
    #[arg(long)]
    token: String,
    /// The language spoken.
    #[arg(long, value_enum, default_value = "yue")]
    voice: Voice,
    /// Write every utterance (and what became of it) as a line to this file.
    #[arg(long)]
    spoken_log: Option<PathBuf>,
    /// The sound output device (cpal id, e.g. `alsa:wavtap`); default: the default device.
    #[arg(long)]
    device: Option<String>,
    /// Milliseconds the tactile board must be still before a move is reported.
    #[arg(long, default_value_t = baoqi_clients::board::DEFAULT_SETTLE_MS)]
    settle_ms: u64,
    /// Keep running after the game is over.
    #[arg(long)]
    stay: bool,
    /// Record each game as a WAV in this folder (what is spoken, and the microphone with
    /// `--mic`), report the recorder to the referee's monitor, upload the WAV at the end.
    #[arg(long)]
    record: Option<PathBuf>,
    /// With `--record`: record the table's microphone too; a cpal input id
    /// (`alsa:hw:CARD=1`) or, without a value, the default input.
    #[arg(long, num_args = 0..=1, default_missing_value = "default", requires = "record")]
    mic: Option<String>,
    /// Upload recordings here instead of `{url}/api/tables/{table}/recording`.
    #[arg(long, requires = "record")]
    upload_url: Option<String>,
    /// The hall's own certificate authority (PEM), for a server that speaks TLS
    /// (`https://…`); without it, `https://` trusts the system's authorities.
    #[arg(long)]
    ca: Option<PathBuf>,
    /// Speech rate in words per minute, 80–450 (espeak-ng's; speech-dispatcher gets the
    /// same ratio of its normal rate). `0 +` and `0 -` change it by 25 during the game.
    #[arg(long, default_value_t = baoqi_audio::Rate::DEFAULT.wpm(), value_parser = parse_rate)]
    rate: u16,
    /// Board readings: `auto` terse during your own turn and full otherwise, `terse`
    /// (numbers only: 帥五一), or `full` (帥五線一排). `0 *` changes it during the game.
    #[arg(long, value_enum, default_value = "auto")]
    verbosity: VerbosityArg,
}

/// The `--verbosity` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum VerbosityArg {
    /// Terse during your own turn, full otherwise.
    Auto,
    /// Always terse.
    Terse,
    /// Always full.
    Full,
}

impl From<VerbosityArg> for baoqi_audio::Verbosity {
    fn from(v: VerbosityArg) -> baoqi_audio::Verbosity {
        match v {
            VerbosityArg::Auto => baoqi_audio::Verbosity::Auto,
            VerbosityArg::Terse => baoqi_audio::Verbosity::Terse,
            VerbosityArg::Full => baoqi_audio::Verbosity::Full,
        }
    }
}

fn parse_rate(s: &str) -> Result<u16, String> {
    let wpm: u16 = s.parse().map_err(|e| format!("{s}: {e}"))?;
    baoqi_audio::Rate::new(wpm)
        .map(baoqi_audio::Rate::wpm)
        .map_err(|e| e.to_string())
}

impl ClientArgs {
    fn rate(&self) -> baoqi_audio::Rate {
        baoqi_audio::Rate::new(self.rate).unwrap_or_default()
    }
}

/// Arguments of `baoqi keypad`.
#[derive(Debug, Args)]
pub(crate) struct KeypadArgs {
    #[command(flatten)]
    client: ClientArgs,
    /// Who speaks.
    #[arg(long, value_enum, default_value = "espeak")]
    speaker: SpeakerArg,
    /// Keys from a script (keys, board lines, sleep, await; see docs/keypad.md) instead of
    /// the keyboard.
    #[arg(long)]
    script: Option<PathBuf>,
    /// Milliseconds between the keys of one script line.
    #[arg(long, default_value_t = 150)]
    key_gap: u64,
    /// Read single key presses (the terminal in raw mode) instead of lines.
    #[arg(long)]
    raw: bool,
    /// An attached tactile board: `sim:FILE` (a script of board lines), `stdin`, or
    /// `serial:DEV`.
    #[arg(long)]
    board: Option<String>,
    /// The attached board selects by presses (origin, destination) instead of sensing pieces.
    #[arg(long)]
    press_to_select: bool,
    /// Draw the large-font status line at the top of the terminal.
    #[arg(long)]
    status: bool,
    /// The terminal's width for the status line.
    #[arg(long, default_value_t = 80)]
    columns: usize,
    /// Show everything said on a braille display through BRLTTY (`BrlAPI`), in this
    /// contracted Chinese braille; its keys read through the messages and its braille
    /// keyboard types the keypad's keys. With `--speaker text`, nothing is heard.
    #[arg(long, value_enum)]
    braille: Option<BrailleArg>,
    /// BRLTTY's `BrlAPI` address (`:0`, `host:1`); default `BRLAPI_HOST`, else `:0`.
    #[arg(long, requires = "braille")]
    brlapi_host: Option<String>,
    /// `BrlAPI` authorisation: `none` or a key file; default `BRLAPI_AUTH`, else BRLTTY's key.
    #[arg(long, requires = "braille")]
    brlapi_auth: Option<String>,
}

/// Where board lines come from.
pub(crate) enum BoardSource {
    /// A script (`sim:FILE`, or `sim` from standard input).
    Script(Vec<Step>),
    /// Raw board lines on standard input.
    Stdin,
    /// A serial device opened as a file.
    Serial(PathBuf),
}

/// Reads `sim`, `sim:FILE`, `stdin` or `serial:DEV`.
pub(crate) fn board_source(spec: &str) -> Result<BoardSource, CliError> {
    let script = |text: String| {
        parse_script(&text)
            .map(BoardSource::Script)
            .map_err(|e| CliError::Usage(e.to_string()))
    };
    match spec.split_once(':') {
        Some(("sim", file)) => script(std::fs::read_to_string(file)?),
        Some(("serial", dev)) => Ok(BoardSource::Serial(dev.into())),
        None if spec == "sim" => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text)?;
            script(text)
        }
        None if spec == "stdin" => Ok(BoardSource::Stdin),
        _ => Err(CliError::Usage(format!(
            "board input {spec:?}: use sim, sim:FILE, stdin or serial:DEV"
        ))),
    }
}

/// Board lines from a reader, each parsed; bad lines are reported and skipped. At its end
/// the client stops when `end_quits` (the board is the only input).
pub(crate) fn spawn_line_reader(
    reader: Box<dyn BufRead + Send>,
    tx: UnboundedSender<Local>,
    end_quits: bool,
) {
    std::thread::spawn(move || {
        for line in reader.lines() {
            let Ok(line) = line else { break };
            match parse_line(&line) {
                Ok(Some(e)) => {
                    if tx.send(Local::Board(e)).is_err() {
                        return;
                    }
                }
                Ok(None) => {}
                Err(e) => eprintln!("baoqi: board: {e}"),
            }
        }
        if end_quits {
            let _ = tx.send(Local::End);
        }
    });
}

/// Opens a serial device as a file, then sets it to 115200 8N1 raw with `stty` on the open
/// descriptor (opening it only once: a second open could take the board's first lines).
pub(crate) fn open_serial(dev: &PathBuf) -> Result<Box<dyn BufRead + Send>, CliError> {
    let f = std::fs::File::open(dev)?;
    let set = std::process::Command::new("stty")
        .args(["115200", "cs8", "-cstopb", "-parenb", "raw", "-echo"])
        .stdin(f.try_clone()?)
        .stderr(std::process::Stdio::null())
        .status();
    if !set.is_ok_and(|s| s.success()) {
        eprintln!(
            "baoqi: {} left as it is (not a terminal device, or no stty)",
            dev.display()
        );
    }
    Ok(Box::new(std::io::BufReader::new(f)))
}

/// Keys from standard input: in line mode each character is a key and an empty line is
/// `Enter`; in raw mode each byte is a key.
fn spawn_key_reader(raw: bool, tx: UnboundedSender<Local>) {
    std::thread::spawn(move || {
        let send = |k: Key| tx.send(Local::Key(k)).is_ok();
        if raw {
            for b in std::io::BufReader::new(std::io::stdin()).bytes() {
                let Ok(b) = b else { break };
                if b == 3 || b == 4 {
                    break; // Ctrl-C or Ctrl-D: the player quits.
                }
                let key = if b == 0x7f {
                    Some(Key::Backspace)
                } else {
                    Key::from_char(char::from(b))
                };
                if key.is_some_and(|k| !send(k)) {
                    return;
                }
            }
        } else {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                let keys: Vec<Key> = if line.trim().is_empty() {
                    vec![Key::Enter]
                } else {
                    line.chars().filter_map(Key::from_char).collect()
                };
                if !keys.into_iter().all(send) {
                    return;
                }
            }
        }
        let _ = tx.send(Local::End);
    });
}

/// `stty ARGS` on our own terminal: its standard input is ours (`Command::output` would
/// give it none, and `stty` then fails with "Inappropriate ioctl for device").
fn stty(args: &[&str]) -> Option<std::process::Output> {
    std::process::Command::new("stty")
        .args(args)
        .stdin(std::process::Stdio::inherit())
        .output()
        .ok()
        .filter(|o| o.status.success())
}

/// Puts the terminal in raw mode (no line buffering, no echo) and gives back how to undo
/// it; says why when it cannot (then keys are read as lines, ended by `Enter`).
fn raw_terminal() -> Option<String> {
    let Some(saved) = stty(&["-g"]) else {
        eprintln!("baoqi: --raw: standard input is not a terminal; keys are read as lines");
        return None;
    };
    // Ctrl-C comes to us as a byte (`-isig`), so that the terminal is restored on the way out.
    stty(&["-icanon", "-echo", "-isig", "min", "1"])?;
    Some(String::from_utf8_lossy(&saved.stdout).trim().to_owned())
}

/// Runs a client with its frontend until the game ends (or the input does, or a board
/// script is done: `exit_after_scripts`).
pub(crate) fn run_client(
    c: &ClientArgs,
    frontend: FrontendOptions,
    session_board: Option<SenseMode>,
    scripts: Vec<Runner>,
    exit_after_scripts: bool,
    readers: impl FnOnce(UnboundedSender<Local>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let url = seat_url(&c.url).map_err(|e| CliError::Usage(e.to_string()))?;
    let braille = frontend.braille.clone();
    let mut fe = AudioFrontend::open(frontend).map_err(|e| CliError::Failed(e.to_string()))?;
    let mut session = Session::new(
        &c.token,
        SessionOptions {
            board: session_board,
            settle_ms: c.settle_ms,
            rate: c.rate(),
            verbosity: c.verbosity.into(),
            ..SessionOptions::default()
        },
    );
    let (tx, rx) = unbounded_channel();
    if let Some(b) = &braille {
        let display =
            BrailleDisplay::start(b, tx.clone()).map_err(|e| CliError::Failed(e.to_string()))?;
        fe.attach_braille(display);
    }
    readers(tx)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // A seat over wss trusts the hall's authority (--ca), else the system's.
    let tls = if url.starts_with("wss://") || c.ca.is_some() {
        let trust = baoqi_clients::session::tls::trusting(c.ca.as_deref());
        Some(trust.map_err(|e| CliError::Usage(e.to_string()))?)
    } else {
        None
    };
    let opts = LoopOptions {
        tls,
        url,
        exit_at_end: !c.stay,
        exit_after_scripts: (exit_after_scripts && !c.stay).then_some(Duration::from_secs(1)),
    };
    rt.block_on(run(&opts, &mut session, &mut fe, scripts, rx))
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// The frontend options of the shared arguments.
pub(crate) fn frontend_options(c: &ClientArgs, speaker: SpeakerKind) -> FrontendOptions {
    FrontendOptions {
        lang: match c.voice {
            Voice::Yue => Lang::Yue,
            Voice::Cmn => Lang::Cmn,
        },
        speaker,
        device: c.device.clone(),
        spoken_log: c.spoken_log.clone(),
        record_dir: c.record.clone(),
        microphone: c.mic.as_ref().map(|m| (m != "default").then(|| m.clone())),
        server: c.url.clone(),
        upload_url: c.upload_url.clone(),
        ca: c.ca.clone(),
        token: c.token.clone(),
        status_columns: None,
        rate: c.rate(),
        braille: None,
    }
}

/// Runs `baoqi keypad`.
pub(crate) fn run_keypad(a: &KeypadArgs) -> Result<(), CliError> {
    let mut fe = frontend_options(&a.client, a.speaker.into());
    fe.status_columns = a.status.then_some(a.columns);
    fe.braille = a.braille.map(|t| BrailleOptions {
        table: t.into(),
        host: a.brlapi_host.clone(),
        auth: a.brlapi_auth.clone(),
    });
    let mut scripts = Vec::new();
    if let Some(path) = &a.script {
        let steps = parse_script(&std::fs::read_to_string(path)?)
            .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
        scripts.push(Runner::new(steps, a.key_gap));
    }
    let board = a.board.as_deref().map(board_source).transpose()?;
    let mode = if a.press_to_select {
        SenseMode::PressToSelect
    } else {
        SenseMode::Occupancy
    };
    let mut board_reader = None;
    match board {
        Some(BoardSource::Script(steps)) => scripts.push(Runner::new(steps, a.key_gap)),
        Some(BoardSource::Stdin) if a.script.is_none() => {
            return Err(CliError::Usage(
                "the keyboard reads standard input: give the keys by --script, or the board by sim:FILE or serial:DEV".into(),
            ));
        }
        Some(BoardSource::Stdin) => {
            board_reader = Some(
                Box::new(std::io::BufReader::new(std::io::stdin())) as Box<dyn BufRead + Send>
            );
        }
        Some(BoardSource::Serial(dev)) => board_reader = Some(open_serial(&dev)?),
        None => {}
    }
    let keyboard = a.script.is_none();
    let restore = (keyboard && a.raw).then(raw_terminal).flatten();
    let result = run_client(
        &a.client,
        fe,
        a.board.is_some().then_some(mode),
        scripts,
        // A scripted keypad ends a second after its scripts, unless the game ends first.
        a.script.is_some(),
        |tx| {
            if let Some(r) = board_reader {
                spawn_line_reader(r, tx.clone(), false);
            }
            if keyboard {
                spawn_key_reader(a.raw, tx);
            }
            Ok(())
        },
    );
    if let Some(saved) = restore {
        let _ = stty(&[&saved]);
    }
    result
}
