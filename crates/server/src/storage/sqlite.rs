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

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::pool::PoolConnection;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{Connection, Row, Sqlite};

use super::record::tags_from_text;
use super::sql;
use super::{
    Expected, GameMeta, GameRecord, GameSummary, MoveChange, NewGame, RecordMove, RecordSeat,
    Storage, StorageError, StoredGame,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

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

/// Whether an SQLite error means the database cannot be used right now
/// (disk full, read-only, I/O error, locked, cannot open) rather than a
/// fault of the statement.
fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            let code = d.code().and_then(|c| c.parse::<i32>().ok()).unwrap_or(0);
            // Primary result codes: PERM, BUSY, LOCKED, NOMEM, READONLY,
            // IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB.
            matches!(code & 0xff, 3 | 5 | 6 | 7 | 8 | 10 | 11 | 13 | 14 | 15 | 26)
        }
        sqlx::Error::Io(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        _ => false,
    }
}

/// The storage error for `e`: [`StorageError::Unavailable`] when the
/// database cannot be used right now.
fn classify(e: StorageError) -> StorageError {
    match e {
        StorageError::Database(d) if is_unavailable(&d) => StorageError::Unavailable(d.to_string()),
        StorageError::Io(e) => StorageError::Unavailable(e.to_string()),
        other => other,
    }
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

/// A transaction's work on its connection.
trait Work<'c, T>:
    FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<T, StorageError>> + Send
{
}

impl<'c, T, F> Work<'c, T> for F where
    F: FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<T, StorageError>> + Send
{
}

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

/// A pooled connection in a transaction begun by hand, which the pool does
/// not know about: if dropped before the transaction ended (a request that
/// went away), the connection is closed rather than returned in the middle
/// of it; unless it must be kept (an in-memory database lives in its one
/// connection; the next `BEGIN` there fails and rolls back).
struct InTransaction {
    conn: Option<PoolConnection<Sqlite>>,
    keep: bool,
}

impl InTransaction {
    fn conn(&mut self) -> &mut SqliteConnection {
        self.conn.as_mut().expect("the connection is held")
    }

    /// The transaction has ended: the connection may go back to the pool.
    fn end(mut self) -> PoolConnection<Sqlite> {
        self.conn.take().expect("the connection is held")
    }
}

impl Drop for InTransaction {
    fn drop(&mut self) {
        if let Some(conn) = &mut self.conn
            && !self.keep
        {
            conn.close_on_drop();
        }
    }
}

/// Run `work` in one transaction on `conn`, begun with `begin`; `check`
/// runs just before `COMMIT` and may call it off. On any error the
/// transaction is rolled back and, unless only `Conflict` or `NotFound`
/// was found or `keep` is set (an in-memory database lives in its
/// connection), the connection is closed: the next use gets a fresh one.
async fn transaction<T, W>(
    conn: PoolConnection<Sqlite>,
    what: &'static str,
    begin: &'static str,
    keep: bool,
    check: impl FnOnce() -> Result<(), StorageError>,
    work: W,
) -> Result<T, StorageError>
where
    W: for<'c> Work<'c, T>,
{
    let mut held = InTransaction {
        conn: Some(conn),
        keep,
    };
    let result = async {
        sqlx::raw_sql(begin).execute(&mut *held.conn()).await?;
        let value = work(held.conn()).await?;
        check()?;
        sqlx::raw_sql("COMMIT").execute(&mut *held.conn()).await?;
        Ok(value)
    }
    .await
    .map_err(classify);
    let e = match result {
        Ok(value) => {
            held.end();
            return Ok(value);
        }
        Err(e) => e,
    };
    // Not committed: roll back whatever is left (SQLite may have rolled
    // back by itself already; then this fails harmlessly).
    let rolled_back = sqlx::raw_sql("ROLLBACK").execute(&mut *held.conn()).await;
    let conn = held.end();
    match e {
        StorageError::Conflict | StorageError::NotFound if rolled_back.is_ok() => return Err(e),
        _ => {}
    }
    if keep {
        tracing::error!(op = what, error = %e, "database error; rolled back");
    } else {
        tracing::error!(op = what, error = %e, "database error; rolled back, connection closed");
        if let Err(close) = conn.close().await {
            tracing::warn!(op = what, error = %close, "closing the failed connection failed");
        }
    }
    Err(e)
}

impl SqliteStorage {
    /// Open `url` (`sqlite:PATH`, `sqlite://PATH`, `sqlite::memory:`),
    /// creating the file and its folder if needed, and migrate it.
    pub async fn open(url: &str) -> Result<SqliteStorage, StorageError> {
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
        // NORMAL: in WAL mode a commit survives the process (a crash, a
        // restart); only a power loss may take the last ones. FULL (an
        // fsync per commit) costs the round trip several times over.
        let options = options
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal);
        // Create and migrate on a connection of its own, closed after.
        let mut conn = SqliteConnection::connect_with(&options).await?;
        let migrated = MIGRATOR.run(&mut conn).await;
        conn.close().await?;
        migrated?;
        let options = options.create_if_missing(false);
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
            transaction(
                conn,
                what,
                "BEGIN IMMEDIATE",
                self.path.is_none(),
                moved,
                work,
            )
            .await
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
        transaction(conn, what, "BEGIN", self.path.is_none(), || Ok(()), work).await
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

/// Nothing follows an import: new games get ids after the largest.
async fn after_import(_: &mut Conn) -> Result<(), sqlx::Error> {
    Ok(())
}

impl Storage for SqliteStorage {
    sql::storage_methods!();

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
