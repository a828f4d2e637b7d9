//! `baoqi bench load`: the server under N games of scripted bots over real WebSocket
//! connections; `baoqi bench speech`: the blind player's readings and speech latency.

use std::path::PathBuf;

use baoqi_bench::{BenchOptions, run_blocking};
use baoqi_store::Database;
use clap::{Args, Subcommand};

use super::CliError;

/// Arguments of `baoqi bench`.
#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    action: BenchAction,
}

/// `baoqi bench load`'s options.
#[derive(Debug, Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "five independent command-line switches, each its own flag"
)]
struct LoadArgs {
    /// Games played at once.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seconds of play.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// A running server (`http://127.0.0.1:7878`, or `https://…` for a hall with TLS,
    /// started with a large `--max-per-address`); default: the bench starts `baoqi serve` in
    /// its own process.
    #[arg(long)]
    url: Option<String>,
    /// The hall's own certificate authority (PEM) for an `https://` `--url`; without it, the
    /// system's authorities.
    #[arg(long, requires = "url", value_name = "FILE")]
    ca: Option<PathBuf>,
    /// Start the server in the bench's own process instead (bots and server then share
    /// one scheduler: the figures measure both).
    #[arg(long, conflicts_with = "url")]
    in_process: bool,
    /// The running server's database (with `--url`), or the federation's PostgreSQL
    /// database (with `--nodes`; the bench event is added to it: use a database of its
    /// own).
    #[arg(long)]
    db: Option<Database>,
    /// Start this many nodes of a federation (`baoqi serve --node`, each in a process of
    /// its own) on `--db postgres://…` and `--nats`, instead of one server; table i's
    /// seats connect to node i mod N. Reports each node's figures and the total.
    #[arg(long, requires_all = ["db", "nats"], conflicts_with_all = ["url", "in_process"])]
    nodes: Option<usize>,
    /// The NATS server of the nodes (with `--nodes`).
    #[arg(long, requires = "nodes")]
    nats: Option<String>,
    /// With `--nodes`: kill a node (SIGKILL) every this many seconds and start it again,
    /// while the bots play on (their seats move to another node); reports each table's
    /// longest stand-still and whether any acknowledged command was lost.
    #[arg(long, requires = "nodes", value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(2..))]
    kill_every: Option<u64>,
    /// Commands per second per game [default: 1, the stress rate; 0.2 with `--real-play`].
    #[arg(long)]
    rate: Option<f64>,
    /// Real play: a move about every 30 s at each table (four words, the board move, the
    /// clock press: 0.2 commands a second, unless `--rate` is given), with the 視障賽's own
    /// time alerts instead of the stress's one every 2 s of thinking time.
    #[arg(long)]
    real_play: bool,
    /// An adversary on the last table: its red seat sends 60 KB words at the rate
    /// limit, and 40 spectators sync it from the start in a loop; the other tables are
    /// measured.
    #[arg(long)]
    hostile: bool,
    /// Flooders beside the games: 4 connections sending binary frames (`binary`) or
    /// WebSocket pings (`ping`) as fast as the socket takes them, each reconnecting once the
    /// server closes it; the games are measured as ever.
    #[arg(long, value_enum, conflicts_with = "nodes")]
    flood: Option<FloodArg>,
    /// A broadcast site polling every table's live feed (`live.pgn`) every 2 s with the tag
    /// it holds, while the bots play.
    #[arg(long, conflicts_with = "nodes")]
    poll_live: bool,
    /// The bots' threads: on one (the default), every player's messages are read one after
    /// another, so a burst of alerts to all of them delays what is measured.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    bot_threads: u32,
    /// Find the knee instead of one run: runs of `--seconds` at `--rate`, then at twice the
    /// rate, and so on, each with a fresh server, until the opponent's p99 reaches 10 ms or
    /// the server handles less than 95% of what is offered; reports the highest rate under
    /// 10 ms.
    #[arg(long, conflicts_with_all = ["nodes", "hostile"])]
    knee: bool,
}

#[derive(Debug, Subcommand)]
enum BenchAction {
    /// Bots play N games (words, board reports, clock presses, queries) plus one referee
    /// monitor per 10 tables; prints latency percentiles, events/s, lost and reordered events.
    Load(LoadArgs),
    /// Lengths of the long readings and, through a sound device or a file tap, the latency
    /// of a key's echo and of the opponent's move while a reading plays.
    #[cfg(feature = "clients")]
    Speech(super::bench_speech::SpeechArgs),
    /// `kill -9` rounds against `baoqi serve` on a long log: acknowledged commands lost,
    /// clocks after each restart against their value at the kill, flag falls while paused.
    Crash(super::bench_crash::CrashArgs),
}

/// What `--flood` sends.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum FloodArg {
    /// Binary frames.
    Binary,
    /// WebSocket pings.
    Ping,
}

impl FloodArg {
    fn flood(self) -> baoqi_bench::flood::Flood {
        match self {
            FloodArg::Binary => baoqi_bench::flood::Flood::Binary,
            FloodArg::Ping => baoqi_bench::flood::Flood::Ping,
        }
    }
}

/// Commands a second per game in real play: a move (six commands) about every 30 s.
const REAL_PLAY: f64 = 6.0 / 30.0;

/// Commands a second per game under stress (the default).
const STRESS: f64 = 1.0;

/// Runs `baoqi bench …`.
pub(crate) fn run(args: &BenchArgs) -> Result<(), CliError> {
    match &args.action {
        #[cfg(feature = "clients")]
        BenchAction::Speech(a) => super::bench_speech::run(a),
        BenchAction::Crash(a) => super::bench_crash::run(a),
        BenchAction::Load(a) if a.knee => knee(a),
        BenchAction::Load(a) => {
            let report = run_blocking(&options(a)?).map_err(CliError::Failed)?;
            print!("{report}");
            Ok(())
        }
    }
}

/// The opponent's p99 the knee stays under.
const KNEE_P99_MS: f64 = 10.0;

/// `--knee`: runs at doubling rates until the p99 reaches [`KNEE_P99_MS`] or the server
/// falls behind; one line a run, then the knee.
fn knee(a: &LoadArgs) -> Result<(), CliError> {
    let mut opts = options(a)?;
    let mut best = None;
    println!(
        "{} games, {} s a run, a fresh server each run",
        opts.games, opts.seconds
    );
    loop {
        let r = run_blocking(&opts).map_err(CliError::Failed)?;
        let offered = opts.rate * opts.games as f64;
        let handled = r.commands as f64 / r.seconds.max(1e-9);
        let p99 = r.to_opponent.p99_ms;
        let over = r.to_opponent.p99_capped;
        println!(
            "rate {:.2}/game: offered {offered:.0}/s, handled {handled:.0}/s, command → opponent p99 {}{p99:.1} ms, join {:.1} s",
            opts.rate,
            if over { "≥ " } else { "" },
            r.join_seconds
        );
        if over || p99 >= KNEE_P99_MS || handled < 0.95 * offered {
            break;
        }
        best = Some(handled);
        opts.rate *= 2.0;
    }
    match best {
        Some(h) => println!("knee: {h:.0} commands/s handled with p99 < {KNEE_P99_MS} ms"),
        None => println!("knee: below the first rate"),
    }
    Ok(())
}

/// The bench's options from the command line.
fn options(a: &LoadArgs) -> Result<BenchOptions, CliError> {
    // The running server's is a hall's file; the nodes' the federation's PostgreSQL.
    let (file, federation) = match &a.db {
        Some(Database::Sqlite(path)) => (Some(path.clone()), None),
        Some(Database::Postgres(url)) => (None, Some(url.clone())),
        None => (None, None),
    };
    let nodes = match (a.nodes, federation) {
        (Some(count), Some(db)) => Some(baoqi_bench::Nodes {
            count,
            db,
            nats: a.nats.clone().unwrap_or_default(),
            kill_every: a.kill_every.map(std::time::Duration::from_secs),
        }),
        (Some(_), None) => {
            return Err(CliError::Usage(
                "--nodes needs the federation's database: --db postgres://…".into(),
            ));
        }
        (None, _) => None,
    };
    // The bots reach an https:// hall over wss://, trusting what a keypad would (`--ca`).
    let tls = match &a.url {
        Some(url) if url.starts_with("https://") => Some(
            baoqi_clients::session::tls::trusting(a.ca.as_deref())
                .map_err(|e| CliError::Usage(format!("--ca: {e}")))?,
        ),
        _ => None,
    };
    Ok(BenchOptions {
        tls,
        games: a.games,
        seconds: a.seconds,
        url: a.url.clone(),
        spawn: if a.in_process {
            None
        } else {
            Some(std::env::current_exe().map_err(|e| CliError::Failed(e.to_string()))?)
        },
        db: file,
        // `--rate` given with `--real-play` wins (a knee starts there).
        rate: a
            .rate
            .unwrap_or(if a.real_play { REAL_PLAY } else { STRESS }),
        nodes,
        hostile: a.hostile,
        flood: a.flood.map(FloodArg::flood),
        real_play: a.real_play,
        poll_live: a.poll_live,
        bot_threads: a.bot_threads as usize,
    })
}
