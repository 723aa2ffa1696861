//! The SQLite file is checked when it is opened, before anything writes to
//! it: a damaged file (cut short, a page written over) and another
//! program's file are refused and left byte for byte as they were; an empty
//! file, a new path and a database made before brett marked its files are
//! taken (and marked); the check stops at its time limit and the file is
//! then used unchecked.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::common::{meta, person};
use server::storage::{
    self, APPLICATION_ID, Expected, Integrity, MoveChange, NewGame, SqliteStorage, Storage,
    StorageError, StorageOptions, Variant,
};
use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};

/// Game `i`, its moves played already (as an imported record).
fn new_game(i: usize, moves: usize) -> NewGame {
    let cycle = ["d6", "f4", "d2", "b4", "a1", "g7", "a7", "g1"];
    NewGame {
        game: Variant::Muehle,
        kind: "local".into(),
        rules: "standard".into(),
        start_position: ".../.../.../....../.../.../... w 9 9 0 1".into(),
        moves: (0..moves)
            .map(|k| cycle[k % cycle.len()].to_string())
            .collect(),
        move_clocks: Vec::new(),
        meta: meta("ongoing", "2026-11-26T10:00:00Z"),
        seats: [
            person(format!("{i:064}"), "Anna"),
            person(format!("{:064}", i + 100_000), "Bert"),
        ],
        tags: Vec::new(),
        created_at: "2026-11-26T10:00:00Z".into(),
    }
}

fn url_of(path: &Path) -> String {
    format!("sqlite://{}", path.display())
}

/// A closed database at `path` with `n` games of 7 moves, made through the
/// storage API (each game created, then a move appended).
async fn games_database(path: &Path, n: usize) {
    let db = storage::open(&url_of(path)).await.unwrap();
    for i in 0..n {
        let id = db.create_game(new_game(i, 6)).await.unwrap();
        db.update_game(
            id,
            Expected { ply: 6, version: 0 },
            MoveChange::Append("g4".into()),
            meta("ongoing", "2026-11-26T10:01:00Z"),
        )
        .await
        .unwrap();
    }
    db.close().await;
}

/// The files in `dir`, by name.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Opening `path` is refused; returns the error. The file's bytes and the
/// folder's files are as before.
async fn refused(path: &Path) -> StorageError {
    let dir = path.parent().unwrap();
    let (before, names) = (std::fs::read(path).unwrap(), files_in(dir));
    let e = match storage::open(&url_of(path)).await {
        Ok(db) => {
            db.close().await;
            panic!("{} was opened", path.display());
        }
        Err(e) => e,
    };
    assert!(
        std::fs::read(path).unwrap() == before,
        "{}: the refused file was changed",
        path.display()
    );
    assert_eq!(files_in(dir), names, "nothing is written beside it");
    e
}

/// The application id of the SQLite file at `path` (read-only).
async fn application_id(path: &Path) -> i32 {
    let options = SqliteConnectOptions::new().filename(path).read_only(true);
    let mut conn = SqliteConnection::connect_with(&options).await.unwrap();
    let id = sqlx::query_scalar("PRAGMA application_id")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    id
}

/// The first page of table `table` in the SQLite file at `path` (1-based;
/// read-only).
async fn root_page(path: &Path, table: &str) -> usize {
    let options = SqliteConnectOptions::new().filename(path).read_only(true);
    let mut conn = SqliteConnection::connect_with(&options).await.unwrap();
    let page: i64 = sqlx::query_scalar("SELECT rootpage FROM sqlite_master WHERE name = ?")
        .bind(table)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    usize::try_from(page).unwrap()
}

/// A new SQLite file at `path` made by another program: `sql` run on it.
async fn foreign_file(path: &Path, sql: &'static str) {
    let options = SqliteConnectOptions::from_str(&url_of(path))
        .unwrap()
        .create_if_missing(true);
    let mut conn = SqliteConnection::connect_with(&options).await.unwrap();
    sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

fn assert_corrupt(e: &StorageError, path: &Path, reason_has: &str) {
    match e {
        StorageError::CorruptFile { path: p, reason } => {
            assert_eq!(p, path);
            assert!(reason.contains(reason_has), "{reason}");
        }
        other => panic!("not refused as damaged: {other}"),
    }
    // The message says what to do.
    let message = e.to_string();
    for part in [
        "is damaged",
        "backup",
        &format!("brett db export --database {}", url_of(path)),
    ] {
        assert!(message.contains(part), "{message}");
    }
}

#[tokio::test]
async fn a_file_cut_short_mid_page_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("brett.db");
    games_database(&path, 200).await;
    // Cut in the middle of its last page, like `truncate -s
    // $((59*4096+1234))` on a file of 60 pages.
    let pages = std::fs::metadata(&path).unwrap().len() / 4096;
    assert!(pages > 30, "{pages} pages");
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len((pages - 1) * 4096 + 1234).unwrap();
    drop(f);

    let e = refused(&path).await;
    assert_corrupt(&e, &path, "not a whole number of its 4096-byte pages");
    // Also without the time-limited check, and through the server.
    let no_check = StorageOptions {
        integrity_check: Duration::ZERO,
        ..StorageOptions::default()
    };
    let e = storage::open_with(&url_of(&path), &no_check)
        .await
        .err()
        .expect("refused");
    assert_corrupt(&e, &path, "cut short");
    let config = server::ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        database_url: Some(url_of(&path)),
        ..server::ServerConfig::default()
    };
    let started = server::start(config).await;
    let e = started.err().expect("the server does not start");
    assert!(format!("{e:#}").contains("is damaged"), "{e:#}");

    // Cut at a page boundary: the header counts more pages than there are.
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len((pages - 2) * 4096).unwrap();
    drop(f);
    let e = refused(&path).await;
    assert_corrupt(&e, &path, &format!("header counts {pages} pages"));
}

#[tokio::test]
async fn a_page_written_over_is_found_by_the_check_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("brett.db");
    games_database(&path, 200).await;
    // Garbage over a page that holds data (the first of the moves',
    // whatever the tables before it: an empty table's page, or a page's
    // free space, would not be noticed); the length stays whole pages and
    // the header agrees with it.
    let page = root_page(&path, "moves").await - 1;
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(page > 0 && (page + 1) * 4096 <= bytes.len());
    bytes[page * 4096..(page + 1) * 4096].fill(0xff);
    std::fs::write(&path, &bytes).unwrap();

    let e = refused(&path).await;
    assert_corrupt(&e, &path, "quick_check found");
}

#[tokio::test]
async fn another_programs_file_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.db");
    foreign_file(
        &notes,
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); \
         INSERT INTO notes (text) VALUES ('milk'), ('bread');",
    )
    .await;
    // Marked as another program's, without tables yet.
    let marked = dir.path().join("marked.db");
    foreign_file(&marked, "PRAGMA application_id = 1196444487").await;
    // A `games` table and sqlx's table of migrations, but not brett's.
    let lookalike = dir.path().join("lookalike.db");
    foreign_file(
        &lookalike,
        "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT); \
         INSERT INTO _sqlx_migrations VALUES (20250101000000, 'scores'); \
         CREATE TABLE games (id INTEGER PRIMARY KEY, score INTEGER);",
    )
    .await;
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "milk\nbread\n".repeat(100)).unwrap();

    for (path, found) in [
        (&notes, "application_id 0; tables notes"),
        (&marked, "application_id 1196444487 (\"GPKG\")"),
        (&lookalike, "tables _sqlx_migrations, games"),
        (&text, "not an SQLite file"),
    ] {
        let e = refused(path).await;
        match &e {
            StorageError::NotBrett { path: p, found: f } => {
                assert_eq!(p, path);
                assert!(f.contains(found), "{f}");
            }
            other => panic!("{}: not refused as another's: {other}", path.display()),
        }
        let message = e.to_string();
        assert!(
            message.contains("is not a brett database") && message.contains("will not change it"),
            "{message}"
        );
    }
}

#[tokio::test]
async fn an_empty_file_and_a_new_path_are_taken_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let new = dir.path().join("new").join("brett.db");
    for path in [&empty, &new] {
        let db = storage::open(&url_of(path)).await.unwrap();
        let id = db.create_game(new_game(1, 2)).await.unwrap();
        db.close().await;
        assert_eq!(application_id(path).await, APPLICATION_ID);
        // And opened again, checked in full.
        assert_eq!(
            SqliteStorage::check_integrity(path, Duration::from_secs(60))
                .await
                .unwrap(),
            Integrity::Checked
        );
        let db = storage::open(&url_of(path)).await.unwrap();
        assert_eq!(db.load_game(id).await.unwrap().unwrap().moves.len(), 2);
        db.close().await;
    }
    // The mark is brett's four letters.
    assert_eq!(APPLICATION_ID.to_be_bytes(), *b"brtt");
}

#[tokio::test]
async fn a_database_of_an_earlier_brett_without_the_mark_opens_and_is_marked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("brett.db");
    games_database(&path, 5).await;
    // As brett made it before it marked its files.
    let mut conn = SqliteConnection::connect(&url_of(&path)).await.unwrap();
    sqlx::raw_sql("PRAGMA application_id = 0")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    assert_eq!(application_id(&path).await, 0);

    let db = storage::open(&url_of(&path)).await.unwrap();
    for id in 1..=5 {
        let g = db.load_game(id).await.unwrap().unwrap();
        assert_eq!(g.moves, ["d6", "f4", "d2", "b4", "a1", "g7", "g4"]);
        assert_eq!(g.version, 1);
    }
    assert_eq!(db.list_games(10, 0).await.unwrap().1, 5);
    db.close().await;
    assert_eq!(application_id(&path).await, APPLICATION_ID);
}

#[tokio::test]
async fn the_check_stops_at_its_time_limit_and_the_file_opens_unchecked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("brett.db");
    // Some 4 MB: checking it takes several milliseconds.
    let db: Arc<dyn Storage> = storage::open(&url_of(&path)).await.unwrap();
    for i in 0..1500 {
        db.create_game(new_game(i, 60)).await.unwrap();
    }
    db.close().await;
    assert!(std::fs::metadata(&path).unwrap().len() > 3 << 20);

    let before = std::fs::read(&path).unwrap();
    assert_eq!(
        SqliteStorage::check_integrity(&path, Duration::from_millis(1))
            .await
            .unwrap(),
        Integrity::Unfinished
    );
    assert!(std::fs::read(&path).unwrap() == before);
    let started = std::time::Instant::now();
    assert_eq!(
        SqliteStorage::check_integrity(&path, Duration::from_secs(60))
            .await
            .unwrap(),
        Integrity::Checked
    );
    eprintln!("the whole check took {} ms", started.elapsed().as_millis());

    let hurried = StorageOptions {
        integrity_check: Duration::from_millis(1),
        ..StorageOptions::default()
    };
    let db = storage::open_with(&url_of(&path), &hurried).await.unwrap();
    assert_eq!(db.load_game(1500).await.unwrap().unwrap().moves.len(), 60);
    db.close().await;
}

/// A damaged file opened to read what is left: nothing is written, also
/// when asked to.
#[tokio::test]
async fn a_damaged_file_is_read_without_being_changed() {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("brett.db");
    games_database(&path, 200).await;
    let pages = std::fs::metadata(&path).unwrap().len() / 4096;
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len((pages - 1) * 4096 + 1234).unwrap();
    drop(f);
    let before = std::fs::read(&path).unwrap();

    let db = SqliteStorage::open_damaged(&url_of(&path)).await.unwrap();
    assert_eq!(db.highest_game_id().await, Some(200));
    let first = db.export_games(0, 100).await.unwrap();
    assert_eq!(first.len(), 100);
    assert_eq!(first[99].moves.len(), 7);
    assert!(db.create_game(new_game(1, 0)).await.is_err());
    db.close().await;
    assert!(std::fs::read(&path).unwrap() == before);
    assert_eq!(files_in(dir.path()), ["brett.db"]);
}
