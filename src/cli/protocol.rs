//! `baoqi protocol`: what the pages are built from. `js` prints the constants module of the
//! web clients (`server/assets/app/protocol.js`) and `phrases` the shared phrasebook's
//! (`server/assets/app/phrases.js`), each checked for staleness by a test; `samples` prints
//! one sample of every message, event, refusal and call, for the pages' own tests, and
//! `heard` what the keypad says for each sample event, for the test that holds the pages to
//! the same words.

use clap::{Args, Subcommand};

use super::CliError;

/// Arguments of `baoqi protocol`.
#[derive(Debug, Args)]
pub(crate) struct ProtocolArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, Subcommand)]
enum What {
    /// The web clients' constants module (write it to server/assets/app/protocol.js).
    Js,
    /// The pages' copy of the shared phrasebook (write it to server/assets/app/phrases.js).
    Phrases,
    /// One sample of every message, event, refusal and call, as JSON.
    Samples,
    /// What the keypad says, seat by seat, for each sample event (`samples`' `events`, in
    /// order), as JSON: each message's text and the phrasebook entry it was made from.
    #[cfg(feature = "clients")]
    Heard,
}

/// Runs `baoqi protocol …`.
pub(crate) fn run(args: &ProtocolArgs) -> Result<(), CliError> {
    match args.what {
        What::Js => print!("{}", baoqi_protocol::js::constants()),
        What::Phrases => print!("{}", baoqi_phrases::js()),
        What::Samples => print_json(&baoqi_protocol::samples::all_json())?,
        #[cfg(feature = "clients")]
        What::Heard => print_json(&super::heard::heard())?,
    }
    Ok(())
}

fn print_json(v: &serde_json::Value) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(v).map_err(|e| CliError::Failed(e.to_string()))?;
    println!("{text}");
    Ok(())
}
