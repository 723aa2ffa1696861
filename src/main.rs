//! `brett`: Mühle and Dame — rules, engine and app.

use anyhow::Result;
use clap::{Parser, Subcommand};

mod cli;
mod terminal;

/// Mühle (Nine Men's Morris) and Dame: exact rules, perft, a terminal game, and the app
/// (`brett` alone starts the app on http://127.0.0.1:8080).
#[derive(Parser, Debug)]
#[command(name = "brett", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The folder of Mühle's perfect-play databases used in play and
    /// analysis (default: $XDG_DATA_HOME/brett/tablebase; build them with
    /// `brett tablebase build`).
    #[arg(long, global = true, value_name = "DIR")]
    tablebase_dir: Option<std::path::PathBuf>,
    /// Play and analyse without the databases.
    #[arg(long, global = true)]
    no_tablebase: bool,
    /// Memory in MiB for the databases' win/draw/loss cache, which the
    /// placing-phase solver of level 10 reads; the sectors that end the
    /// placing phase are loaded into it in the background when a game is
    /// played (engine, match, play, the app). 0: no cache.
    #[arg(long, global = true, value_name = "MIB", default_value_t = tablebase::DEFAULT_WDL_CACHE >> 20)]
    tablebase_cache: usize,
    /// Memory in MiB for the Dame endgame databases' decompressed blocks,
    /// kept once read (the search probes the same blocks again and again).
    /// 0: only the last few blocks of each table.
    #[arg(long, global = true, value_name = "MIB", default_value_t = tablebase::dame::DEFAULT_DAME_CACHE >> 20)]
    dame_tablebase_cache: usize,
    /// Level 10 plays without the opening books (Mühle's placing phase,
    /// Dame's first moves).
    #[arg(long, global = true)]
    no_book: bool,
    /// Play from this opening book file (made by `brett tablebase book`,
    /// for Mühle or with --game for Dame) instead of the one built into
    /// brett for that game.
    #[arg(long, global = true, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Mühle's evaluation adds the correction of this network (made by
    /// `brett tune --labels FILE --network OUT`) instead of the one built
    /// into brett.
    #[arg(long, global = true, value_name = "FILE")]
    mill_network: Option<std::path::PathBuf>,
    /// Mühle's evaluation without the network's correction (the linear
    /// terms and the patterns alone).
    #[arg(long, global = true, conflicts_with = "mill_network")]
    no_mill_network: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the move sequences of each length up to DEPTH (perft).
    ///
    /// Prints one line per depth: `depth N nodes X time T` (T in seconds).
    Perft(cli::perft::Args),
    /// Draw a position in the terminal.
    Show(cli::show::Args),
    /// Play a game in the terminal: two people at one keyboard, or against the computer.
    Play(cli::play::Args),
    /// The best moves of a position, with scores, lines and reasons.
    Analyze(cli::analyze::Args),
    /// Speak the engine protocol (UCI style) on stdin/stdout.
    Engine(cli::engine::Args),
    /// Speak the Hub protocol (international draughts GUIs) on stdin/stdout.
    Hub(cli::hub::Args),
    /// Play international draughts with other programs over DXP (DamExchange).
    ///
    /// DXP is the TCP protocol of draughts engine matches and tournament
    /// managers: --listen ADDR waits for an initiator and plays the games it
    /// proposes, --connect ADDR proposes them.
    Dxp(cli::dxp::Args),
    /// Search fixed positions to a fixed depth: node signature and speed.
    Bench(cli::bench::Args),
    /// Play games between two levels or two engine programs; prints the Elo difference.
    Match(cli::matches::Args),
    /// Tune the evaluation weights by self-play at a fixed depth.
    Tune(cli::tune::Args),
    /// Puzzles from the databases ("find the best move").
    Puzzles(cli::puzzles::Args),
    /// Mühle's perfect-play databases and (--game) the Dame endgame databases: build, probe, stats, verify.
    Tablebase(cli::tablebase::Args),
    /// Start the app: the browser UI and the JSON API on http://127.0.0.1:8080
    /// (the default when no command is given).
    Serve(Box<cli::serve::Args>),
    /// The app's database: migrate, export all games, import them (e.g.
    /// from SQLite to PostgreSQL).
    Db(cli::db::Args),
    /// The operator's work on the app's database: reported chat messages,
    /// closing and reopening accounts.
    Admin(cli::admin::Args),
}

/// The commands that print their answer and end: when the reader of their
/// output stops early (`brett tablebase probe … | head -1`), they end quietly
/// as Unix tools do, instead of panicking in `println!`. (Not the commands
/// that talk over pipes or sockets and must see a closed one as an error:
/// the engine protocols, `match`, the server and the database commands.)
#[cfg(unix)]
fn end_quietly_when_the_reader_stops() {
    // SAFETY: restores the default action of SIGPIPE (end the process);
    // called once at the start of `main`, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn end_quietly_when_the_reader_stops() {}

fn main() -> Result<()> {
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Some(
            Command::Perft(_)
                | Command::Show(_)
                | Command::Analyze(_)
                | Command::Bench(_)
                | Command::Tune(_)
                | Command::Puzzles(_)
                | Command::Tablebase(_)
        )
    ) {
        end_quietly_when_the_reader_stops();
    }
    engine::book::set_enabled(!cli.no_book);
    if let Some(path) = &cli.book {
        let bytes =
            std::fs::read(path).map_err(|e| anyhow::anyhow!("--book {}: {e}", path.display()))?;
        let name = path.display().to_string();
        if engine::dame::book::is_dame_book(&bytes) {
            engine::dame::book::install(Some(engine::dame::book::Book::from_bytes(&bytes, &name)?));
        } else {
            engine::muehle::book::install(Some(engine::muehle::book::Book::from_bytes(
                &bytes, &name,
            )?));
        }
    }
    muehle::network::set_enabled(!cli.no_mill_network);
    if let Some(path) = &cli.mill_network {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("--mill-network {}: {e}", path.display()))?;
        let net = muehle::network::Network::from_bytes(&bytes)
            .map_err(|e| anyhow::anyhow!("--mill-network {}: {e}", path.display()))?;
        muehle::network::install(Some(net));
    }
    if !cli.no_tablebase {
        let dir = cli
            .tablebase_dir
            .clone()
            .unwrap_or_else(tablebase::default_dir);
        engine::muehle::databases::install(Some(&dir));
        tablebase::set_wdl_cache_limit(cli.tablebase_cache << 20);
        tablebase::dame::set_dame_cache_limit(cli.dame_tablebase_cache << 20);
        if cli.tablebase_cache > 0
            && matches!(
                cli.command,
                None | Some(
                    Command::Play(_) | Command::Engine(_) | Command::Match(_) | Command::Serve(_)
                )
            )
        {
            engine::muehle::databases::warm_in_background();
        }
    }
    match cli.command {
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Show(args)) => cli::show::run(args),
        Some(Command::Play(args)) => cli::play::run(args),
        Some(Command::Analyze(args)) => cli::analyze::run(args),
        Some(Command::Engine(args)) => cli::engine::run(args),
        Some(Command::Hub(args)) => cli::hub::run(args),
        Some(Command::Dxp(args)) => cli::dxp::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Match(args)) => cli::matches::run(args),
        Some(Command::Tune(args)) => cli::tune::run(args),
        Some(Command::Puzzles(args)) => cli::puzzles::run(args),
        Some(Command::Tablebase(args)) => cli::tablebase::run(args, cli.tablebase_dir.clone()),
        Some(Command::Serve(args)) => cli::serve::run(*args),
        Some(Command::Db(args)) => cli::db::run(args),
        Some(Command::Admin(args)) => cli::admin::run(args),
        None => cli::serve::run(cli::serve::Args::default()),
    }
}
