//! `baoqi protocol`: what the pages are built from. `js` prints the constants module of the
//! web clients (`server/assets/app/protocol.js`, checked for staleness by a test); `samples`
//! prints one sample of every message, event, refusal and call, for the pages' own tests.

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
    /// One sample of every message, event, refusal and call, as JSON.
    Samples,
}

/// Runs `baoqi protocol …`.
pub(crate) fn run(args: &ProtocolArgs) -> Result<(), CliError> {
    match args.what {
        What::Js => print!("{}", baoqi_protocol::js::constants()),
        What::Samples => {
            let all = baoqi_protocol::samples::all_json();
            let text =
                serde_json::to_string_pretty(&all).map_err(|e| CliError::Failed(e.to_string()))?;
            println!("{text}");
        }
    }
    Ok(())
}
