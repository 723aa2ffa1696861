//! `brett db`: the app's database — migrate it, export all games to a file
//! and import them into another database (SQLite ↔ PostgreSQL).

use std::io::{BufRead, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use server::storage::{self, GameRecord, Storage};

/// The first line of an export.
const HEADER: &str = r#"{"format":"brett-games","version":1}"#;

/// Games read or written at a time.
const BATCH: u32 = 500;

/// Arguments of `brett db`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Create the database if needed and bring its tables up to date (what
    /// `brett serve` does at start).
    Migrate(Database),
    /// Write every game with its moves, seats and times to a file, one JSON
    /// object a line (after a header line), by id.
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
struct Database {
    /// The database URL: sqlite:///path/brett.db or
    /// postgres://user[:password]@host[:port]/db (default: the default
    /// SQLite file of `brett serve`).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
}

impl Database {
    fn url(&self) -> String {
        self.database
            .clone()
            .unwrap_or_else(storage::default_database_url)
    }

    async fn open(&self) -> Result<std::sync::Arc<dyn Storage>> {
        let url = self.url();
        storage::open(&url)
            .await
            .with_context(|| format!("opening the database {}", storage::redact_url(&url)))
    }
}

pub fn run(args: Args) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        match args.command {
            Command::Migrate(database) => {
                let db = database.open().await?;
                db.close().await;
                eprintln!("{} is migrated", storage::redact_url(&database.url()));
                Ok(())
            }
            Command::Export { database, out } => {
                let db = database.open().await?;
                let result = export(db.as_ref(), &out).await;
                db.close().await;
                let n = result?;
                eprintln!("exported {n} games");
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

async fn export(db: &dyn Storage, out: &std::path::Path) -> Result<usize> {
    let to_stdout = out.as_os_str() == "-";
    let file: Box<dyn Write> = if to_stdout {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::fs::File::create(out).with_context(|| format!("creating {}", out.display()))?)
    };
    let mut w = BufWriter::new(file);
    writeln!(w, "{HEADER}")?;
    let mut after = 0;
    let mut n = 0;
    loop {
        let games = db.export_games(after, BATCH).await?;
        let Some(last) = games.last() else { break };
        after = last.id;
        for g in &games {
            writeln!(w, "{}", g.to_line())?;
        }
        n += games.len();
    }
    w.flush()
        .with_context(|| format!("writing {}", out.display()))?;
    Ok(n)
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
    let mut n = 0;
    for (i, line) in lines.enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let game = GameRecord::from_line(&line)
            .with_context(|| format!("{} line {}", input.display(), i + 2))?;
        batch.push(game);
        if batch.len() == BATCH as usize {
            n += store(db, std::mem::take(&mut batch), n).await?;
        }
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
