//! `baoqi bench load`: the server under N games of scripted bots over real WebSocket
//! connections; `baoqi bench speech`: the blind player's readings and speech latency.

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

#[derive(Debug, Subcommand)]
enum BenchAction {
    /// Bots play N games (words, board reports, clock presses, queries) plus one referee
    /// monitor per 10 tables; prints latency percentiles, events/s, lost and reordered events.
    Load {
        /// Games played at once.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Seconds of play.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// A running server (`http://127.0.0.1:7878`, started with a large
        /// `--max-per-address`); default: the bench starts `baoqi serve` in its own process.
        #[arg(long)]
        url: Option<String>,
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
        /// Commands per second per game (the stress rate; see `--real-play`).
        #[arg(long, default_value_t = 1.0, conflicts_with = "real_play")]
        rate: f64,
        /// The rate of real play instead of `--rate`: a move about every 30 s at each
        /// table (four words, the board move, the clock press: 0.2 commands a second).
        #[arg(long)]
        real_play: bool,
        /// An adversary on the last table: its red seat sends 60 KB words at the rate
        /// limit, and 40 spectators sync it from the start in a loop; the other tables are
        /// measured (issue 34).
        #[arg(long)]
        hostile: bool,
    },
    /// Lengths of the long readings and, through a sound device or a file tap, the latency
    /// of a key's echo and of the opponent's move while a reading plays.
    Speech(super::bench_speech::SpeechArgs),
    /// `kill -9` rounds against `baoqi serve` on a long log: acknowledged commands lost,
    /// clocks after each restart against their value at the kill, flag falls while paused.
    Crash(super::bench_crash::CrashArgs),
}

/// Commands a second per game in real play: a move (six commands) about every 30 s.
const REAL_PLAY: f64 = 6.0 / 30.0;

/// Runs `baoqi bench …`.
pub(crate) fn run(args: &BenchArgs) -> Result<(), CliError> {
    let (games, seconds, url, db, rate, real_play, in_process, nodes, nats, hostile) = match &args.action {
        BenchAction::Speech(a) => return super::bench_speech::run(a),
        BenchAction::Crash(a) => return super::bench_crash::run(a),
        BenchAction::Load {
            games,
            seconds,
            url,
            db,
            rate,
            real_play,
            in_process,
            nodes,
            nats,
            hostile,
        } => (
            games, seconds, url, db, rate, real_play, in_process, nodes, nats, hostile,
        ),
    };
    // The running server's is a hall's file; the nodes' the federation's PostgreSQL.
    let (file, federation) = match db {
        Some(Database::Sqlite(path)) => (Some(path.clone()), None),
        Some(Database::Postgres(url)) => (None, Some(url.clone())),
        None => (None, None),
    };
    let nodes = match (nodes, federation) {
        (Some(count), Some(db)) => Some(baoqi_bench::Nodes {
            count: *count,
            db,
            nats: nats.clone().unwrap_or_default(),
        }),
        (Some(_), None) => {
            return Err(CliError::Usage(
                "--nodes needs the federation's database: --db postgres://…".into(),
            ));
        }
        (None, _) => None,
    };
    let opts = BenchOptions {
        games: *games,
        seconds: *seconds,
        url: url.clone(),
        spawn: if *in_process {
            None
        } else {
            Some(std::env::current_exe().map_err(|e| CliError::Failed(e.to_string()))?)
        },
        db: file,
        rate: if *real_play { REAL_PLAY } else { *rate },
        nodes,
        hostile: *hostile,
    };
    let report = run_blocking(&opts).map_err(CliError::Failed)?;
    print!("{report}");
    Ok(())
}
