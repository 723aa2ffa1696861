//! `brett tablebase`: build, probe, count and check the Mühle databases
//! and (with `--game`) the Dame endgame databases.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use muehle::{Color, RuleSet};
use tablebase::{
    BuildOptions, GroupReport, Progress, Sector, SectorIndex, Tablebase, Value,
    Variant as DbVariant, position_of,
};

use super::{RULES_HELP, Variant, parse_rules};

/// `brett tablebase …`
pub type Args = super::Subcommands<Command>;

/// Options every subcommand shares.
#[derive(clap::Args, Debug, Clone)]
pub struct Common {
    /// The game: `muehle` (default), or a Dame rule set (`dame`, `dame-fr`,
    /// `dame-100`, `international`, or a preset with options such as
    /// `international,board=8`) for the Dame endgame databases.
    #[arg(long, default_value = "muehle")]
    game: String,
    #[arg(long, default_value = "standard", help = RULES_HELP)]
    rules: String,
    /// The database folder (default: the global --tablebase-dir, else
    /// $XDG_DATA_HOME/brett/tablebase).
    #[arg(long)]
    dir: Option<PathBuf>,
}

impl Common {
    fn rules(&self) -> Result<RuleSet> {
        parse_rules(&self.rules)
    }
    fn dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(tablebase::default_dir)
    }
    fn variant(&self) -> Result<DbVariant> {
        Ok(DbVariant::of(&self.rules()?))
    }
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Solve sectors of the moving phase (and the sectors they need first).
    ///
    /// Finished sectors are kept, so an interrupted build resumes.
    Build {
        #[command(flatten)]
        common: Common,
        /// Build every sector with up to this many stones a side (3 to 9).
        #[arg(long, default_value_t = 9)]
        up_to: u8,
        /// Build these sectors (e.g. 3-3,4-3) instead of --up-to.
        #[arg(long)]
        sectors: Option<String>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bars (one line per sector group).
        #[arg(long)]
        quiet: bool,
        /// Dame: build every table with up to this many pieces (default 5
        /// on 8×8, 4 on 10×10).
        #[arg(long)]
        pieces: Option<u8>,
        /// Dame: build these tables (e.g. KKK-K,KM-K) and the tables they
        /// need, instead of --pieces.
        #[arg(long)]
        tables: Option<String>,
        /// Dame: build nothing; list the tables the build needs, their
        /// indices, and the memory the builder would hold at its peak.
        #[arg(long)]
        plan: bool,
        /// Dame: refuse to start a build that would hold more than this
        /// many GiB at its peak (default: the memory available when it
        /// starts, where the system tells it).
        #[arg(long, value_name = "GIB")]
        memory: Option<f64>,
    },
    /// The value of a position (moving phase) and of each of its moves.
    ///
    /// First line exactly `win N`, `draw` or `loss N` for the side to move
    /// (N plies to the end), then one line per legal move with its value.
    Probe {
        #[command(flatten)]
        common: Common,
        /// The position string.
        position: String,
    },
    /// Positions, wins, draws, losses and the longest win of a sector
    /// (Dame: of a table, e.g. KKK-K).
    Stats {
        #[command(flatten)]
        common: Common,
        /// The sector W-B (White's and Black's stones); Dame: the table
        /// (the side to move's kings and men, a dash, the opponent's).
        sector: String,
    },
    /// Check built sectors: every value follows from the values of its moves.
    Verify {
        #[command(flatten)]
        common: Common,
        /// The sector W-B (default: every built sector).
        sector: Option<String>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Compute or extend an opening book. Mühle (standard rules): the
    /// search's move for early placing positions, proven by the placing
    /// solver not to lose where the proof fits --budget; needs the
    /// databases. Dame (--game dame|dame-fr|dame-100|international): the
    /// best --candidates moves of a search to --depth, followed to the next
    /// ply where within --margin of the best; one file holds all four
    /// games. Resumes: positions the book at --out already holds are kept.
    Book {
        #[command(flatten)]
        common: Common,
        /// The book file (read if it exists, written every minute and at the end).
        #[arg(long)]
        out: PathBuf,
        /// Every position up to this many plies from the start is covered.
        #[arg(long, default_value_t = 3)]
        roots_ply: u32,
        /// Further positions (after the book's move and any reply) up to this ply.
        #[arg(long, default_value_t = 6)]
        max_ply: u32,
        /// Depth of the search that proposes the moves (default: Mühle 8,
        /// Dame 16).
        #[arg(long)]
        depth: Option<u32>,
        /// Moves the search proposes; Mühle takes the first proven not to
        /// lose, Dame holds them all (at most 3).
        #[arg(long, default_value_t = 3)]
        candidates: usize,
        /// Dame: held moves within this many hundredths of a man of the
        /// best are followed to the next ply.
        #[arg(long, default_value_t = 15)]
        margin: i32,
        /// Dame: first add the positions of these book files (books built
        /// apart) that --out does not hold.
        #[arg(long, value_name = "FILE")]
        merge: Vec<PathBuf>,
        /// Solver nodes for one proof.
        #[arg(long, default_value_t = 100_000_000)]
        budget: u64,
        /// Positions the solver's table holds (about 40 bytes each).
        #[arg(long, default_value_t = 20_000_000)]
        table: usize,
        /// Stop after this many minutes (the book is saved).
        #[arg(long)]
        minutes: Option<u64>,
        /// Positions worked on at the same time.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Earlier plies get the search's move without a proof.
        #[arg(long, default_value_t = 4)]
        prove_from_ply: u32,
        /// Mühle: then also every placing position past --max-ply of the
        /// game records in these files (a match file, or records one after
        /// another), both sides': the move played there where the solver
        /// proves it not to lose, else as above (the book along the lines
        /// that were played).
        #[arg(long = "games", value_name = "FILE")]
        games: Vec<PathBuf>,
        /// Mühle: of those records, only the positions where the side to
        /// move is the player whose `White`/`Black` tag contains this text
        /// (e.g. `brett`: the lines a player met, not its opponent's).
        #[arg(long = "games-player", value_name = "NAME", requires = "games")]
        games_player: Option<String>,
    },
    /// Re-encode files written by an earlier brett in the current, smaller
    /// encoding (the values are read back and compared before a file is
    /// replaced; files already current are left alone).
    Repack {
        #[command(flatten)]
        common: Common,
        /// The sector W-B (default: every built sector).
        sector: Option<String>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
}

/// Run `brett tablebase`; `global_dir` is the global `--tablebase-dir`
/// (used when the subcommand has no `--dir`).
pub fn run(mut args: Args, global_dir: Option<PathBuf>) -> Result<()> {
    let (common, threads) = match &mut args.command {
        Command::Build {
            common, threads, ..
        }
        | Command::Verify {
            common, threads, ..
        }
        | Command::Repack {
            common, threads, ..
        } => (common, *threads),
        Command::Probe { common, .. }
        | Command::Stats { common, .. }
        | Command::Book { common, .. } => (common, None),
    };
    if common.dir.is_none() {
        common.dir = global_dir;
    }
    let dame = dame_game(&common.game)?;
    // The worker threads of build, verify and repack, for either game.
    pool(threads)?;
    if let Some(rules) = dame {
        return dame_cli::run(args.command, rules);
    }
    match args.command {
        Command::Build {
            common,
            up_to,
            sectors,
            quiet,
            pieces,
            tables,
            plan,
            memory,
            ..
        } => {
            if pieces.is_some() || tables.is_some() || plan || memory.is_some() {
                bail!(
                    "--pieces, --tables, --plan and --memory are for the Dame databases (--game dame, …)"
                );
            }
            let targets = match sectors {
                Some(s) => tablebase::parse_sectors(&s)?,
                None => {
                    if !(3..=9).contains(&up_to) {
                        bail!("--up-to takes 3 to 9 stones");
                    }
                    Sector::all_up_to(up_to)
                }
            };
            if targets.is_empty() {
                bail!("--sectors names no sector");
            }
            build(&common, &targets, quiet)
        }
        Command::Probe { common, position } => probe(&common, &position),
        Command::Stats { common, sector } => stats(&common, sector.parse()?),
        Command::Verify { common, sector, .. } => verify(&common, sector.as_deref()),
        Command::Repack { common, sector, .. } => repack(&common, sector.as_deref()),
        Command::Book {
            common,
            out,
            roots_ply,
            max_ply,
            depth,
            candidates,
            budget,
            table,
            minutes,
            threads,
            prove_from_ply,
            merge,
            games,
            games_player,
            ..
        } => {
            if !merge.is_empty() {
                bail!("--merge is for the Dame book (--game dame|dame-fr|dame-100|international)");
            }
            let options = engine::muehle::book::BuildOptions {
                roots_ply,
                max_ply,
                depth: depth.unwrap_or(8),
                candidates,
                budget,
                threads,
                prove_from_ply,
            };
            let played = Played {
                files: &games,
                player: games_player.as_deref(),
            };
            book(&common, &out, &options, table, minutes, &played)
        }
    }
}

/// `brett tablebase book`.
fn book(
    common: &Common,
    out: &std::path::Path,
    options: &engine::muehle::book::BuildOptions,
    table: usize,
    minutes: Option<u64>,
    games: &Played,
) -> Result<()> {
    let rules = common.rules()?;
    let played = played_positions(games, &rules, options.max_ply)?;
    if DbVariant::of(&rules) != DbVariant::STANDARD {
        bail!("the opening book is for the standard removal and flying rules");
    }
    let dir = common.dir();
    engine::muehle::databases::install(Some(&dir));
    let tb = Tablebase::new(&dir, DbVariant::STANDARD);
    let mut book = if out.exists() {
        engine::muehle::book::Book::read(out)?
    } else {
        engine::muehle::book::Book::new()
    };
    let at_start = book.len();
    eprintln!(
        "book {}: {at_start} positions; reading the sectors where placing ends into memory…",
        out.display()
    );
    let stop = std::sync::atomic::AtomicBool::new(false);
    let t = Instant::now();
    tb.warm_wdl(engine::muehle::databases::WARM_STONES, &stop);
    eprintln!(
        "  {} MB in {:.0} s",
        tablebase::wdl_cache_bytes() >> 20,
        t.elapsed().as_secs_f64()
    );
    let table = engine::muehle::placing::PlacingTable::new(table);
    let mut progress = BookProgress::new(minutes);
    let (mut proven, mut result) = (0u64, Ok(()));
    let stopped = std::cell::Cell::new(false);
    let mut report = |b: &engine::muehle::book::Book, step: engine::muehle::book::Step| {
        proven += u64::from(step.proven);
        let going = progress.step(
            (step.ply, step.done, step.total, step.nodes),
            &format!(" ({proven} proven)"),
            "solver ",
            || b.write(out),
            &mut result,
        );
        stopped.set(stopped.get() || !going);
        going
    };
    let start = muehle::Position::new(rules);
    engine::muehle::book::extend(&mut book, &tb, &table, &start, options, &mut report);
    if !stopped.get() && !played.is_empty() {
        eprintln!(
            "  {} placing positions past ply {} in {} game files",
            played.len(),
            options.max_ply,
            games.files.len()
        );
        engine::muehle::book::add_played(&mut book, &tb, &table, &played, options, &mut report);
    }
    result?;
    book.write(out)?;
    let proven_all = book
        .entries()
        .filter(|(_, e)| e.flags & engine::muehle::book::PROVEN != 0)
        .count();
    println!(
        "book {}: {} positions ({} proven not to lose), {} new in {:.0} s",
        out.display(),
        book.len(),
        proven_all,
        book.len() - at_start,
        progress.start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The game records a Mühle book takes positions from (`--games`), and
/// whose moves (`--games-player`: only the named player's).
struct Played<'a> {
    files: &'a [PathBuf],
    player: Option<&'a str>,
}

/// The placing positions past `after_ply` (stones placed) of the game
/// records in `games.files`, each with the move played there (records one
/// after another, each starting with its `[Event` tag; a match file's
/// options line is skipped), played under `rules`; with `games.player`,
/// only where that player is to move.
fn played_positions(
    games: &Played,
    rules: &muehle::RuleSet,
    after_ply: u32,
) -> Result<Vec<(muehle::Position, muehle::Move)>> {
    let mut out = Vec::new();
    for file in games.files {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let mut blocks: Vec<&str> = Vec::new();
        let mut at = None;
        for (offset, line) in text.split_inclusive('\n').scan(0, |o, l| {
            let start = *o;
            *o += l.len();
            Some((start, l))
        }) {
            if line.starts_with("[Event ") {
                if let Some(from) = at {
                    blocks.push(&text[from..offset]);
                }
                at = Some(offset);
            }
        }
        if let Some(from) = at {
            blocks.push(&text[from..]);
        }
        for (i, block) in blocks.iter().enumerate() {
            let game = muehle::Game::from_record(block)
                .with_context(|| format!("{}: record {}", file.display(), i + 1))?;
            // The colours whose moves are taken.
            let takes = |c: muehle::Color| match games.player {
                None => true,
                Some(name) => {
                    let key = if c == muehle::Color::White {
                        "White"
                    } else {
                        "Black"
                    };
                    game.tag(key).is_some_and(|p| p.contains(name))
                }
            };
            if game.start().rules() != rules {
                bail!(
                    "{}: record {} is not played under the book's rules",
                    file.display(),
                    i + 1
                );
            }
            let mut pos = *game.start();
            for &m in game.moves() {
                let placed = 18
                    - u32::from(pos.in_hand(muehle::Color::White))
                    - u32::from(pos.in_hand(muehle::Color::Black));
                if pos.in_hand(muehle::Color::White) + pos.in_hand(muehle::Color::Black) == 0 {
                    break;
                }
                if placed > after_ply && takes(pos.turn()) {
                    out.push((pos, m));
                }
                pos.play_unchecked(m);
            }
        }
    }
    Ok(out)
}

/// The Dame rule set `--game` names (`None`: Mühle).
pub(super) fn dame_game(game: &str) -> Result<Option<dame::RuleSet>> {
    if Variant::from_name(game) == Some(Variant::Muehle) {
        return Ok(None);
    }
    let rules: dame::RuleSet = game.trim().to_ascii_lowercase().parse().with_context(|| {
        format!(
            "--game '{game}': muehle, or a Dame rule set (dame, dame-fr, dame-100, international)"
        )
    })?;
    Ok(Some(rules))
}

#[path = "tablebase_dame.rs"]
mod dame_cli;

fn pool(threads: Option<usize>) -> Result<()> {
    if let Some(n) = threads {
        if n == 0 {
            bail!("--threads takes at least 1");
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .context("setting up the worker threads")?;
    }
    Ok(())
}

struct Bars {
    multi: MultiProgress,
    total: ProgressBar,
    group: Mutex<Option<ProgressBar>>,
    quiet: bool,
    started: Instant,
}

impl Bars {
    fn new(quiet: bool) -> Bars {
        let multi = MultiProgress::new();
        if quiet {
            multi.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        let total = multi.add(ProgressBar::new(0));
        total.set_style(
            ProgressStyle::with_template(
                "all      [{elapsed_precise}] {wide_bar} {percent:>3}% ETA {eta_precise}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Bars {
            multi,
            total,
            group: Mutex::new(None),
            quiet,
            started: Instant::now(),
        }
    }
}

impl Progress for Bars {
    fn start(&self, work: u64) {
        self.total.set_length(work);
        self.total.reset_eta();
    }
    fn kept(&self, sector: Sector) {
        let _ = self
            .multi
            .println(format!("sector {sector}: built already, kept"));
    }
    fn group_started(&self, sectors: &[Sector], work: u64) {
        let names: Vec<String> = sectors.iter().map(Sector::to_string).collect();
        let bar = self
            .multi
            .insert_before(&self.total, ProgressBar::new(work));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:8} [{elapsed_precise}] {wide_bar} {percent:>3}% ETA {eta_precise}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_prefix(names.join(" "));
        *self.group.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar);
    }
    fn advance(&self, units: u64) {
        if let Some(b) = self
            .group
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            b.inc(units);
        }
        self.total.inc(units);
    }
    fn group_done(&self, r: &GroupReport) {
        if let Some(b) = self.group.lock().unwrap_or_else(|e| e.into_inner()).take() {
            b.finish_and_clear();
        }
        let names: Vec<String> = r.sectors.iter().map(Sector::to_string).collect();
        let line = format!(
            "sectors {}: {} positions (symmetry classes) in {:.1} s = {:.0} positions/s, {} levels, {:.1} MB (elapsed {:.0} s)",
            names.join(" "),
            r.classes,
            r.seconds,
            r.classes as f64 / r.seconds.max(1e-9),
            r.levels,
            r.bytes as f64 / 1e6,
            self.started.elapsed().as_secs_f64()
        );
        if self.quiet {
            println!("{line}");
        } else {
            let _ = self.multi.println(line);
        }
    }
}

fn build(common: &Common, targets: &[Sector], quiet: bool) -> Result<()> {
    let variant = common.variant()?;
    let options = BuildOptions {
        dir: common.dir(),
        variant,
    };
    let bars = Bars::new(quiet);
    let report = tablebase::build(&options, targets, &bars)?;
    bars.total.finish_and_clear();
    let bytes: u64 = report.built.iter().map(|g| g.bytes).sum();
    println!(
        "built {} sectors ({} kept) of '{}' in {}: {} positions in {:.1} s = {:.0} positions/s, {:.1} MB",
        report.built.iter().map(|g| g.sectors.len()).sum::<usize>(),
        report.kept.len(),
        variant,
        options.dir.join(variant.name()).display(),
        report.classes(),
        report.seconds(),
        report.classes() as f64 / report.seconds().max(1e-9),
        bytes as f64 / 1e6
    );
    Ok(())
}

fn probe(common: &Common, position: &str) -> Result<()> {
    let rules = common.rules()?;
    let pos = muehle::Position::from_fen(position, rules)
        .with_context(|| format!("position '{position}'"))?;
    let tb = Tablebase::new(common.dir(), DbVariant::of(&rules));
    let Some(moves) = tb.probe_moves(&pos)? else {
        bail!(
            "the databases hold positions of the moving phase (no stones in hand, 3 to 9 stones a side); this position is not one"
        );
    };
    let value = tb.probe(&pos)?.unwrap_or(Value::Loss(0));
    println!("{value}");
    for (m, v) in moves {
        println!("{m} {v}");
    }
    Ok(())
}

fn stats(common: &Common, sector: Sector) -> Result<()> {
    let rules = common.rules()?;
    let variant = DbVariant::of(&rules);
    let tb = Tablebase::new(common.dir(), variant);
    println!(
        "sector {sector} ({} white and {} black stones), rules '{variant}'",
        sector.mover, sector.other
    );
    for (color, stored) in [(Color::White, sector), (Color::Black, sector.swapped())] {
        let file = tb.file(stored)?;
        let s = file.stats();
        let idx = SectorIndex::new(u32::from(stored.mover), u32::from(stored.other));
        let name = if color == Color::White {
            "White"
        } else {
            "Black"
        };
        println!("{name} to move:");
        println!("  positions {}", s.positions);
        println!("  wins {}", s.wins);
        println!("  draws {}", s.draws);
        println!("  losses {}", s.losses);
        println!("  symmetry classes {}", s.classes);
        if s.wins > 0 {
            let (m, o) = idx.position(s.longest_win_index);
            let fen = position_of(m, o, color, rules)?.fen();
            println!("  longest win {} plies: {fen}", s.longest_win);
        } else {
            println!("  longest win: none");
        }
        if s.losses > 0 {
            let (m, o) = idx.position(s.longest_loss_index);
            let fen = position_of(m, o, color, rules)?.fen();
            println!("  longest loss {} plies: {fen}", s.longest_loss);
        }
        println!("  file {} ({} bytes)", file.path().display(), file.bytes());
    }
    Ok(())
}

/// The variant, the folder and the sectors a `verify` or `repack` works
/// on: the named one, else every built sector (none built is an error).
fn sectors_to_check(
    common: &Common,
    sector: Option<&str>,
) -> Result<(DbVariant, PathBuf, Vec<Sector>)> {
    let variant = common.variant()?;
    let dir = common.dir();
    let sectors = match sector {
        Some(s) => vec![s.parse::<Sector>()?],
        None => Tablebase::new(&dir, variant).installed(),
    };
    if sectors.is_empty() {
        bail!(
            "no sector of '{variant}' is built in {}: build with `brett tablebase build --rules {variant}`",
            dir.display()
        );
    }
    Ok((variant, dir, sectors))
}

fn verify(common: &Common, sector: Option<&str>) -> Result<()> {
    let (variant, dir, sectors) = sectors_to_check(common, sector)?;
    check_each("sector", sectors, |s| {
        let r = tablebase::verify(&dir, variant, s)?;
        Ok((r.checked, r.errors, r.examples))
    })
}

/// Check every one of `items` (sectors or tables, named by `kind`) with
/// `check` (positions checked, wrong, examples of wrong ones), a line each;
/// fails if one has wrong positions.
fn check_each<T: std::fmt::Display>(
    kind: &str,
    items: Vec<T>,
    mut check: impl FnMut(T) -> Result<(u64, u64, Vec<String>)>,
) -> Result<()> {
    let mut failed = 0;
    for item in items {
        let started = Instant::now();
        let name = item.to_string();
        let (checked, wrong, examples) = check(item)?;
        println!(
            "{kind} {name}: {checked} positions checked, {wrong} wrong ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
        for e in &examples {
            println!("  {e}");
        }
        if wrong > 0 {
            failed += 1;
        }
    }
    if failed > 0 {
        bail!("{failed} {kind}s failed the check");
    }
    println!("ok");
    Ok(())
}

fn repack(common: &Common, sector: Option<&str>) -> Result<()> {
    let (variant, dir, sectors) = sectors_to_check(common, sector)?;
    let (mut before, mut after, mut values) = (0u64, 0u64, 0u64);
    let started = Instant::now();
    for s in sectors {
        let t = Instant::now();
        let r = tablebase::repack(&dir, variant, s)?;
        before += r.before;
        after += r.after;
        if r.repacked {
            let n = SectorIndex::new(u32::from(s.mover), u32::from(s.other)).size();
            values += n;
            println!(
                "sector {s}: {} → {} bytes ({:+.1} %), {n} values in {:.1} s",
                r.before,
                r.after,
                100.0 * (r.after as f64 / r.before as f64 - 1.0),
                t.elapsed().as_secs_f64()
            );
        } else {
            println!("sector {s}: {} bytes, already current", r.after);
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "total {before} → {after} bytes; {values} values re-encoded in {secs:.1} s ({:.1} M values/s)",
        values as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

/// The progress of a book build (`brett tablebase book`, either game): a
/// line every 30 s and at the end of each ply, the book saved every
/// minute, and the stop after `--minutes`.
pub(super) struct BookProgress {
    pub(super) start: Instant,
    deadline: Option<Instant>,
    last_save: Instant,
    last_report: Instant,
    added: u64,
    nodes: u64,
}

impl BookProgress {
    pub(super) fn new(minutes: Option<u64>) -> BookProgress {
        let start = Instant::now();
        BookProgress {
            start,
            deadline: minutes.map(|m| start + std::time::Duration::from_secs(60 * m)),
            last_save: start,
            last_report: start,
            added: 0,
            nodes: 0,
        }
    }

    /// One new position: `(ply, done, total, nodes)` of the step, `extra`
    /// after the count of new positions, `nodes_of` before "M nodes/s".
    /// Saves with `save` when due (an error goes to `result` and stops the
    /// build); false when the build must stop.
    pub(super) fn step<E>(
        &mut self,
        (ply, done, total, nodes): (u32, usize, usize, u64),
        extra: &str,
        nodes_of: &str,
        save: impl FnOnce() -> Result<(), E>,
        result: &mut Result<(), E>,
    ) -> bool {
        self.added += 1;
        self.nodes += nodes;
        if self.last_report.elapsed().as_secs() >= 30 || done == total {
            let secs = self.start.elapsed().as_secs_f64();
            eprintln!(
                "  ply {ply}: {done}/{total} · {} new{extra} in {secs:.0} s, {:.2} positions/s, {nodes_of}{:.2} M nodes/s",
                self.added,
                self.added as f64 / secs,
                self.nodes as f64 / secs / 1e6
            );
            self.last_report = Instant::now();
        }
        if self.last_save.elapsed().as_secs() >= 60 {
            if let Err(e) = save() {
                *result = Err(e);
                return false;
            }
            self.last_save = Instant::now();
        }
        self.deadline.is_none_or(|d| Instant::now() < d)
    }
}
