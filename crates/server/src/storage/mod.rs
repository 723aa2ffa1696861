//! Where games live: the [`Storage`] trait and its backends, chosen by the
//! database URL's scheme: SQLite (`sqlite:…`, the default) and PostgreSQL
//! (`postgres://…`). Both run their own migrations and plain runtime
//! queries. PostgreSQL may be shared by several server instances: its
//! storage also offers a [`Cluster`] (change notifications, computer
//! leases; crate::cluster).

mod analysis;
mod chat;
mod lobby;
mod postgres;
mod record;
mod sql;
mod sqlite;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;

pub use crate::game::{Status, Variant};
pub use analysis::{AnalysisClaim, AnalysisProgress, StoredAnalysis};
pub use chat::{
    ChatLimit, ChatMessage, ChatPosted, ChatReport, ChatRoom, NewChatMessage, NewReport, chat_wait,
};
pub use lobby::{Invitation, InvitationTerms, InvitationsOf, Rematch, SETTLED_KEPT_MS};
pub use postgres::PgStorage;
pub use record::{AccountRecord, GameRecord, RecordClock, RecordMove, RecordSeat};
pub use sqlite::{APPLICATION_ID, Integrity, SqliteStorage};

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
    /// An imported game's id is taken already; nothing of the batch was
    /// written.
    #[error("game {0} exists already in the target database")]
    Exists(i64),
    /// An imported account's id or name is taken already; nothing of the
    /// batch was written.
    #[error("account {0} exists already in the target database")]
    AccountExists(String),
    /// A stored value could not be understood.
    #[error("corrupt stored data: {0}")]
    Corrupt(String),
    /// The SQLite file is damaged (found when it is opened): it is neither
    /// used nor changed.
    #[error(
        "the database file {} is damaged: {reason}. brett will not use or change it. Restore \
         it from a backup, or save the games that can still be read with `brett db export \
         --database {} --out FILE` (which reads a damaged file without changing it) and move \
         them into a new database with `brett db import`",
        path.display(),
        sqlite_url_of(path)
    )]
    CorruptFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The file is not a brett database (another program's SQLite file, or
    /// no SQLite file at all): it is neither used nor changed.
    #[error(
        "{} is not a brett database ({found}); brett will not change it. Name brett's own \
         database with --database, or a new file",
        path.display()
    )]
    NotBrett {
        /// The file.
        path: PathBuf,
        /// What was found instead: its application id, its tables.
        found: String,
    },
    /// The database cannot be used right now: the disk is full or
    /// read-only, an I/O error, the file cannot be opened. Nothing was
    /// written (but for one rare case, see docs/API.md, "Storage faults");
    /// the same request may work later.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    /// Any other error of the database (a fault of the statement or the
    /// data; the backends turn the "cannot be used now" ones into
    /// `Unavailable`).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The tables could not be created or updated.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A file could not be read or written (the SQLite file, an export).
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
    /// The account that holds the seat (`None`: a guest, the computer, an
    /// imported game).
    pub account: Option<i64>,
}

/// How a game ended, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameMeta {
    /// Whether the game goes on.
    pub status: Status,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: Option<String>,
    /// `two-stones`, `blocked`, … (docs/API.md).
    pub reason: Option<String>,
    /// `white` or `black`: whose draw offer stands.
    pub draw_offer: Option<String>,
    /// Dame with huffing: the square of a piece huffed this turn, before
    /// the move not yet made. Stored in the move list, after the moves
    /// (see [`huff_token`]); not read for the archive ([`GameSummary`]).
    pub pending_huff: Option<String>,
    /// When the game last changed (RFC 3339, UTC).
    pub updated_at: String,
    /// A timed game's clock (`None`: untimed).
    pub clock: Option<ClockMeta>,
}

/// A timed game's clock as stored (crate::clocks).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockMeta {
    /// The time control's text form (`5+3`, `3d`).
    pub control: String,
    /// White's and Black's time left in milliseconds, as of the start of
    /// the turn being played.
    pub remaining_ms: [i64; 2],
    /// When the turn being played started (milliseconds since the Unix
    /// epoch); `None` while no clock runs (the game has not begun, or is
    /// over).
    pub turn_started_at: Option<i64>,
    /// When the side to move runs out of time, or an online game's first
    /// move is overdue (it is aborted then); `None`: no deadline.
    pub deadline: Option<i64>,
}

/// A game as stored: its id and version, and what was stored of it (its
/// fields are read through the stored game: `g.moves`, `g.meta`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's number, its address in the API (`/api/games/{id}`).
    pub id: i64,
    /// The stored game's version: 0 when created, one more with every
    /// change ([`Storage::update_game`], [`Storage::update_seat`]), which
    /// names the version it was made on.
    pub version: i64,
    /// Whether the game is rated (docs/API.md, "Ratings").
    pub rated: bool,
    /// The game, its moves, course and seats.
    pub stored: NewGame,
}

impl std::ops::Deref for StoredGame {
    type Target = NewGame;

    fn deref(&self) -> &NewGame {
        &self.stored
    }
}

/// The stored game a change was made on: every change names it, and is
/// refused with [`StorageError::Conflict`] when the game is no longer at
/// it (another change came first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The number of moves stored.
    pub ply: usize,
    /// The game's [`StoredGame::version`].
    pub version: i64,
}

/// A game to store (its id is chosen by the storage), and what a
/// [`StoredGame`] holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The game.
    pub game: Variant,
    /// `computer`, `local`, `online`, `imported`.
    pub kind: String,
    /// The rule set's text form.
    pub rules: String,
    /// The position the game started from (the game's position string).
    pub start_position: String,
    /// The moves in order, in the game's notation (a new game: those
    /// already played, of an imported record; often none).
    pub moves: Vec<String>,
    /// A timed game: White's and Black's time left after each move (in
    /// milliseconds; `None` for moves stored without; shorter than
    /// `moves` when the last moves have none).
    pub move_clocks: Vec<Option<[i64; 2]>>,
    /// Its course: status, result, draw offer, last change.
    pub meta: GameMeta,
    /// White's and Black's seat.
    pub seats: Seats,
    /// Record header tags kept from an import.
    pub tags: Vec<(String, String)>,
    /// When the game was created (RFC 3339, UTC).
    pub created_at: String,
}

/// A change of one seat: its name and joined flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChange {
    /// The game's id.
    pub game: i64,
    /// The game's version the change is made on.
    pub version: i64,
    /// The seat: 0 white, 1 black.
    pub seat: usize,
    /// The player's name.
    pub name: Option<String>,
    /// Whether a person holds the seat.
    pub joined: bool,
    /// The account that takes the seat (`None`: the seat keeps its
    /// account, if any).
    pub account: Option<i64>,
    /// When the change is made (RFC 3339, UTC).
    pub updated_at: String,
    /// The game's clock after the change (`None`: untimed, unchanged).
    pub clock: Option<ClockMeta>,
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
    /// As [`StoredGame::id`].
    pub id: i64,
    /// As [`NewGame::game`].
    pub game: Variant,
    /// As [`NewGame::kind`].
    pub kind: String,
    /// As [`NewGame::rules`].
    pub rules: String,
    /// As [`NewGame::seats`].
    pub seats: Seats,
    /// The number of moves played.
    pub ply: usize,
    /// As [`NewGame::meta`].
    pub meta: GameMeta,
    /// As [`NewGame::created_at`].
    pub created_at: String,
    /// As [`StoredGame::rated`].
    pub rated: bool,
}

/// Which games a list shows ([`Storage::find_games`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only the games whose seats this account holds.
    pub account: Option<i64>,
    /// Only the games in this state.
    pub status: StatusFilter,
    /// Only games of this catalogue name (`muehle`, `dame-100`, …).
    pub game: Option<String>,
    /// Only games with this outcome for [`GameFilter::account`] (for a
    /// list without an account: `Win` White's, `Loss` Black's).
    pub outcome: Option<Outcome>,
    /// Only games a player of this name (any case) played.
    pub player: Option<String>,
    /// Only games created at or after this time (RFC 3339).
    pub since: Option<String>,
    /// Only games created before this time (RFC 3339).
    pub before: Option<String>,
}

/// The state of the games a list shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StatusFilter {
    /// Every game.
    #[default]
    All,
    /// Games that ended, except those aborted (invitations nobody
    /// answered, games nobody began).
    Finished,
    /// Games still being played.
    Ongoing,
}

/// A game's outcome for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side won.
    Win,
    /// The side lost.
    Loss,
    /// A draw.
    Draw,
}

/// One seat's rating change by a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: crate::rating::Rating,
}

/// An account's rating in one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRating {
    /// The pool (crate::rating::pool_of).
    pub pool: String,
    /// The account's name.
    pub name: String,
    /// The rating.
    pub rating: crate::rating::Rating,
    /// The rated games played in the pool.
    pub games: i64,
}

/// One point of an account's rating history.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    /// The pool.
    pub pool: String,
    /// The game that changed the rating.
    pub game: i64,
    /// When (RFC 3339, UTC).
    pub at: String,
    /// The rating after the game.
    pub rating: f64,
    /// The deviation after the game.
    pub deviation: f64,
}

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its number (never shown to other players).
    pub id: i64,
    /// The name, as registered.
    pub name: String,
    /// The password's hash: an argon2id PHC string
    /// (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`).
    pub password_hash: String,
    /// When it was registered (RFC 3339, UTC).
    pub created_at: String,
    /// The language the player chose (`de`, `en`, …).
    pub language: Option<String>,
    /// Closed by the operator: nobody logs in to it.
    pub closed: bool,
}

/// An account to register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAccount {
    /// The name.
    pub name: String,
    /// The name as it is unique: [`name_key`] of the name.
    pub name_key: String,
    /// The password's hash (PHC string).
    pub password_hash: String,
    /// When it is registered (RFC 3339, UTC).
    pub created_at: String,
}

/// The form of an account name that is unique: lower case, so `Anna` and
/// `anna` are one name.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// A login: the account's cookie token (its SHA-256, hex) and how long it
/// holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLogin {
    /// SHA-256 (hex) of the cookie's token.
    pub token_hash: String,
    /// The account.
    pub account: i64,
    /// When it was made (milliseconds since the Unix epoch).
    pub created_at: i64,
    /// When it ends (milliseconds since the Unix epoch).
    pub expires_at: i64,
}

/// The name a deleted account's games show for its seats: a fixed marker
/// that clients word in their language.
pub const DELETED_PLAYER: &str = "(deleted player)";

/// A place to keep games. Every method is one atomic step: a change either
/// is stored completely or not at all.
pub trait Storage: Send + Sync + 'static {
    /// Store a new game (with its moves, for imports); returns its id.
    fn create_game(&self, game: NewGame) -> BoxFuture<'_, Result<i64, StorageError>>;

    /// Store a new game as [`Storage::create_game`] does, rated or not
    /// (docs/API.md, "Ratings"). A rated game's ending with a result
    /// ([`Storage::update_game`]) changes the ratings of the accounts that
    /// hold its seats, in the same transaction, once.
    fn create_game_rated(
        &self,
        game: NewGame,
        rated: bool,
    ) -> BoxFuture<'_, Result<i64, StorageError>>;

    /// The rating changes of rated game `id` (White, Black), once it has
    /// ended with a result.
    fn game_ratings(
        &self,
        id: i64,
    ) -> BoxFuture<'_, Result<Option<[RatingChange; 2]>, StorageError>>;

    /// The ratings of pool `pool`, best first: up to `limit`, the
    /// provisional ones after the others.
    fn leaderboard(
        &self,
        pool: String,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<PoolRating>, StorageError>>;

    /// Account `account`'s ratings, one per pool it has played rated in.
    fn account_ratings(&self, account: i64)
    -> BoxFuture<'_, Result<Vec<PoolRating>, StorageError>>;

    /// Account `account`'s rating history, oldest first.
    fn rating_history(&self, account: i64)
    -> BoxFuture<'_, Result<Vec<RatingPoint>, StorageError>>;

    /// Read a game with all its moves.
    fn load_game(&self, id: i64) -> BoxFuture<'_, Result<Option<StoredGame>, StorageError>>;

    /// Change a game: it must stand at `expected` (its number of stored
    /// moves and its version; else [`StorageError::Conflict`] and nothing
    /// changes); the move list changes as `change` says and the outcome,
    /// draw offer and update time become `meta`. One transaction; returns
    /// the game's new version. Of two changes made on the same version,
    /// exactly one is stored, whatever they change.
    fn update_game(
        &self,
        id: i64,
        expected: Expected,
        change: MoveChange,
        meta: GameMeta,
    ) -> BoxFuture<'_, Result<i64, StorageError>>;

    /// Set one seat of a game as `change` says. The game must be at the
    /// change's version (else [`StorageError::Conflict`]); returns the new
    /// version.
    fn update_seat(&self, change: SeatChange) -> BoxFuture<'_, Result<i64, StorageError>>;

    /// The archive, newest first, and the number of games in all.
    fn list_games(
        &self,
        limit: u32,
        offset: u32,
    ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>>;

    /// The games `filter` lets through, newest first, and their number.
    fn find_games(
        &self,
        filter: GameFilter,
        limit: u32,
        offset: u32,
    ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>>;

    /// Online games still waiting for their second player that were
    /// created before `before` (RFC 3339), or, with a correspondence time
    /// control, before `before_correspondence`: the invitations that
    /// expire.
    fn unanswered_invitations(
        &self,
        before: String,
        before_correspondence: String,
    ) -> BoxFuture<'_, Result<Vec<i64>, StorageError>>;

    /// Ids of the ongoing games that have a computer seat.
    fn ongoing_computer_games(&self) -> BoxFuture<'_, Result<Vec<i64>, StorageError>>;

    /// Up to `limit` games with an id above `after_id`, by id, with
    /// everything stored about them (`brett db export`).
    fn export_games(
        &self,
        after_id: i64,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<GameRecord>, StorageError>>;

    /// Store games exported from a database, with their ids (`brett db
    /// import`); one transaction: if an id exists already
    /// ([`StorageError::Exists`]) nothing is written.
    fn import_games(&self, games: Vec<GameRecord>) -> BoxFuture<'_, Result<(), StorageError>>;

    /// What the database offers to several instances sharing it (`None`:
    /// only one instance uses it, as with SQLite).
    fn cluster(&self) -> Option<&dyn Cluster> {
        None
    }

    /// The ongoing games with a clock deadline (crate::clocks): their ids
    /// and deadlines (milliseconds since the Unix epoch), all of them or
    /// those due by `due_by`.
    fn clock_deadlines(
        &self,
        due_by: Option<i64>,
    ) -> BoxFuture<'_, Result<Vec<(i64, i64)>, StorageError>>;

    /// A server says it is running at `now` (milliseconds since the Unix
    /// epoch). If no server has said so since before `now - stale_ms`
    /// (every server was down), the time since the last word is given
    /// back to every running clock: their turns and deadlines move on by
    /// it. One transaction; returns the time given back.
    fn clocks_alive(&self, now: i64, stale_ms: i64) -> BoxFuture<'_, Result<i64, StorageError>>;

    /// Register an account; `None` when its name (by
    /// [`NewAccount::name_key`]) is taken.
    fn create_account(
        &self,
        account: NewAccount,
    ) -> BoxFuture<'_, Result<Option<i64>, StorageError>>;

    /// The account whose [`name_key`] is `key`.
    fn account_by_name(&self, key: &str) -> BoxFuture<'_, Result<Option<Account>, StorageError>>;

    /// The account `id`.
    fn account_by_id(&self, id: i64) -> BoxFuture<'_, Result<Option<Account>, StorageError>>;

    /// The account of the login whose token has the hash `token_hash`, if
    /// that login has not ended by `now` (milliseconds since the Unix
    /// epoch); the login's last use becomes `now` (at most once a minute).
    fn account_by_login(
        &self,
        token_hash: &str,
        now: i64,
    ) -> BoxFuture<'_, Result<Option<Account>, StorageError>>;

    /// Store a login; the logins that have ended by its creation are
    /// deleted with it.
    fn create_login(&self, login: NewLogin) -> BoxFuture<'_, Result<(), StorageError>>;

    /// End the login whose token has the hash `token_hash`.
    fn delete_login(&self, token_hash: &str) -> BoxFuture<'_, Result<(), StorageError>>;

    /// Set account `account`'s password hash. With `end_logins_but`, every
    /// login of the account ends but that one (a changed password); without,
    /// the logins stay (the same password hashed anew). `false`: no such
    /// account.
    fn set_password(
        &self,
        account: i64,
        password_hash: String,
        end_logins_but: Option<String>,
    ) -> BoxFuture<'_, Result<bool, StorageError>>;

    /// Delete account `account` and its logins. Its games stay: the seats
    /// it held lose their account and their names become
    /// [`DELETED_PLAYER`]. Returns the ids of those games (`None`: no such
    /// account).
    fn delete_account(&self, account: i64)
    -> BoxFuture<'_, Result<Option<Vec<i64>>, StorageError>>;

    /// Set account `account`'s language (`None`: the browser's); `false`
    /// when there is no such account.
    fn set_language(
        &self,
        account: i64,
        language: Option<String>,
    ) -> BoxFuture<'_, Result<bool, StorageError>>;

    /// The games account `account` holds a seat of, newest first, and their
    /// number.
    fn account_games(
        &self,
        account: i64,
        limit: u32,
        offset: u32,
    ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>>;

    /// Every account (`brett db export`), by id.
    fn export_accounts(&self) -> BoxFuture<'_, Result<Vec<AccountRecord>, StorageError>>;

    /// Store accounts exported from a database, with their ids (`brett db
    /// import`, before their games); one transaction: if an id or a name is
    /// taken already ([`StorageError::AccountExists`]) nothing is written.
    fn import_accounts(
        &self,
        accounts: Vec<AccountRecord>,
    ) -> BoxFuture<'_, Result<(), StorageError>>;

    /// Store a chat message unless its author (its account, else its
    /// seat) has written as much in the game as `limits` allow
    /// ([`ChatPosted::RateLimited`], nothing stored). Other instances are
    /// told of it ([`ClusterEvent::Chat`]).
    fn add_chat(
        &self,
        message: NewChatMessage,
        limits: Vec<ChatLimit>,
    ) -> BoxFuture<'_, Result<ChatPosted, StorageError>>;

    /// The messages of a game's room, oldest first (the newest
    /// [`chat::CHAT_LIST_MAX`] at most), but those of closed accounts and,
    /// for `reader`, of the accounts it blocked.
    fn chat_messages(
        &self,
        game: i64,
        room: ChatRoom,
        reader: Option<i64>,
    ) -> BoxFuture<'_, Result<Vec<ChatMessage>, StorageError>>;

    /// The chat message `id`, whoever wrote it.
    fn chat_message(&self, id: i64) -> BoxFuture<'_, Result<Option<ChatMessage>, StorageError>>;

    /// Account `blocker` blocks account `blocked` (`since`: from then
    /// on), or no longer does (`None`); `false`: it was so already.
    fn set_block(
        &self,
        blocker: i64,
        blocked: i64,
        since: Option<String>,
    ) -> BoxFuture<'_, Result<bool, StorageError>>;

    /// Whether account `blocker` blocked account `blocked` (one way; a
    /// challenge checks both ways).
    fn blocked(&self, blocker: i64, blocked: i64) -> BoxFuture<'_, Result<bool, StorageError>>;

    /// The names of the accounts `blocker` blocked, by name.
    fn blocked_names(&self, blocker: i64) -> BoxFuture<'_, Result<Vec<String>, StorageError>>;

    /// Store a report: its id, `None` if its reporter reported the message
    /// already.
    fn report_chat(&self, report: NewReport) -> BoxFuture<'_, Result<Option<i64>, StorageError>>;

    /// The reports still open (`all`: every report), oldest first.
    fn chat_reports(&self, all: bool) -> BoxFuture<'_, Result<Vec<ChatReport>, StorageError>>;

    /// Close report `id` (`by`: who did, `at`: when); `false`: no such
    /// open report.
    fn resolve_report(
        &self,
        id: i64,
        by: String,
        at: String,
    ) -> BoxFuture<'_, Result<bool, StorageError>>;

    /// Close account `account` (its logins end, nobody logs in to it, its
    /// chat messages are hidden; its games stay) or open it again;
    /// `false`: no such account.
    fn set_account_closed(
        &self,
        account: i64,
        closed: bool,
    ) -> BoxFuture<'_, Result<bool, StorageError>>;

    /// Post an invitation of the lobby at `now`, unless its account has
    /// `max_open` open ones of its kind (seeks, challenges) already
    /// (`None`).
    fn post_invitation(
        &self,
        new: InvitationTerms,
        now: i64,
        max_open: u32,
    ) -> BoxFuture<'_, Result<Option<Invitation>, StorageError>>;

    /// The invitations `of` lists, as of `now`.
    fn invitations(
        &self,
        of: InvitationsOf,
        now: i64,
    ) -> BoxFuture<'_, Result<Vec<Invitation>, StorageError>>;

    /// Invitation `id`.
    fn invitation(&self, id: i64) -> BoxFuture<'_, Result<Option<Invitation>, StorageError>>;

    /// Invitation `id` goes from status `from` to `to` (with the game it
    /// started), if it still has status `from`: of two at once, exactly
    /// one does (`true`).
    fn settle_invitation(
        &self,
        id: i64,
        from: &'static str,
        to: &'static str,
        game: Option<i64>,
        now: i64,
    ) -> BoxFuture<'_, Result<bool, StorageError>>;

    /// The open live invitations of `accounts` are renewed at `now`.
    fn renew_invitations(
        &self,
        accounts: Vec<i64>,
        now: i64,
    ) -> BoxFuture<'_, Result<(), StorageError>>;

    /// Open live invitations not renewed for `lapse_ms` lapse; those that
    /// did here, and settled ones older than [`SETTLED_KEPT_MS`] are
    /// deleted.
    fn sweep_invitations(
        &self,
        now: i64,
        lapse_ms: i64,
    ) -> BoxFuture<'_, Result<Vec<Invitation>, StorageError>>;

    /// The online games being played (both seats joined), newest first.
    fn live_games(&self, limit: u32) -> BoxFuture<'_, Result<Vec<GameSummary>, StorageError>>;

    /// The rematch offer of game `game`.
    fn rematch(&self, game: i64) -> BoxFuture<'_, Result<Option<Rematch>, StorageError>>;

    /// Change game `game`'s rematch offer; whether it changed (an offer
    /// is made once; a claim or withdrawal only of an offer not accepted).
    /// The game counts as changed for the other instances.
    fn change_rematch(
        &self,
        game: i64,
        change: RematchChange,
    ) -> BoxFuture<'_, Result<bool, StorageError>>;

    /// The analysis of game `game` (crate::game_analysis), if one was
    /// started.
    fn game_analysis(
        &self,
        game: i64,
    ) -> BoxFuture<'_, Result<Option<StoredAnalysis>, StorageError>>;

    /// Take on the analysis of game `game`: start it (no positions,
    /// `claim.time_ms` per position) if there is none, or take over a
    /// running one last renewed before `claim.stale_before` (interrupted);
    /// the analysis as it is now, or `None` when it is done or another one
    /// works on it.
    fn claim_game_analysis(
        &self,
        game: i64,
        claim: AnalysisClaim,
    ) -> BoxFuture<'_, Result<Option<StoredAnalysis>, StorageError>>;

    /// Store the positions analysed so far of game `game`'s running
    /// analysis (`done`: all of them).
    fn save_game_analysis(
        &self,
        game: i64,
        progress: AnalysisProgress,
    ) -> BoxFuture<'_, Result<(), StorageError>>;

    /// Close the connections (waits for writes in progress).
    fn close(&self) -> BoxFuture<'_, ()>;
}

/// Whether either of two accounts blocked the other (a challenge between
/// them is refused).
pub async fn blocked_either(storage: &dyn Storage, a: i64, b: i64) -> Result<bool, StorageError> {
    Ok(storage.blocked(a, b).await? || storage.blocked(b, a).await?)
}

/// A change of a game stored by another instance (a notification).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteChange {
    /// The game's id.
    pub game: i64,
    /// The number of moves after the change.
    pub ply: usize,
}

/// A change of a rematch offer ([`Storage::change_rematch`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RematchChange {
    /// `side` (0 White, 1 Black) offers; its seat's next token's hash.
    Offer {
        /// The side that offers.
        side: usize,
        /// As [`Rematch::next_token_hash`].
        next_token_hash: Option<String>,
    },
    /// The opponent of `offered_by` accepts (before the game is created).
    Claim {
        /// The side that offered.
        offered_by: usize,
    },
    /// The new game was created.
    Created(i64),
    /// The offer is withdrawn or declined.
    Withdraw,
}

/// How long an instance's count of sockets lasts without renewal.
pub const PRESENCE_LAPSE_MS: i64 = 10_000;

/// The sockets other instances hold of one seat of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RemotePresence {
    /// Their sockets of the seat.
    pub sockets: usize,
    /// When the last of their counts changed (`None`: never).
    pub changed_at: Option<i64>,
}

/// What comes from a [`Cluster::listen`]ing connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClusterEvent {
    /// The listening connection is established (the first time).
    Listening,
    /// Another instance changed a game.
    Changed(RemoteChange),
    /// Another instance stored a chat message of a game.
    Chat {
        /// The game.
        game: i64,
        /// The message.
        message: i64,
    },
    /// Another instance's lobby message (crate::lobby).
    Lobby(String),
    /// The listening connection was (re)established: changes made while
    /// it was down were not heard, every game in memory must be read anew.
    Resync,
}

/// Several server instances on one database: every change of a game is
/// announced to the others, and the computer's move of a game is searched
/// by the one instance that holds the game's lease.
pub trait Cluster: Send + Sync {
    /// This instance's id (random, new at each start).
    fn instance(&self) -> &str;

    /// How long a lease lasts without renewal.
    fn lease_duration(&self) -> Duration;

    /// Take the lease of game `game`'s computer move: `Some(token)` if this
    /// instance holds it now (it was free, expired or ours), `None` if
    /// another instance does. Held leases are renewed by
    /// [`Cluster::renew_leases`] until released with the token.
    fn take_lease(&self, game: i64) -> BoxFuture<'_, Result<Option<u64>, StorageError>>;

    /// Give up the lease taken with `token` (a later take of the same game
    /// by this instance keeps it).
    fn release_lease(&self, game: i64, token: u64) -> BoxFuture<'_, ()>;

    /// Extend the leases this instance holds.
    fn renew_leases(&self) -> BoxFuture<'_, Result<(), StorageError>>;

    /// Claim the expired leases (of instances that died, stopped or lost
    /// the database) for this instance: their games with the tokens of the
    /// claims. Each expired lease goes to one instance, which reads the
    /// game anew (taking the lease with [`Cluster::take_lease`] if the
    /// computer is to move) and then releases the claim's token; a claim
    /// not released (the instance died too) expires in turn.
    fn claim_expired_leases(&self) -> BoxFuture<'_, Result<Vec<(i64, u64)>, StorageError>>;

    /// This instance holds `sockets` sockets of seat `seat` (0 White, 1
    /// Black; 2 the spectators) of game `game` since `at` (milliseconds
    /// since the Unix epoch); the other instances are told as of a change
    /// of the game (of the spectators, with its next change).
    fn set_presence(
        &self,
        game: i64,
        seat: usize,
        sockets: usize,
        at: i64,
    ) -> BoxFuture<'_, Result<(), StorageError>>;

    /// The sockets the other instances hold of each seat of game `game`
    /// (White, Black) at `now`, and when their count last changed. An
    /// instance's count not renewed ([`Cluster::renew_presence`]) for
    /// [`PRESENCE_LAPSE_MS`] is none (the instance is gone), as of then.
    fn presence(
        &self,
        game: i64,
        now: i64,
    ) -> BoxFuture<'_, Result<[RemotePresence; 2], StorageError>>;

    /// The spectators' sockets (seat index 2 of [`Cluster::set_presence`])
    /// the other instances hold of game `game` at `now`.
    fn spectators(&self, game: i64, now: i64) -> BoxFuture<'_, Result<usize, StorageError>>;

    /// Tell the other instances' lobbies `message` (crate::lobby).
    fn announce_lobby(&self, message: String) -> BoxFuture<'_, Result<(), StorageError>>;

    /// The sockets this instance holds are still open at `now`.
    fn renew_presence(&self, now: i64) -> BoxFuture<'_, Result<(), StorageError>>;

    /// Listen for the changes of other instances: events go to `tx` until
    /// it is closed or `closing` turns true. Reconnects by itself.
    fn listen(
        &self,
        tx: tokio::sync::mpsc::Sender<ClusterEvent>,
        closing: tokio::sync::watch::Receiver<bool>,
    ) -> BoxFuture<'static, ()>;
}

/// How a storage is opened.
#[derive(Clone, Debug)]
pub struct StorageOptions {
    /// The lease of a computer move (several instances on PostgreSQL):
    /// after this long without renewal another instance takes it over.
    pub computer_lease: Duration,
    /// SQLite: the longest the integrity check of the file at open
    /// (`PRAGMA quick_check`) may take. When it is reached the check stops
    /// and the file is used unchecked, with a warning in the log; zero: no
    /// such check (the file's header and application id are checked still).
    pub integrity_check: Duration,
}

/// The default of [`StorageOptions::integrity_check`].
pub const DEFAULT_INTEGRITY_CHECK: Duration = Duration::from_secs(30);

impl Default for StorageOptions {
    fn default() -> StorageOptions {
        StorageOptions {
            computer_lease: Duration::from_secs(10),
            integrity_check: DEFAULT_INTEGRITY_CHECK,
        }
    }
}

/// The URL of the SQLite file at `path`.
pub fn sqlite_url_of(path: &std::path::Path) -> String {
    format!("sqlite://{}", path.display())
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
    sqlite_url_of(&default_database_path())
}

/// Open (creating and migrating as needed) the database at `url`; the
/// scheme chooses the backend.
pub async fn open(url: &str) -> Result<Arc<dyn Storage>, StorageError> {
    open_with(url, &StorageOptions::default()).await
}

/// [`open`] with options.
pub async fn open_with(
    url: &str,
    options: &StorageOptions,
) -> Result<Arc<dyn Storage>, StorageError> {
    match backend_of(url)? {
        Backend::Sqlite => Ok(Arc::new(SqliteStorage::open_with(url, options).await?)),
        Backend::Postgres => Ok(Arc::new(PgStorage::open(url, options).await?)),
    }
}

/// The backends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `sqlite:PATH` or `sqlite::memory:` (the default: one file).
    Sqlite,
    /// `postgres://…` or `postgresql://…` (several instances may share it).
    Postgres,
}

/// The backend a database URL names.
pub fn backend_of(url: &str) -> Result<Backend, StorageError> {
    let scheme = url.split(':').next().unwrap_or("").to_ascii_lowercase();
    match scheme.as_str() {
        "sqlite" => Ok(Backend::Sqlite),
        "postgres" | "postgresql" => Ok(Backend::Postgres),
        _ => Err(StorageError::Unsupported(format!(
            "database '{}': unknown scheme '{scheme}' (supported: sqlite:PATH, sqlite::memory:, \
             postgres://USER@HOST/DB)",
            redact_url(url)
        ))),
    }
}

/// `url` without its password, for messages and logs.
pub fn redact_url(url: &str) -> String {
    // scheme://user:password@host… → scheme://user:***@host…
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords() {
        assert_eq!(
            redact_url("postgres://brett:secret@db.lan:5432/brett?sslmode=require"),
            "postgres://brett:***@db.lan:5432/brett?sslmode=require"
        );
        assert_eq!(redact_url("postgres://brett@db/x"), "postgres://brett@db/x");
        assert_eq!(redact_url("sqlite:///tmp/a.db"), "sqlite:///tmp/a.db");
    }

    #[test]
    fn backends_by_scheme() {
        assert_eq!(backend_of("sqlite::memory:").unwrap(), Backend::Sqlite);
        assert_eq!(backend_of("postgres://x/y").unwrap(), Backend::Postgres);
        assert_eq!(backend_of("postgresql://x/y").unwrap(), Backend::Postgres);
        assert!(backend_of("mysql://x").is_err());
    }
}
