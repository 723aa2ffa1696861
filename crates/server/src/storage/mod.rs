//! Where games live: the [`Storage`] trait and its backends, chosen by the
//! database URL's scheme. Only SQLite (`sqlite:…`) exists today; a
//! PostgreSQL backend would be another implementation of the same trait.

mod sqlite;

use std::path::PathBuf;
use std::sync::Arc;

use futures_util::future::BoxFuture;

pub use sqlite::SqliteStorage;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The game changed since it was read (another writer won); nothing was
    /// written.
    #[error("the game changed meanwhile")]
    Conflict,
    /// No such game.
    #[error("no such game")]
    NotFound,
    /// The database URL names a backend that does not exist.
    #[error("{0}")]
    Unsupported(String),
    /// A stored value could not be understood.
    #[error("corrupt stored data: {0}")]
    Corrupt(String),
    /// The database cannot be used right now: the disk is full or
    /// read-only, an I/O error, the file cannot be opened. Nothing was
    /// written (but for one rare case, see docs/API.md, "Storage faults");
    /// the same request may work later.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The two seats of a game, White first.
pub type Seats = [Seat; 2];

/// One seat of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seat {
    /// SHA-256 (hex) of the seat's secret token; `None`: nobody can move for
    /// this seat through the API (the computer, or an imported game).
    pub token_hash: Option<String>,
    /// The player's display name, if given.
    pub name: Option<String>,
    /// Whether a person holds the seat (always for the creator).
    pub joined: bool,
    /// The computer's level when the computer holds the seat.
    pub level: Option<u8>,
}

/// How a game ended, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameMeta {
    /// `ongoing` or `over`.
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: Option<String>,
    /// `two-stones`, `blocked`, … (docs/API.md).
    pub reason: Option<String>,
    /// `white` or `black`: whose draw offer stands.
    pub draw_offer: Option<String>,
    /// Dame with huffing: the square of a piece huffed this turn, before
    /// the move not yet made.
    pub pending_huff: Option<String>,
    pub updated_at: String,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: i64,
    /// `muehle` (later `dame`, …).
    pub game: String,
    /// `computer`, `local`, `online`, `imported`.
    pub kind: String,
    /// The rule set's text form.
    pub rules: String,
    pub start_position: String,
    /// The moves in order, in the game's notation.
    pub moves: Vec<String>,
    pub meta: GameMeta,
    pub seats: Seats,
    /// Record header tags kept from an import.
    pub tags: Vec<(String, String)>,
    pub created_at: String,
}

/// A game to store. `id` is chosen by the storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub game: String,
    pub kind: String,
    pub rules: String,
    pub start_position: String,
    pub moves: Vec<String>,
    pub meta: GameMeta,
    pub seats: Seats,
    pub tags: Vec<(String, String)>,
    pub created_at: String,
}

/// What a change does to the move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveChange {
    /// The move list stays as it is.
    Keep,
    /// One move is appended.
    Append(String),
    /// The moves from this ply on are deleted (a takeback).
    Truncate(usize),
}

/// One line of the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: i64,
    pub game: String,
    pub kind: String,
    pub rules: String,
    pub seats: Seats,
    pub ply: usize,
    pub meta: GameMeta,
    pub created_at: String,
}

/// A place to keep games. Every method is one atomic step: a change either
/// is stored completely or not at all.
pub trait Storage: Send + Sync + 'static {
    /// Store a new game (with its moves, for imports); returns its id.
    fn create_game(&self, game: NewGame) -> BoxFuture<'_, Result<i64, StorageError>>;

    /// Read a game with all its moves.
    fn load_game(&self, id: i64) -> BoxFuture<'_, Result<Option<StoredGame>, StorageError>>;

    /// Change a game: `expected_ply` must be the number of stored moves
    /// (else [`StorageError::Conflict`] and nothing changes); the move list
    /// changes as `change` says and the outcome, draw offer and update time
    /// become `meta`. One transaction.
    fn update_game(
        &self,
        id: i64,
        expected_ply: usize,
        change: MoveChange,
        meta: GameMeta,
    ) -> BoxFuture<'_, Result<(), StorageError>>;

    /// Set one seat (0 white, 1 black): its name and joined flag.
    fn update_seat(
        &self,
        id: i64,
        seat: usize,
        name: Option<String>,
        joined: bool,
        updated_at: String,
    ) -> BoxFuture<'_, Result<(), StorageError>>;

    /// The archive, newest first, and the number of games in all.
    fn list_games(
        &self,
        limit: u32,
        offset: u32,
    ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>>;

    /// Ids of the ongoing games that have a computer seat.
    fn ongoing_computer_games(&self) -> BoxFuture<'_, Result<Vec<i64>, StorageError>>;

    /// Close the connections (waits for writes in progress).
    fn close(&self) -> BoxFuture<'_, ()>;
}

/// The default database: `$XDG_DATA_HOME/brett/brett.db`, else
/// `$HOME/.local/share/brett/brett.db`, else `./brett.db`.
pub fn default_database_path() -> PathBuf {
    let non_empty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(x) = non_empty("XDG_DATA_HOME") {
        return PathBuf::from(x).join("brett").join("brett.db");
    }
    if let Some(h) = non_empty("HOME") {
        return PathBuf::from(h)
            .join(".local")
            .join("share")
            .join("brett")
            .join("brett.db");
    }
    PathBuf::from("brett.db")
}

/// The default database as a URL.
pub fn default_database_url() -> String {
    format!("sqlite://{}", default_database_path().display())
}

/// Open (creating and migrating as needed) the database at `url`; the
/// scheme chooses the backend.
pub async fn open(url: &str) -> Result<Arc<dyn Storage>, StorageError> {
    let scheme = url.split(':').next().unwrap_or("").to_ascii_lowercase();
    match scheme.as_str() {
        "sqlite" => Ok(Arc::new(SqliteStorage::open(url).await?)),
        "postgres" | "postgresql" => Err(StorageError::Unsupported(format!(
            "database '{url}': PostgreSQL is not supported yet; use a sqlite: URL"
        ))),
        _ => Err(StorageError::Unsupported(format!(
            "database '{url}': unknown scheme '{scheme}' (supported: sqlite:PATH, sqlite::memory:)"
        ))),
    }
}
