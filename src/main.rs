//! `baoqi`: the command-line entry point. Each subcommand lives in its own module under
//! `cli/`; this file only parses arguments and maps errors to exit codes.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// 報棋 — an accessible Xiangqi play server for blind, deaf and sighted players.
#[derive(Debug, Parser)]
#[command(name = "baoqi", version, about, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// A short tour of the engine: a sample opening, a mate, and move-generation speed.
    Demo(cli::demo::DemoArgs),
    /// Count the leaf nodes of the legal-move tree (checks the move generator, measures speed).
    Perft(cli::perft::PerftArgs),
    /// Replay moves and print the repetition warnings and game-end rulings (第10–11章).
    Adjudicate(cli::adjudicate::AdjudicateArgs),
    /// List the legal moves of a position in ICCS, sorted, on one line.
    Moves(cli::moves::MovesArgs),
    /// Read or write a move in the notations of 附表六 (traditional, AXF, WXF, ICCS, spoken).
    Notation(cli::notation::NotationArgs),
    /// Feed an announcement (報棋) word by word and print the answer after each word.
    Announce(cli::announce::AnnounceArgs),
    /// Replay game records (PGN, XQF, CBF, `DhtmlXQ`, each known by its content) and report the
    /// final position or the first bad move.
    Replay(cli::replay::ReplayArgs),
    /// Run the play server (HTTP + WebSocket); `--demo` creates a demo event and prints its seats.
    Serve(cli::serve::ServeArgs),
    /// The store: bring a database's schema up to date, or copy a hall's events into the
    /// federation's PostgreSQL database.
    Db(cli::db::DbArgs),
    /// Create an event from a TOML file, or revoke a seat's token.
    Event(cli::event::EventArgs),
    /// Add a table (and its seats) to an event.
    Table(cli::event::TableArgs),
    /// Export a scoresheet, a game (PGN, XQF, CBF, `DhtmlXQ`), an event's games as one ZIP, its
    /// results or its JSON event log.
    Export(cli::event::ExportArgs),
    /// A tournament's register: import it from CSV, list it, add, edit or withdraw a player.
    Players(cli::tournament::PlayersArgs),
    /// A tournament's rounds: pair the next one (tables, seats, links), record an absence,
    /// correct a board (108).
    Round(cli::tournament::RoundArgs),
    /// A tournament's standings, as text or CSV.
    Standings(cli::tournament::StandingsArgs),
    /// A tournament's change log: imports, pairings, results, late entrants, edits,
    /// withdrawals (89(2)) and corrections (108).
    Changes(cli::organiser::ChangesArgs),
    /// Load benchmark: bots playing over real WebSocket connections.
    #[cfg(feature = "bench")]
    Bench(cli::bench::BenchArgs),
    /// Run a match from a config (TOML) and a script (JSON lines); print every event as JSON.
    Simulate(cli::simulate::SimulateArgs),
    /// The blind player's keypad client: keys in, speech out (docs/keypad.md).
    #[cfg(feature = "clients")]
    Keypad(cli::keypad::KeypadArgs),
    /// The tactile sensor board's client: board lines in, moves out (docs/board-protocol.md).
    #[cfg(feature = "clients")]
    Board(cli::board::BoardArgs),
    /// The protocol as the web clients are built from it: their constants, and samples.
    Protocol(cli::protocol::ProtocolArgs),
}

/// `baoqi … | head`: once the reader has gone, printing more is pointless, not a fault
/// (it panicked with a backtrace). Rust ignores SIGPIPE, so a write to the
/// closed pipe fails and `print!` panics with that error: the program ends quietly then, as
/// a program killed by SIGPIPE would, and any other panic is reported as before.
fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            std::process::exit(141);
        }
        report(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let args = Args::parse();
    let result = match args.command {
        Command::Demo(a) => cli::demo::run(&a),
        Command::Perft(a) => cli::perft::run(&a),
        Command::Adjudicate(a) => cli::adjudicate::run(&a),
        Command::Moves(a) => cli::moves::run(&a),
        Command::Notation(a) => cli::notation::run(&a),
        Command::Announce(a) => cli::announce::run(&a),
        Command::Replay(a) => cli::replay::run(&a),
        Command::Serve(a) => cli::serve::run(&a),
        Command::Db(a) => cli::db::run(&a),
        Command::Event(a) => cli::event::run_event(&a),
        Command::Table(a) => cli::event::run_table(&a),
        Command::Export(a) => cli::event::run_export(&a),
        Command::Players(a) => cli::tournament::run_players(&a),
        Command::Round(a) => cli::tournament::run_round(&a),
        Command::Standings(a) => cli::tournament::run_standings(&a),
        Command::Changes(a) => cli::organiser::run_changes(&a),
        #[cfg(feature = "bench")]
        Command::Bench(a) => cli::bench::run(&a),
        Command::Simulate(a) => cli::simulate::run(&a),
        #[cfg(feature = "clients")]
        Command::Keypad(a) => cli::keypad::run_keypad(&a),
        #[cfg(feature = "clients")]
        Command::Board(a) => cli::board::run(&a),
        Command::Protocol(a) => cli::protocol::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("baoqi: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
