//! The SQLite backend: WAL journal, a busy timeout, one writer connection
//! (writes of this process queue up instead of failing with "busy") and a
//! few readers.
//!
//! Every transaction is begun and ended here, with plain `BEGIN
//! IMMEDIATE` … `COMMIT` statements, not sqlx's transaction objects. Those
//! count the open transactions of a connection, and the count goes wrong
//! when SQLite fails a `COMMIT` (a full disk) and rolls the transaction
//! back by itself: sqlx's `ROLLBACK` then fails unseen, the next "begin"
//! becomes a `SAVEPOINT` that opens a real transaction, and once that one
//! fails too, `ROLLBACK TO` leaves it open for good. From then on every
//! write was a savepoint released inside a transaction never committed:
//! acknowledged, and lost. Here a failed transaction is rolled back and its
//! connection closed, so the pool opens a fresh one for the next request.
//!
//! The file is watched as well: its (device, inode) is compared with the
//! one opened before each write and read, just before each `COMMIT` and
//! after it. A file removed under the running server is restored from a
//! connection that still has it open (`VACUUM INTO`) and the connections
//! move to the restored file; a file replaced by another is taken over as
//! it is. Files made read-only (a read-only mount, `chattr +i`) are not
//! written through connections opened before.
//!
//! A file is checked before anything writes to it
//! ([`SqliteStorage::check_integrity`]): its header and length, that it is
//! brett's ([`APPLICATION_ID`]), and then `PRAGMA quick_check` for at most
//! a given time. A damaged file or another program's is refused as it is,
//! without a byte changed; a damaged one can still be read by
//! [`SqliteStorage::open_damaged`] (`brett db export`).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{ConnectOptions, Connection, Row};

use super::record::tags_from_text;
use super::{
    Account, AccountRecord, ChatLimit, ChatMessage, ChatPosted, ChatReport, ChatRoom, Expected,
    GameMeta, GameRecord, GameSummary, MoveChange, NewAccount, NewChatMessage, NewGame, NewLogin,
    NewReport, RecordMove, RecordSeat, SeatChange, Storage, StorageError, StorageOptions,
    StoredGame,
};
use super::{chat, sql};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// brett's mark in the header of its SQLite files (`PRAGMA
/// application_id`): the ASCII bytes `brtt`. A file that bears another
/// mark is another program's and is not opened.
pub const APPLICATION_ID: i32 = i32::from_be_bytes(*b"brtt");

/// The version of brett's first migration: a file without the mark whose
/// `_sqlx_migrations` lists it (and that has a `games` table) was made by
/// brett before the mark was set, and is marked when opened.
const FIRST_MIGRATION: i64 = 20261122000000;

/// The first 16 bytes of every SQLite file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// What the check of an SQLite file found when it was opened (a damaged
/// file or another program's is an error instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Integrity {
    /// `PRAGMA quick_check` went through the whole file and found nothing
    /// wrong.
    Checked,
    /// `PRAGMA quick_check` did not finish within its time: the file is
    /// used unchecked (its header and application id were checked).
    Unfinished,
    /// Nothing to go through: no file yet, an empty file, or a time limit
    /// of zero.
    Skipped,
}

/// Games in an SQLite database.
#[derive(Debug)]
pub struct SqliteStorage {
    /// The file's connect options (not creating a missing file: a file
    /// that vanished is restored, never silently started anew); unused in
    /// memory.
    options: SqliteConnectOptions,
    /// The database file; `None` in memory.
    path: Option<PathBuf>,
    /// The connections in use; replaced when the file is restored.
    current: tokio::sync::RwLock<Generation>,
    /// Held by each write from its check of the file to its end, so the
    /// writes (and the restoring of the file) take turns.
    writing: tokio::sync::Mutex<()>,
    /// The restored copy of a removed file, held open while it is not yet
    /// in place with a keeper on it (a restore that failed half-way).
    rescue: std::sync::Mutex<Option<std::fs::File>>,
}

/// The connections to one database file.
#[derive(Debug)]
struct Generation {
    writer: SqlitePool,
    reader: SqlitePool,
    /// A connection that only keeps the file open, so that its data stay
    /// reachable (for `VACUUM INTO`) if the file is removed.
    keeper: tokio::sync::Mutex<Option<SqliteConnection>>,
    /// (device, inode) of the file the connections are on; `None` in
    /// memory.
    file: Option<FileId>,
    /// The connections are closed (a restore is half done).
    closed: bool,
}

/// How long a restore keeps trying while the restored file is removed again
/// as soon as it is in place.
const RESTORE_PATIENCE: Duration = Duration::from_secs(5);

/// Which file a path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
}

/// The file at `path`, `None` if there is none.
fn file_id(path: &Path) -> std::io::Result<Option<FileId>> {
    match std::fs::metadata(path) {
        Ok(m) => Ok(Some(file_id_of(&m))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(unix)]
fn file_id_of(m: &std::fs::Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt;
    FileId {
        dev: m.dev(),
        ino: m.ino(),
    }
}

#[cfg(not(unix))]
fn file_id_of(_: &std::fs::Metadata) -> FileId {
    // Only whether the file is there can be told.
    FileId { dev: 0, ino: 0 }
}

/// What [`SqliteStorage::check_file`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileCheck {
    /// The file is the one opened.
    Same,
    /// It was removed and has been restored, with every committed write.
    Restored,
    /// Another file took its place; the connections moved to it.
    Replaced,
}

/// Whether SQLite's error `code` means the database cannot be used right
/// now (disk full, read-only, I/O error, locked, cannot open) rather than a
/// fault of the statement.
fn unavailable_code(code: &str) -> bool {
    let code = code.parse::<i32>().unwrap_or(0);
    // Primary result codes: PERM, BUSY, LOCKED, NOMEM, READONLY, IOERR,
    // CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB.
    matches!(code & 0xff, 3 | 5 | 6 | 7 | 8 | 10 | 11 | 13 | 14 | 15 | 26)
}

/// The storage error for `e` (sql::classify).
fn classify(e: StorageError) -> StorageError {
    sql::classify(e, unavailable_code)
}

fn unavailable(what: &str, e: impl std::fmt::Display) -> StorageError {
    StorageError::Unavailable(format!("{what}: {e}"))
}

/// `path` with `suffix` appended to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Remove `path` if it is there.
fn remove_if_there(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Fails unless this process may write the file at `path` (a missing file
/// passes). Asked of the kernel, not taken from the mode bits, so that a
/// read-only mount or an immutable file count for root too. The file is
/// not opened: closing a descriptor of it would drop SQLite's locks.
#[cfg(unix)]
fn check_writable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    // SAFETY: `c_path` is a NUL-terminated string that outlives the call,
    // which only reads it.
    if unsafe { libc::access(c_path.as_ptr(), libc::W_OK) } == 0 {
        return Ok(());
    }
    match std::io::Error::last_os_error() {
        e if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        e => Err(e),
    }
}

#[cfg(not(unix))]
fn check_writable(path: &Path) -> std::io::Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.permissions().readonly() => Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "read-only",
        )),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Whether `e` says that the file is damaged (SQLITE_CORRUPT,
/// SQLITE_NOTADB) rather than that it cannot be used now.
fn is_damage(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            let code = d.code().and_then(|c| c.parse::<i32>().ok()).unwrap_or(0);
            matches!(code & 0xff, 11 | 26)
        }
        _ => false,
    }
}

/// The error for `e`, met while checking the file at `path`.
fn damaged_or(path: &Path, e: sqlx::Error) -> StorageError {
    if is_damage(&e) {
        StorageError::CorruptFile {
            path: path.to_path_buf(),
            reason: format!("SQLite cannot read it ({e})"),
        }
    } else {
        classify(e.into())
    }
}

/// Whether the file `path` with `suffix` appended is there; `with_content`:
/// and is not empty.
fn beside(path: &Path, suffix: &str, with_content: bool) -> bool {
    std::fs::metadata(with_suffix(path, suffix)).is_ok_and(|m| !with_content || m.len() > 0)
}

/// An application id as the message of a refused file gives it: the
/// number, and its four bytes when they are letters.
fn describe_application_id(id: i32) -> String {
    let bytes = id.to_be_bytes();
    if bytes.iter().all(|b| b.is_ascii_graphic()) {
        format!(
            "application_id {id} (\"{}\")",
            String::from_utf8_lossy(&bytes)
        )
    } else {
        format!("application_id {id}")
    }
}

/// Whether this process has the file `id` open already: SQLite's locks on
/// it would go with any other descriptor of it that is closed, so it is not
/// read past SQLite then. Told from `/proc/self/fd` on Linux (where that
/// cannot be read, the file is taken to be open); elsewhere a file is taken
/// not to be (brett opens its database once).
#[cfg(target_os = "linux")]
fn open_in_this_process(id: FileId) -> bool {
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
        return true;
    };
    fds.flatten()
        .any(|fd| std::fs::metadata(fd.path()).is_ok_and(|m| file_id_of(&m) == id))
}

#[cfg(not(target_os = "linux"))]
fn open_in_this_process(_: FileId) -> bool {
    false
}

/// Check what the file's length and header tell without SQLite: that it is
/// an SQLite file, not marked as another program's, and not cut short.
/// `len`: its length, not 0. The file must not be open in this process
/// ([`open_in_this_process`]): it is opened and closed here.
fn check_header(path: &Path, len: u64) -> Result<(), StorageError> {
    use std::io::Read;
    let mut head = Vec::with_capacity(100);
    std::fs::File::open(path)
        .and_then(|f| f.take(100).read_to_end(&mut head))
        .map_err(|e| unavailable(&format!("reading {}", path.display()), e))?;
    let not_brett = |found: String| StorageError::NotBrett {
        path: path.to_path_buf(),
        found,
    };
    let corrupt = |reason: String| StorageError::CorruptFile {
        path: path.to_path_buf(),
        reason,
    };
    let start = &head[..head.len().min(SQLITE_MAGIC.len())];
    if !SQLITE_MAGIC.starts_with(start) {
        return Err(not_brett("not an SQLite file".into()));
    }
    if head.len() < 100 {
        return Err(corrupt(format!(
            "it is {} bytes long, shorter than the 100-byte header of an SQLite file",
            head.len()
        )));
    }
    let be32 = |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    // The header may be older than the write-ahead log (which holds the
    // latest first page), but a mark once set stays: a foreign mark here
    // is never brett's.
    let id = be32(68) as i32;
    if id != 0 && id != APPLICATION_ID {
        return Err(not_brett(describe_application_id(id)));
    }
    let page_size = match u16::from_be_bytes([head[16], head[17]]) {
        1 => 65536,
        n => u64::from(n),
    };
    if !page_size.is_power_of_two() || page_size < 512 {
        return Err(corrupt(format!(
            "its header gives {page_size} bytes as the page size, which SQLite does not use"
        )));
    }
    // With a write-ahead log or a rollback journal left over (the last
    // process stopped in the middle) the file may be behind, so its length
    // is judged only without them.
    if beside(path, "-wal", true) || beside(path, "-journal", true) {
        return Ok(());
    }
    if !len.is_multiple_of(page_size) {
        return Err(corrupt(format!(
            "it is {len} bytes long, not a whole number of its {page_size}-byte pages: it was \
             cut short or written over"
        )));
    }
    // The page count of the header is valid when the header's change
    // counter equals its "version valid for" number.
    let pages = u64::from(be32(28));
    if pages > 0 && be32(24) == be32(92) && pages > len / page_size {
        return Err(corrupt(format!(
            "its header counts {pages} pages of {page_size} bytes, but the file holds only {}: \
             it was cut short",
            len / page_size
        )));
    }
    Ok(())
}

/// Check the SQLite file at `path` (not empty; its header checked) through
/// SQLite, read-only: that it is brett's, and `PRAGMA quick_check` for at
/// most `limit`. `without_locks`: open it as immutable, which makes no
/// `-wal` and `-shm` files beside it (only when there are none: nobody has
/// the file open).
async fn check_contents(
    path: &Path,
    limit: Duration,
    without_locks: bool,
) -> Result<Integrity, StorageError> {
    // Not logged as a slow statement: the check takes its time.
    let options = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .create_if_missing(false)
        .immutable(without_locks)
        .busy_timeout(Duration::from_secs(10))
        .disable_statement_logging();
    let mut conn = SqliteConnection::connect_with(&options)
        .await
        .map_err(|e| damaged_or(path, e))?;
    let found = examine(&mut conn, path, limit).await;
    if let Err(e) = conn.close().await {
        tracing::warn!(path = %path.display(), error = %e, "closing the check's connection failed");
    }
    found
}

/// [`check_contents`] on the connection `conn` to `path`.
async fn examine(
    conn: &mut SqliteConnection,
    path: &Path,
    limit: Duration,
) -> Result<Integrity, StorageError> {
    let damaged = |e| damaged_or(path, e);
    let id: i32 = sqlx::query_scalar("PRAGMA application_id")
        .fetch_one(&mut *conn)
        .await
        .map_err(damaged)?;
    if id != APPLICATION_ID {
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        )
        .fetch_all(&mut *conn)
        .await
        .map_err(damaged)?;
        let has = |name: &str| tables.iter().any(|t| t == name);
        let made_by_brett = id == 0
            && has("games")
            && has("_sqlx_migrations")
            && match sqlx::query_scalar::<_, i64>(
                "SELECT count(*) FROM _sqlx_migrations WHERE version = $1",
            )
            .bind(FIRST_MIGRATION)
            .fetch_one(&mut *conn)
            .await
            {
                Ok(n) => n > 0,
                Err(e) if is_damage(&e) => return Err(damaged(e)),
                // Another program's table of that name.
                Err(_) => false,
            };
        let empty = id == 0 && tables.is_empty();
        if !made_by_brett && !empty {
            let mut found = describe_application_id(id);
            if !tables.is_empty() {
                let mut names = tables
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ");
                if tables.len() > 5 {
                    names.push_str(", …");
                }
                found.push_str(&format!("; tables {names}"));
            }
            return Err(StorageError::NotBrett {
                path: path.to_path_buf(),
                found,
            });
        }
    }
    if limit.is_zero() {
        return Ok(Integrity::Skipped);
    }
    // The check stops when its time is up: SQLite calls the handler every
    // 100 pages it checks (and every 100 steps of the statement after).
    let stopped = Arc::new(AtomicBool::new(false));
    if let Some(deadline) = Instant::now().checked_add(limit) {
        let stopped = stopped.clone();
        let mut handle = conn.lock_handle().await?;
        handle.set_progress_handler(100, move || {
            let go_on = Instant::now() < deadline;
            if !go_on {
                stopped.store(true, Ordering::Relaxed);
            }
            go_on
        });
    }
    // Three problems are enough to refuse the file.
    let found = sqlx::query_scalar::<_, String>("PRAGMA quick_check(3)")
        .fetch_all(&mut *conn)
        .await;
    match found {
        Ok(rows) if rows.len() == 1 && rows[0] == "ok" => Ok(Integrity::Checked),
        Ok(rows) => {
            let problems = rows
                .iter()
                .flat_map(|r| r.lines())
                .filter(|l| !l.is_empty() && !l.starts_with("*** "))
                .collect::<Vec<_>>();
            Err(StorageError::CorruptFile {
                path: path.to_path_buf(),
                reason: format!("PRAGMA quick_check found: {}", problems.join("; ")),
            })
        }
        Err(_) if stopped.load(Ordering::Relaxed) => Ok(Integrity::Unfinished),
        Err(e) => Err(damaged(e)),
    }
}

/// Flush a folder's entries (a rename in it) to the disk.
fn sync_dir(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Err(e) = std::fs::File::open(dir).and_then(|d| d.sync_all()) {
            tracing::warn!(dir = %dir.display(), error = %e, "could not flush the folder");
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Set brett's mark ([`APPLICATION_ID`]) on the file of `conn` if it is
/// not set (a new file, or one made before the mark was set).
async fn mark(conn: &mut SqliteConnection) -> Result<(), StorageError> {
    let id: i32 = sqlx::query_scalar("PRAGMA application_id")
        .fetch_one(&mut *conn)
        .await?;
    if id != APPLICATION_ID {
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "PRAGMA application_id = {APPLICATION_ID}"
        )))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A transaction's work on its connection.
trait Work<'c, T>: sql::Work<'c, SqliteConnection, T> {}

impl<'c, T, F: sql::Work<'c, SqliteConnection, T>> Work<'c, T> for F {}

impl Generation {
    /// Connect to the file at `path` (which must exist): the keeper at
    /// once, the pools when first used.
    async fn open(options: &SqliteConnectOptions, path: &Path) -> Result<Generation, StorageError> {
        let keeper = Self::connect_keeper(options).await.map_err(classify)?;
        // The file the keeper holds (taken after it opened the file).
        let file = match file_id(path) {
            Ok(Some(file)) => file,
            found => {
                let _ = keeper.close().await;
                return Err(match found {
                    Err(e) => unavailable("reading the database file's metadata", e),
                    _ => StorageError::Unavailable(format!("{} is gone", path.display())),
                });
            }
        };
        // Connections are not recycled: the keeper is not the only one
        // that keeps a removed file's data reachable.
        let pool = |n: u32| {
            SqlitePoolOptions::new()
                .max_connections(n)
                .acquire_timeout(Duration::from_secs(30))
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_lazy_with(options.clone())
        };
        Ok(Generation {
            writer: pool(1),
            reader: pool(4),
            keeper: tokio::sync::Mutex::new(Some(keeper)),
            file: Some(file),
            closed: false,
        })
    }

    async fn connect_keeper(
        options: &SqliteConnectOptions,
    ) -> Result<SqliteConnection, StorageError> {
        let mut conn = SqliteConnection::connect_with(options).await?;
        // A read opens the write-ahead log too.
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM sqlite_master")
            .fetch_one(&mut conn)
            .await?;
        Ok(conn)
    }

    /// Close every connection (waits for those in use).
    async fn close(&mut self) {
        self.closed = true;
        self.reader.close().await;
        self.writer.close().await;
        if let Some(conn) = self.keeper.get_mut().take()
            && let Err(e) = conn.close().await
        {
            tracing::warn!(error = %e, "closing the keeper connection failed");
        }
    }

    /// Copy the database, as its connections see it, to the new file `to`.
    async fn vacuum_into(&self, to: &Path) -> Result<(), StorageError> {
        let to_text = to
            .to_str()
            .ok_or_else(|| StorageError::Unavailable(format!("{} is not UTF-8", to.display())))?
            .to_string();
        async fn vacuum(conn: &mut SqliteConnection, to: &str) -> Result<(), sqlx::Error> {
            sqlx::query("VACUUM INTO ?")
                .bind(to.to_string())
                .execute(conn)
                .await
                .map(drop)
        }
        let mut first_error = None;
        if let Some(conn) = self.keeper.lock().await.as_mut() {
            match vacuum(conn, &to_text).await {
                Ok(()) => return Ok(()),
                Err(e) => {
                    tracing::warn!(error = %e, "VACUUM INTO from the keeper connection failed");
                    remove_if_there(to)?;
                    first_error = Some(e);
                }
            }
        }
        // No keeper: a writer connection of this file will do.
        let result = match self.writer.acquire().await {
            Ok(mut conn) => vacuum(&mut conn, &to_text).await,
            Err(e) => Err(e),
        };
        result.map_err(|e| {
            let _ = remove_if_there(to);
            classify(first_error.unwrap_or(e).into())
        })
    }
}

impl SqliteStorage {
    /// Open `url` (`sqlite:PATH`, `sqlite://PATH`, `sqlite::memory:`),
    /// creating the file and its folder if needed, and migrate it; with the
    /// default options.
    pub async fn open(url: &str) -> Result<SqliteStorage, StorageError> {
        Self::open_with(url, &StorageOptions::default()).await
    }

    /// Open `url` as [`SqliteStorage::open`] does. An existing file is
    /// checked first ([`SqliteStorage::check_integrity`], for at most
    /// `options.integrity_check`), before anything writes to it, and
    /// refused as it is when it is damaged or another program's; brett's
    /// mark ([`APPLICATION_ID`]) is set on a new file and on one made
    /// before the mark was set.
    pub async fn open_with(
        url: &str,
        options: &StorageOptions,
    ) -> Result<SqliteStorage, StorageError> {
        let limit = options.integrity_check;
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        if in_memory {
            // One connection keeps one in-memory database alive.
            let pool = SqlitePoolOptions::new()
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(options.clone())
                .await?;
            MIGRATOR.run(&pool).await?;
            return Ok(SqliteStorage {
                options,
                path: None,
                current: tokio::sync::RwLock::new(Generation {
                    writer: pool.clone(),
                    reader: pool,
                    keeper: tokio::sync::Mutex::new(None),
                    file: None,
                    closed: false,
                }),
                writing: tokio::sync::Mutex::new(()),
                rescue: std::sync::Mutex::new(None),
            });
        }
        let path = options.get_filename().to_path_buf();
        if let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent)?;
        }
        let started = Instant::now();
        match Self::check_integrity(&path, limit).await? {
            Integrity::Checked => tracing::info!(
                path = %path.display(),
                ms = started.elapsed().as_millis() as u64,
                "the database file passed its integrity check"
            ),
            Integrity::Unfinished => tracing::warn!(
                path = %path.display(),
                seconds = limit.as_secs_f64(),
                "the integrity check of the database file was stopped unfinished at its time \
                 limit: the file is used unchecked (--integrity-check-seconds gives the check \
                 more time)"
            ),
            Integrity::Skipped => {}
        }
        // NORMAL: in WAL mode a commit survives the process (a crash, a
        // restart); only a power loss may take the last ones. FULL (an
        // fsync per commit) costs the round trip several times over.
        let options = options
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal);
        // Create and migrate on a connection of its own, closed after.
        let mut conn = SqliteConnection::connect_with(&options).await?;
        let migrated = match MIGRATOR.run(&mut conn).await {
            Ok(()) => mark(&mut conn).await,
            Err(e) => Err(e.into()),
        };
        conn.close().await?;
        migrated?;
        let options = options.create_if_missing(false);
        SqliteStorage::on_file(options, path).await
    }

    /// Check the SQLite file at `path` without changing it, before it is
    /// opened for writing: that its header and length agree; that it is
    /// brett's (marked with [`APPLICATION_ID`]; or unmarked and either
    /// without tables or made by brett before the mark was set); and that
    /// `PRAGMA quick_check` finds nothing wrong in it, if it finishes within
    /// `limit` (zero: not run). A damaged file is
    /// [`StorageError::CorruptFile`], another program's
    /// [`StorageError::NotBrett`]. No file or an empty one passes.
    pub async fn check_integrity(path: &Path, limit: Duration) -> Result<Integrity, StorageError> {
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Integrity::Skipped),
            Err(e) => return Err(unavailable(&format!("reading {}", path.display()), e)),
        };
        if meta.len() == 0 {
            return Ok(Integrity::Skipped);
        }
        // Opened here already, the file is left to SQLite.
        if !open_in_this_process(file_id_of(&meta)) {
            check_header(path, meta.len())?;
        }
        let unused = !beside(path, "-wal", false) && !beside(path, "-journal", false);
        let found = check_contents(path, limit, unused).await;
        // Read without locks, the file may have seemed damaged because
        // another process began to write it meanwhile: read it again, with
        // them.
        if unused
            && matches!(found, Err(StorageError::CorruptFile { .. }))
            && (beside(path, "-wal", false) || beside(path, "-journal", false))
        {
            return check_contents(path, limit, false).await;
        }
        found
    }

    /// Open the file of `url` that was refused as damaged
    /// ([`StorageError::CorruptFile`]) to read what can still be read of it
    /// (`brett db export`): read-only, without checks or migrations, so
    /// that nothing is changed. A file shorter than its header says is read
    /// up to where it ends. Writes fail.
    pub async fn open_damaged(url: &str) -> Result<SqliteStorage, StorageError> {
        let options = SqliteConnectOptions::from_str(url)?;
        let path = options.get_filename().to_path_buf();
        if url.contains(":memory:") || url.contains("mode=memory") {
            return Err(StorageError::Unsupported(
                "an in-memory database has no file to read".into(),
            ));
        }
        let unused = !beside(&path, "-wal", false) && !beside(&path, "-journal", false);
        let options = options
            .read_only(true)
            .create_if_missing(false)
            .immutable(unused)
            .busy_timeout(Duration::from_secs(10))
            .pragma("writable_schema", "ON");
        SqliteStorage::on_file(options, path).await
    }

    /// The highest game id the file knows of, as far as it can be read
    /// (the last id handed out, the largest id found): where reading a
    /// damaged file ([`SqliteStorage::open_damaged`]) may stop.
    pub async fn highest_game_id(&self) -> Option<i64> {
        let g = self.current.read().await;
        let mut conn = g.reader.acquire().await.ok()?;
        let handed_out: Option<i64> =
            sqlx::query_scalar("SELECT seq FROM sqlite_sequence WHERE name = 'games'")
                .fetch_optional(&mut *conn)
                .await
                .ok()
                .flatten();
        let largest: Option<i64> = sqlx::query_scalar("SELECT max(id) FROM games")
            .fetch_one(&mut *conn)
            .await
            .ok()
            .flatten();
        handed_out.max(largest)
    }

    /// The storage on the existing file at `path`, connected with `options`.
    async fn on_file(
        options: SqliteConnectOptions,
        path: PathBuf,
    ) -> Result<SqliteStorage, StorageError> {
        let generation = Generation::open(&options, &path).await?;
        Ok(SqliteStorage {
            options,
            path: Some(path),
            current: tokio::sync::RwLock::new(generation),
            writing: tokio::sync::Mutex::new(()),
            rescue: std::sync::Mutex::new(None),
        })
    }

    /// Whether the file at the path is no longer the one `generation` is on.
    fn file_moved(&self, generation: &Generation) -> Result<bool, StorageError> {
        let Some(path) = &self.path else {
            return Ok(false);
        };
        let now = file_id(path).map_err(|e| unavailable("checking the database file", e))?;
        Ok(generation.closed || now != generation.file)
    }

    /// Make sure the connections are on the file at the path: restore a
    /// removed file, move to a replaced one. Call with `writing` held.
    async fn check_file(&self) -> Result<FileCheck, StorageError> {
        let Some(path) = &self.path else {
            return Ok(FileCheck::Same);
        };
        let (known, closed) = {
            let g = self.current.read().await;
            (g.file, g.closed)
        };
        let found = file_id(path).map_err(|e| unavailable("checking the database file", e))?;
        match found {
            Some(id) if Some(id) == known && !closed => Ok(FileCheck::Same),
            None => {
                tracing::error!(
                    path = %path.display(),
                    "the database file was removed while the server runs; restoring it"
                );
                self.restore(path).await.inspect_err(|e| {
                    tracing::error!(path = %path.display(), error = %e, "restoring the database file failed");
                })?;
                tracing::warn!(path = %path.display(), "the database file is restored");
                Ok(FileCheck::Restored)
            }
            Some(_) => {
                tracing::error!(
                    path = %path.display(),
                    "the database file was replaced while the server runs; using the new file"
                );
                let mut g = self.current.write().await;
                g.close().await;
                *g = Generation::open(&self.options, path).await?;
                Ok(FileCheck::Replaced)
            }
        }
    }

    /// Put the database back at `path` (removed) from the open
    /// connections, then connect to it.
    ///
    /// The copy is made beside it (`VACUUM INTO`) and held open while the
    /// old connections close (closing the last one of a file may delete
    /// the `-wal` and `-shm` files by name, which must not hit those of the
    /// restored file), then moved in place. Until a new keeper has the
    /// restored file open the copy stays open in `rescue`: the data are
    /// never without an open descriptor, even if the file is removed again
    /// meanwhile.
    async fn restore(&self, path: &Path) -> Result<(), StorageError> {
        let copy = with_suffix(path, ".restoring");
        let mut g = self.current.write().await;
        let rescued = self.rescue.lock().unwrap_or_else(|e| e.into_inner()).take();
        let mut rescue = match rescued {
            Some(f) => f,
            None if g.closed => {
                return Err(StorageError::Unavailable(format!(
                    "{} is gone and nothing is left to restore it from",
                    path.display()
                )));
            }
            None => {
                if let Some(dir) = path.parent()
                    && !dir.as_os_str().is_empty()
                {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| unavailable("creating the folder", e))?;
                }
                remove_if_there(&copy).map_err(|e| unavailable("removing an old copy", e))?;
                g.vacuum_into(&copy).await?;
                let f = std::fs::File::open(&copy)
                    .and_then(|f| f.sync_all().map(|()| f))
                    .map_err(|e| {
                        let _ = remove_if_there(&copy);
                        unavailable("opening the restored copy", e)
                    })?;
                g.close().await;
                f
            }
        };
        let deadline = std::time::Instant::now() + RESTORE_PATIENCE;
        loop {
            let e = match self.put_in_place(path, &copy, &mut rescue).await {
                Ok(new) => {
                    *g = new;
                    return Ok(());
                }
                Err(e) => e,
            };
            tracing::warn!(error = %e, "putting the restored file in place failed");
            // Tried again only while something else keeps changing the
            // path (removing the file again); not for a full disk, say.
            let held = rescue.metadata().map(|m| file_id_of(&m)).ok();
            let interfered = held.is_some() && file_id(path).ok().flatten() != held;
            if !interfered || std::time::Instant::now() >= deadline {
                *self.rescue.lock().unwrap_or_else(|e| e.into_inner()) = Some(rescue);
                return Err(e);
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Move the copy held open as `rescue` to `path` (writing it anew from
    /// `rescue` if it was removed; `rescue` is then the new copy) and
    /// connect to it.
    async fn put_in_place(
        &self,
        path: &Path,
        copy: &Path,
        rescue: &mut std::fs::File,
    ) -> Result<Generation, StorageError> {
        let held_id = |f: &std::fs::File| {
            f.metadata()
                .map(|m| file_id_of(&m))
                .map_err(|e| unavailable("reading the restored copy", e))
        };
        let mut held = held_id(rescue)?;
        if file_id(path).ok().flatten() != Some(held) {
            if file_id(copy).ok().flatten() != Some(held) {
                // Gone (removed again): write it out anew.
                use std::io::{Seek, SeekFrom};
                remove_if_there(copy).map_err(|e| unavailable("removing an old copy", e))?;
                let written = rescue.seek(SeekFrom::Start(0)).and_then(|_| {
                    let mut to = std::fs::File::create(copy)?;
                    std::io::copy(rescue, &mut to)?;
                    to.sync_all()?;
                    std::fs::File::open(copy)
                });
                *rescue = written.map_err(|e| {
                    let _ = remove_if_there(copy);
                    unavailable("writing the restored copy", e)
                })?;
                held = held_id(rescue)?;
            }
            // Stale write-ahead files of the removed file would be replayed
            // into the restored one.
            for suffix in ["-wal", "-shm"] {
                remove_if_there(&with_suffix(path, suffix))
                    .map_err(|e| unavailable("removing a stale write-ahead file", e))?;
            }
            std::fs::rename(copy, path).map_err(|e| unavailable("moving the copy in place", e))?;
            sync_dir(path);
        }
        let mut new = Generation::open(&self.options, path).await?;
        if new.file == Some(held) {
            return Ok(new);
        }
        new.close().await;
        Err(StorageError::Unavailable(format!(
            "{} changed while it was restored",
            path.display()
        )))
    }

    fn announcer(&self) -> Unannounced {
        Unannounced
    }

    /// One write transaction (`BEGIN IMMEDIATE`): on the file at the path,
    /// and acknowledged only when committed to it.
    async fn write<T, W>(&self, what: &'static str, work: W) -> Result<T, StorageError>
    where
        W: for<'c> Work<'c, T>,
    {
        let _writing = self.writing.lock().await;
        self.check_file().await.inspect_err(|e| {
            tracing::error!(op = what, error = %e, "the database file cannot be used");
        })?;
        if let Some(path) = &self.path {
            // Writes through the open connections would still work, but
            // what was made read-only is not written (a restart could not
            // either).
            for file in [path.clone(), with_suffix(path, "-wal")] {
                check_writable(&file).map_err(|e| {
                    let e = unavailable(&format!("{} is not writable", file.display()), e);
                    tracing::error!(op = what, error = %e, "database error");
                    e
                })?;
            }
        }
        let committed = {
            let g = self.current.read().await;
            let conn = g.writer.acquire().await.map_err(|e| {
                let e = classify(e.into());
                tracing::error!(op = what, error = %e, "no database connection");
                e
            })?;
            let moved = || match self.file_moved(&g)? {
                false => Ok(()),
                true => Err(StorageError::Unavailable(
                    "the database file was removed or replaced during the write".into(),
                )),
            };
            let how = sql::Transaction {
                what,
                begin: "BEGIN IMMEDIATE",
                keep: self.path.is_none(),
                classify,
                check: moved,
            };
            sql::transaction(conn, how, work).await
        };
        let value = match committed {
            Ok(value) => value,
            Err(e) => {
                if matches!(e, StorageError::Unavailable(_)) {
                    // Recover now if the file went, so the next write works.
                    let _ = self.check_file().await;
                }
                return Err(e);
            }
        };
        // The file went between the check and the commit: the write is in
        // the removed file and comes along when it is restored.
        match self.check_file().await {
            Ok(FileCheck::Same | FileCheck::Restored) => Ok(value),
            Ok(FileCheck::Replaced) => {
                tracing::error!(op = what, "the write went to the file that was replaced");
                Err(StorageError::Unavailable(
                    "the database file was replaced during the write".into(),
                ))
            }
            Err(e) => {
                tracing::error!(
                    op = what,
                    error = %e,
                    "the write went to the removed file; it comes back when the file is restored"
                );
                Err(e)
            }
        }
    }

    /// One read transaction.
    async fn read<T, W>(&self, what: &'static str, work: W) -> Result<T, StorageError>
    where
        W: for<'c> Work<'c, T>,
    {
        if self.path.is_some() {
            // A removed file is restored before it is read (new reader
            // connections could not open it).
            let moved = {
                let g = self.current.read().await;
                self.file_moved(&g).unwrap_or(true)
            };
            if moved {
                let _writing = self.writing.lock().await;
                let _ = self.check_file().await;
            }
        }
        let g = self.current.read().await;
        let conn = g.reader.acquire().await.map_err(|e| {
            let e = classify(e.into());
            tracing::error!(op = what, error = %e, "no database connection");
            e
        })?;
        let how = sql::Transaction {
            what,
            begin: "BEGIN",
            keep: self.path.is_none(),
            classify,
            check: || Ok(()),
        };
        sql::transaction(conn, how, work).await
    }
}

type Conn = SqliteConnection;

sql::row_writers!();

/// Who announces changes: nobody, one process uses the file.
#[derive(Clone, Copy, Debug)]
struct Unannounced;

/// A change was stored: nothing to tell.
async fn announce(_: &mut Conn, _: &Unannounced, _: i64, _: i64) -> Result<(), sqlx::Error> {
    Ok(())
}

/// A chat message was stored: nothing to tell.
async fn announce_chat(_: &mut Conn, _: &Unannounced, _: i64, _: i64) -> Result<(), sqlx::Error> {
    Ok(())
}

/// Nothing follows an import: new games get ids after the largest.
async fn after_import(_: &mut Conn) -> Result<(), sqlx::Error> {
    Ok(())
}

/// Nothing follows an import of accounts: new ones get ids after the
/// largest.
async fn after_account_import(_: &mut Conn) -> Result<(), sqlx::Error> {
    Ok(())
}

impl Storage for SqliteStorage {
    sql::storage_methods!();
    chat::chat_methods!();
    super::lobby::lobby_methods!();
    super::analysis::analysis_methods!();

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let _writing = self.writing.lock().await;
            // A file removed since the last write is put back first: closing
            // the last connection of a removed file loses its data.
            if let Err(e) = self.check_file().await {
                tracing::error!(error = %e, "the database file could not be checked before closing");
            }
            self.current.write().await.close().await;
        })
    }
}
