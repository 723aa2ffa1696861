//! `brett db`: the app's database — migrate it, export all games to a file
//! and import them into another database (SQLite ↔ PostgreSQL).

use std::io::{BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use server::storage::{
    self, AccountRecord, GameRecord, SqliteStorage, Storage, StorageError, StorageOptions,
};

/// The first line of an export.
const HEADER: &str = r#"{"format":"brett-games","version":1}"#;

/// Games read or written at a time.
const BATCH: u32 = 500;

/// Arguments of `brett db`.
pub type Args = super::Subcommands<Command>;

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Create the database if needed and bring its tables up to date (what
    /// `brett serve` does at start).
    Migrate(Database),
    /// Write every game with its moves, seats and times to a file, one JSON
    /// object a line (after a header line), by id; the accounts (names and
    /// password hashes, no logins) come first.
    ///
    /// A damaged SQLite file (one `brett serve` refuses) is read without
    /// being changed: the games that can still be read are written, and
    /// those that cannot are named (the command then fails).
    Export {
        #[command(flatten)]
        database: Database,
        /// The file to write (`-`: standard output).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Read games written by `brett db export` into a database (migrated
    /// first), keeping their ids; fails on an id that exists already.
    Import {
        #[command(flatten)]
        database: Database,
        /// The file to read (`-`: standard input).
        #[arg(long = "in", value_name = "FILE")]
        input: PathBuf,
    },
}

#[derive(clap::Args, Debug)]
pub struct Database {
    /// The database URL: sqlite:///path/brett.db or
    /// postgres://user[:password]@host[:port]/db (default: the default
    /// SQLite file of `brett serve`).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
}

impl Database {
    pub(crate) fn url(&self) -> String {
        self.database
            .clone()
            .unwrap_or_else(storage::default_database_url)
    }

    pub(crate) async fn open(&self) -> Result<std::sync::Arc<dyn Storage>> {
        let url = self.url();
        storage::open(&url)
            .await
            .with_context(|| format!("opening the database {}", storage::redact_url(&url)))
    }
}

/// Run `work` (on the database) to its end on a runtime of its own.
pub(crate) fn block_on<T>(work: impl std::future::Future<Output = Result<T>>) -> Result<T> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(work)
}

pub fn run(args: Args) -> Result<()> {
    block_on(async move {
        match args.command {
            Command::Migrate(database) => {
                let db = database.open().await?;
                db.close().await;
                eprintln!("{} is migrated", storage::redact_url(&database.url()));
                Ok(())
            }
            Command::Export { database, out } => {
                let url = database.url();
                // The file is checked in full: a damaged one is read in
                // the careful way below instead.
                let options = StorageOptions {
                    integrity_check: std::time::Duration::MAX,
                    ..StorageOptions::default()
                };
                let (db, damaged) = match storage::open_with(&url, &options).await {
                    Ok(db) => (db, None),
                    Err(StorageError::CorruptFile { path, reason }) => {
                        eprintln!(
                            "warning: the database file {} is damaged: {reason}. Exporting the \
                             games that can still be read, without changing the file",
                            path.display()
                        );
                        let db = SqliteStorage::open_damaged(&url).await.with_context(|| {
                            format!("reading the damaged file {}", path.display())
                        })?;
                        let highest = db.highest_game_id().await.unwrap_or(0);
                        (Arc::new(db) as Arc<dyn Storage>, Some(highest))
                    }
                    Err(e) => {
                        return Err(e).with_context(|| {
                            format!("opening the database {}", storage::redact_url(&url))
                        });
                    }
                };
                let result = export(db.as_ref(), &out, damaged).await;
                db.close().await;
                let exported = result?;
                eprintln!("exported {} games", exported.games);
                if let Some(why) = exported.stopped {
                    bail!("the export is incomplete: {why}");
                }
                if !exported.unreadable.is_empty() {
                    let ids = exported
                        .unreadable
                        .iter()
                        .map(|&(a, b)| match b - a {
                            0 => a.to_string(),
                            _ => format!("{a}–{b}"),
                        })
                        .collect::<Vec<_>>();
                    bail!(
                        "the export is incomplete: {} games could not be read (ids {}); {} \
                         holds the others",
                        exported
                            .unreadable
                            .iter()
                            .map(|(a, b)| b - a + 1)
                            .sum::<i64>(),
                        ids.join(", "),
                        out.display()
                    );
                }
                Ok(())
            }
            Command::Import { database, input } => {
                let db = database.open().await?;
                let result = import(db.as_ref(), &input).await;
                db.close().await;
                let n = result?;
                eprintln!("imported {n} games");
                Ok(())
            }
        }
    })
}

/// What an export wrote.
struct Exported {
    /// The number of games written.
    games: usize,
    /// The ids of the games that could not be read, as ranges.
    unreadable: Vec<(i64, i64)>,
    /// Why reading a damaged file stopped before its highest game id was
    /// known to be reached.
    stopped: Option<String>,
}

/// Write the games of `db` to `out`. `damaged`: the database is a damaged
/// file whose highest game id is this (0: not known); a batch that cannot
/// be read is then read a game at a time, and the games that cannot be
/// read are left out.
async fn export(db: &dyn Storage, out: &std::path::Path, damaged: Option<i64>) -> Result<Exported> {
    let to_stdout = out.as_os_str() == "-";
    let file: Box<dyn Write> = if to_stdout {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::fs::File::create(out).with_context(|| format!("creating {}", out.display()))?)
    };
    let mut w = BufWriter::new(file);
    writeln!(w, "{HEADER}")?;
    // The accounts first (`{"account": …}` lines): the games' seats name
    // them. A damaged file's accounts are left out if they cannot be read.
    match (db.export_accounts().await, damaged) {
        (Ok(accounts), _) => {
            for a in &accounts {
                writeln!(w, "{}", a.to_line())?;
            }
        }
        (Err(e), None) => return Err(e.into()),
        (Err(e), Some(_)) => eprintln!("the accounts cannot be read: {e}"),
    }
    let mut after = 0;
    let mut n = 0;
    let mut unreadable: Vec<(i64, i64)> = Vec::new();
    let mut stopped = None;
    // Games still to read one at a time, after a batch failed.
    let mut singly = 0;
    loop {
        let limit = if singly > 0 { 1 } else { BATCH };
        let games = match (db.export_games(after, limit).await, damaged) {
            (Ok(games), _) => games,
            (Err(e), None) => return Err(e.into()),
            (Err(_), Some(_)) if limit > 1 => {
                singly = BATCH;
                continue;
            }
            (Err(e), Some(highest)) => {
                // The next game cannot be read: its id is the next one
                // (games are numbered in turn, none is deleted).
                if after >= highest {
                    // Past the last game, or nowhere to go on to.
                    if highest == 0 {
                        stopped = Some(format!("nothing after game {after} can be read: {e}"));
                    }
                    break;
                }
                after += 1;
                singly = singly.saturating_sub(1);
                match unreadable.last_mut() {
                    Some((_, to)) if *to + 1 == after => *to = after,
                    _ => {
                        eprintln!("game {after} cannot be read: {e}");
                        unreadable.push((after, after));
                    }
                }
                continue;
            }
        };
        let Some(last) = games.last() else { break };
        after = last.id;
        singly = singly.saturating_sub(games.len() as u32);
        for g in &games {
            writeln!(w, "{}", g.to_line())?;
        }
        n += games.len();
    }
    // Games after the last one read that the file still knew of.
    if let Some(highest) = damaged
        && after < highest
    {
        match unreadable.last_mut() {
            Some((_, to)) if *to == after => *to = highest,
            _ => unreadable.push((after + 1, highest)),
        }
    }
    w.flush()
        .with_context(|| format!("writing {}", out.display()))?;
    Ok(Exported {
        games: n,
        unreadable,
        stopped,
    })
}

async fn import(db: &dyn Storage, input: &std::path::Path) -> Result<usize> {
    let reader: Box<dyn BufRead> = if input.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(input).with_context(|| format!("opening {}", input.display()))?,
        ))
    };
    let mut lines = reader.lines();
    match lines.next() {
        Some(Ok(h)) if h.trim() == HEADER => {}
        Some(Err(e)) => return Err(e.into()),
        _ => bail!(
            "{} is not an export of brett db export (its first line must be {HEADER})",
            input.display()
        ),
    }
    let mut batch = Vec::new();
    let mut accounts: Vec<AccountRecord> = Vec::new();
    let mut n = 0;
    for (i, line) in lines.enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(account) = AccountRecord::from_line(&line) {
            let account = account.with_context(|| format!("{} line {}", input.display(), i + 2))?;
            accounts.push(account);
            continue;
        }
        if !accounts.is_empty() {
            // The accounts come before the games that name them.
            db.import_accounts(std::mem::take(&mut accounts))
                .await
                .context("importing accounts")?;
        }
        let game = GameRecord::from_line(&line)
            .with_context(|| format!("{} line {}", input.display(), i + 2))?;
        batch.push(game);
        if batch.len() == BATCH as usize {
            n += store(db, std::mem::take(&mut batch), n).await?;
        }
    }
    if !accounts.is_empty() {
        db.import_accounts(accounts)
            .await
            .context("importing accounts")?;
    }
    n += store(db, batch, n).await?;
    Ok(n)
}

async fn store(db: &dyn Storage, batch: Vec<GameRecord>, before: usize) -> Result<usize> {
    let len = batch.len();
    if len == 0 {
        return Ok(0);
    }
    db.import_games(batch).await.with_context(|| {
        format!("importing games ({before} imported before this batch of {len})")
    })?;
    Ok(len)
}
