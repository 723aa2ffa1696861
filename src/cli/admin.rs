//! `brett admin`: the operator's work on the app's database — the chat
//! messages players reported, and closing or reopening accounts. Opens the
//! database as `brett db` does (`--database URL`, default the SQLite file
//! of `brett serve`); a running server sees the changes at once.

use anyhow::{Result, bail};
use server::storage::{Account, ChatReport, ChatRoom, Storage, name_key};

use super::db::Database;

/// Arguments of `brett admin`.
pub type Args = super::Subcommands<Command>;

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// List the reported chat messages still open (with --all, every
    /// report): the message, its author and game, who reported it and why.
    Reports {
        #[command(flatten)]
        database: Database,
        /// Also the reports resolved already.
        #[arg(long)]
        all: bool,
    },
    /// Mark a report as dealt with.
    Resolve {
        #[command(flatten)]
        database: Database,
        /// The report's number (as `brett admin reports` lists it).
        report: i64,
        /// Who resolved it (default: $USER).
        #[arg(long, value_name = "NAME")]
        by: Option<String>,
    },
    /// Close an account: its logins end, it cannot log in or chat, its
    /// chat messages are hidden; its games stay.
    Close {
        #[command(flatten)]
        database: Database,
        /// The account's name (any case).
        name: String,
    },
    /// Open a closed account again.
    Reopen {
        #[command(flatten)]
        database: Database,
        /// The account's name (any case).
        name: String,
    },
}

pub fn run(args: Args) -> Result<()> {
    super::db::block_on(async move {
        let database = match &args.command {
            Command::Reports { database, .. }
            | Command::Resolve { database, .. }
            | Command::Close { database, .. }
            | Command::Reopen { database, .. } => database,
        };
        let db = database.open().await?;
        let result = work(db.as_ref(), &args.command).await;
        db.close().await;
        result
    })
}

async fn work(db: &dyn Storage, command: &Command) -> Result<()> {
    match command {
        Command::Reports { all, .. } => {
            let reports = db.chat_reports(*all).await?;
            if reports.is_empty() {
                eprintln!("no {}reports", if *all { "" } else { "open " });
            }
            for r in &reports {
                println!("{}", report_lines(r));
            }
            Ok(())
        }
        Command::Resolve { report, by, .. } => {
            let by = by
                .clone()
                .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
                .unwrap_or_else(|| "admin".into());
            if !db
                .resolve_report(*report, by, server::util::now_rfc3339())
                .await?
            {
                bail!("there is no open report {report}");
            }
            eprintln!("report {report} is resolved");
            Ok(())
        }
        Command::Close { name, .. } => set_closed(db, name, true).await,
        Command::Reopen { name, .. } => set_closed(db, name, false).await,
    }
}

async fn set_closed(db: &dyn Storage, name: &str, closed: bool) -> Result<()> {
    let Some(Account { id, name, .. }) = db.account_by_name(&name_key(name)).await? else {
        bail!("there is no account '{name}'");
    };
    db.set_account_closed(id, closed).await?;
    if closed {
        eprintln!("account {name} is closed: its logins have ended");
    } else {
        eprintln!("account {name} is open again");
    }
    Ok(())
}

/// A report as `brett admin reports` shows it: a head line, then the
/// message.
fn report_lines(r: &ChatReport) -> String {
    let m = &r.message.message;
    let state = match (&r.closed_at, &r.closed_by) {
        (Some(at), Some(by)) => format!("resolved {at} by {by}"),
        (Some(at), None) => format!("resolved {at}"),
        _ => "open".into(),
    };
    let room = match m.room {
        ChatRoom::Players => "players' room",
        ChatRoom::Spectators => "spectators' room",
    };
    let author = match (&r.author, &m.name) {
        (Some(account), _) => account.clone(),
        (None, Some(name)) => format!("{name} (guest)"),
        (None, None) => "a guest".into(),
    };
    let reason = if r.reason.is_empty() {
        "(no reason given)"
    } else {
        &r.reason
    };
    format!(
        "report {} [{state}] {}: game {}, {room}; reported by {}: {reason}\n  {author}: {}",
        r.id, r.created_at, m.game, r.reporter, m.text
    )
}
