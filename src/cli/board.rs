//! `baoqi board`: the tactile sensor board's client (`docs/board-protocol.md`). Reads the
//! board's line protocol from a serial device, standard input, or a scripted simulator, turns
//! it into moves (`baoqi_clients::board::BoardSensor`) and reports them for the seat:
//! `board_move`, `press_clock` (clock button), `signal` (announce button). Says what it does
//! as text unless told otherwise (the player's voice is usually the keypad's).

use baoqi_clients::board::SenseMode;
use baoqi_clients::session::Runner;
use clap::Args;

use super::CliError;
use super::keypad::{
    BoardSource, ClientArgs, SpeakerArg, board_source, frontend_options, open_serial, run_client,
    spawn_line_reader,
};

/// Arguments of `baoqi board`.
#[derive(Debug, Args)]
pub(crate) struct BoardArgs {
    #[command(flatten)]
    client: ClientArgs,
    /// Where the board's lines come from: `serial:DEV`, `stdin`, `sim` (a script on standard
    /// input) or `sim:FILE`.
    #[arg(long)]
    input: String,
    /// The board selects by presses (origin, destination) instead of sensing pieces.
    #[arg(long)]
    press_to_select: bool,
    /// Who speaks (default: text only).
    #[arg(long, value_enum, default_value = "text")]
    speaker: SpeakerArg,
    /// Milliseconds between the steps of a simulator script's lines.
    #[arg(long, default_value_t = 150)]
    step_gap: u64,
}

/// Runs `baoqi board`.
pub(crate) fn run(a: &BoardArgs) -> Result<(), CliError> {
    let fe = frontend_options(&a.client, a.speaker.into());
    let mode = if a.press_to_select {
        SenseMode::PressToSelect
    } else {
        SenseMode::Occupancy
    };
    let source = board_source(&a.input)?;
    let (scripts, reader) = match source {
        BoardSource::Script(steps) => (vec![Runner::new(steps, a.step_gap)], None),
        BoardSource::Stdin => (
            Vec::new(),
            Some(Box::new(std::io::BufReader::new(std::io::stdin()))
                as Box<dyn std::io::BufRead + Send>),
        ),
        BoardSource::Serial(dev) => (Vec::new(), Some(open_serial(&dev)?)),
    };
    // A simulated board's script ends the client (a second after its last line).
    let simulated = !scripts.is_empty();
    run_client(&a.client, fe, Some(mode), scripts, simulated, |tx| {
        if let Some(r) = reader {
            spawn_line_reader(r, tx, true);
        }
        Ok(())
    })
}
