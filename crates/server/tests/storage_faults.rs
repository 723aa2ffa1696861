//! Storage faults under a running server: a full disk, unwritable files,
//! the database file removed. Each test checks that
//! - no acknowledged write is lost: every game answered `201` and every move
//!   answered `200` is there after the fault, through the running server and
//!   through a new server on the file read from disk, and nothing answered
//!   with an error was stored;
//! - writes during the fault answer `503` `storage_unavailable`;
//! - the server recovers by itself, without a restart.
//!
//! The full disk is a small tmpfs, and so is the folder whose files are
//! made unwritable (mounting needs root; without it those two tests say
//! "skipped: …" and return). Unwritable for root too means `chattr +i`:
//! `mount -o remount,ro` is refused while the server has its files open for
//! writing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A tmpfs of its own, unmounted on drop (also when a test fails).
struct Tmpfs {
    dir: PathBuf,
    _parent: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(size: &str) -> Result<Tmpfs, String> {
        let parent = tempfile::tempdir().map_err(|e| e.to_string())?;
        let dir = parent.path().join("mnt");
        std::fs::create_dir(&dir).map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .output()
            .map_err(|e| format!("running mount: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "mount -t tmpfs: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(Tmpfs {
            dir,
            _parent: parent,
        })
    }

    /// A tmpfs, or `None` after saying why the test is skipped.
    fn or_skip(test: &str, size: &str) -> Option<Tmpfs> {
        match Tmpfs::mount(size) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!(
                    "skipped: {test}: cannot mount a tmpfs ({e}); this test needs root (CAP_SYS_ADMIN)"
                );
                None
            }
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let done = Command::new("umount")
            .arg(&self.dir)
            .status()
            .is_ok_and(|s| s.success());
        if !done {
            // Still in use (a test that failed with the server running).
            let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
        }
    }
}

/// Files made immutable (`chattr +i`: not writable, not even by root) until
/// dropped.
struct Immutable(Vec<PathBuf>);

impl Immutable {
    fn set(paths: Vec<PathBuf>) -> Result<Immutable, String> {
        let out = Command::new("chattr")
            .arg("+i")
            .args(&paths)
            .output()
            .map_err(|e| format!("running chattr: {e}"))?;
        let guard = Immutable(paths);
        if !out.status.success() {
            return Err(format!(
                "chattr +i: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(guard)
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").args(&self.0).status();
    }
}

/// Fill the file system of `dir` with a file until it is full.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    for chunk in [1 << 16, 4096, 512, 1] {
        let buf = vec![0u8; chunk];
        while f.write_all(&buf).is_ok() {}
    }
    path
}

/// A game whose every acknowledged change is written down.
struct Game {
    id: i64,
    /// White's and Black's tokens (`None`: a seat the test does not hold).
    tokens: [Option<String>; 2],
    /// The moves as acknowledged.
    moves: Vec<Value>,
    /// The state of the last acknowledged answer.
    state: Value,
}

/// What the server acknowledged, and what it answered otherwise.
#[derive(Default)]
struct Book {
    games: Vec<Game>,
    /// Answers that were neither a success nor `503 storage_unavailable`.
    unexpected: Vec<String>,
    /// `503 storage_unavailable` answers.
    unavailable: usize,
    /// Successes.
    acknowledged: usize,
}

impl Book {
    fn note(&mut self, what: &str, status: StatusCode, body: &Value) {
        if status.is_success() {
            self.acknowledged += 1;
        } else if status.as_u16() == 503 && body["code"] == "storage_unavailable" {
            assert!(
                body["error"].as_str().is_some_and(|e| !e.is_empty()),
                "{body}"
            );
            self.unavailable += 1;
        } else {
            self.unexpected.push(format!("{what}: {status} {body}"));
        }
    }

    /// Create a local game (both seats held).
    async fn create(&mut self, s: &TestServer) -> StatusCode {
        let (status, v) = s.post("/api/games", json!({"kind": "local"})).await;
        self.note("create", status, &v);
        if status == StatusCode::CREATED {
            self.add(&v);
        }
        status
    }

    /// Write down a game whose creation was acknowledged with `v`.
    fn add(&mut self, v: &Value) {
        let seat = |c: &str| v["tokens"][c].as_str().map(str::to_string);
        self.games.push(Game {
            id: id_of(v),
            tokens: [seat("white"), seat("black")],
            moves: v["state"]["moves"].as_array().unwrap().clone(),
            state: v["state"].clone(),
        });
    }

    /// Play the first legal move in game `i`; `None` if the game is over.
    async fn play(&mut self, s: &TestServer, i: usize) -> Option<StatusCode> {
        let g = &self.games[i];
        if g.state["status"] != "ongoing" {
            return None;
        }
        // An online game waits for its invited player (waiting_for_opponent).
        let waiting = ["white", "black"].iter().any(|c| {
            g.state["players"][c]["joined"] == false && g.state["players"][c]["type"] == "human"
        });
        if g.state["kind"] == "online" && waiting {
            return None;
        }
        let mv = g.state["legal_moves"][0].as_str()?.to_string();
        let side = usize::from(g.state["turn"] != "white");
        let token = g.tokens[side].clone()?;
        let ply = g.state["ply"].as_u64().unwrap();
        let (status, v) = s.play(g.id, &token, ply, &mv).await;
        self.note(&format!("move {mv} in game {}", g.id), status, &v);
        if status == StatusCode::OK {
            let g = &mut self.games[i];
            let moves = v["moves"].as_array().unwrap().clone();
            assert_eq!(moves.len(), g.moves.len() + 1, "{v}");
            assert_eq!(moves[..g.moves.len()], g.moves[..], "{v}");
            g.moves = moves;
            g.state = v;
        }
        Some(status)
    }

    /// A new game and a move in each game.
    async fn round(&mut self, s: &TestServer) -> Vec<StatusCode> {
        let mut out = vec![self.create(s).await];
        for i in 0..self.games.len() {
            if let Some(status) = self.play(s, i).await {
                out.push(status);
            }
        }
        out
    }

    fn moves(&self) -> usize {
        self.games.iter().map(|g| g.moves.len()).sum()
    }

    /// Every acknowledged game with exactly its acknowledged moves, and no
    /// other game, as the server `s` has them.
    async fn verify(&self, s: &TestServer, when: &str) {
        let mut missing_games = Vec::new();
        let mut wrong = Vec::new();
        let mut lost_moves = 0;
        for g in &self.games {
            let (status, st) = s.get(&format!("/api/games/{}", g.id)).await;
            if status == StatusCode::NOT_FOUND {
                missing_games.push(g.id);
                lost_moves += g.moves.len();
                continue;
            }
            assert_eq!(status, StatusCode::OK, "game {}: {st}", g.id);
            let stored = st["moves"].as_array().unwrap();
            if stored != &g.moves {
                let kept = stored.iter().zip(&g.moves).take_while(|(a, b)| a == b);
                lost_moves += g.moves.len() - kept.count();
                wrong.push(format!(
                    "game {}: acknowledged {:?}, stored {:?}",
                    g.id, g.moves, stored
                ));
            }
        }
        assert!(
            missing_games.is_empty() && wrong.is_empty(),
            "{when}: {} of {} acknowledged games missing ({missing_games:?}); \
             {lost_moves} of {} acknowledged moves missing or different; {wrong:#?}",
            missing_games.len(),
            self.games.len(),
            self.moves(),
        );
        let (status, archive) = s.get("/api/games?limit=1").await;
        assert_eq!(status, StatusCode::OK, "{archive}");
        assert_eq!(
            archive["total"],
            self.games.len(),
            "{when}: a game answered with an error was stored"
        );
    }

    /// The fault's answers: some writes refused with 503, none otherwise.
    fn assert_refused(&self, during: &[StatusCode], what: &str) {
        assert!(
            self.unexpected.is_empty(),
            "unexpected answers: {:#?}",
            self.unexpected
        );
        assert!(
            !during.is_empty() && during.iter().all(|s| s.as_u16() == 503),
            "{what}: every write must answer 503 storage_unavailable, got {during:?}"
        );
    }
}

/// The state messages of a socket until it has been quiet for a while.
async fn drain(ws: &mut Ws) -> Vec<Value> {
    let mut out = Vec::new();
    while let Ok(m) = tokio::time::timeout(Duration::from_millis(200), next_json(ws)).await {
        out.push(m);
    }
    out
}

/// Reopen the database file from disk in a new server and check it.
async fn verify_reopened(db: &Path, book: &Book) {
    let mut again = TestServer::on(db.to_path_buf(), 60_000).await;
    book.verify(&again, "after reopening the database from disk")
        .await;
    again.stop().await;
}

#[tokio::test]
async fn full_disk_answers_503_and_loses_no_acknowledged_write() {
    let test = "full_disk_answers_503_and_loses_no_acknowledged_write";
    let Some(fs) = Tmpfs::or_skip(test, "2m") else {
        return;
    };
    let db = fs.dir.join("brett.db");
    // The computer thinks 1 s, so its reply meets the full disk.
    let mut s = TestServer::on(db.clone(), 1000).await;
    let mut book = Book::default();
    for _ in 0..3 {
        assert_eq!(book.create(&s).await, StatusCode::CREATED);
    }
    for _ in 0..4 {
        for i in 0..3 {
            assert_eq!(book.play(&s, i).await, Some(StatusCode::OK));
        }
    }
    let mut ws = s.ws(book.games[0].id).await;
    next_json(&mut ws).await;
    let v = s
        .create(json!({"kind": "computer", "color": "white", "level": 1}))
        .await;
    let computer = id_of(&v);
    let me = token(&v, "white");
    let mut computer_ws = s.ws(computer).await;
    next_json(&mut computer_ws).await;
    let st = s.play_ok(computer, &me, 0, "a1").await;
    assert_eq!(st["thinking"], true);
    let played_at = Instant::now();

    // The fault: the disk is full. (What goes wrong is written down and
    // reported after the check for lost writes, the worst failure.)
    let mut problems = Vec::new();
    let filler = fill(&fs.dir);
    let mut during = Vec::new();
    for _ in 0..4 {
        during.extend(book.round(&s).await);
    }
    let (status, v) = s.action(computer, "takeback", json!({"token": me})).await;
    book.note("takeback", status, &v);
    during.push(status);
    // Reading still works, and shows nothing that was not stored.
    let st = s.state(book.games[0].id).await;
    if st["moves"].as_array().unwrap() != &book.games[0].moves {
        problems.push(format!("game 0 during the fault: {}", st["moves"]));
    }
    // The computer's reply could not be stored: not played, not sent.
    tokio::time::sleep(Duration::from_millis(1500).saturating_sub(played_at.elapsed())).await;
    let st = s.state(computer).await;
    if st["ply"] != 1 {
        problems.push(format!("the computer's unstored move is played: {st}"));
    }
    for m in drain(&mut computer_ws).await {
        if m["state"]["ply"] != 1 {
            problems.push(format!("the computer's unstored move is sent: {m}"));
        }
    }
    for m in drain(&mut ws).await {
        problems.push(format!("a change that was not stored is sent: {m}"));
    }

    // The disk has room again: the next request works.
    std::fs::remove_file(&filler).unwrap();
    let first = book.create(&s).await;
    if first != StatusCode::CREATED {
        problems.push(format!("the first write after the fault: {first}"));
    }
    let sent_before = book.games[0].moves.len();
    for _ in 0..3 {
        let after = book.round(&s).await;
        if !after.iter().all(|s| s.is_success()) {
            problems.push(format!("writes after the fault: {after:?}"));
        }
    }
    // The socket gets the next stored move, and nothing before it.
    let m = next_json(&mut ws).await;
    if m["state"]["ply"] != sent_before + 1 {
        problems.push(format!("the first message after the fault: {m}"));
    }
    // The computer answers once it can store its move.
    let st = s.wait_for(computer, 20, |st| st["ply"] == 2).await;
    book.games.push(Game {
        id: computer,
        tokens: [Some(me), None],
        moves: st["moves"].as_array().unwrap().clone(),
        state: st,
    });

    book.verify(&s, "after the disk has room again").await;
    s.stop().await;
    verify_reopened(&db, &book).await;
    assert!(problems.is_empty(), "{problems:#?}");
    book.assert_refused(&during, "a full disk");
    eprintln!(
        "{test}: {} acknowledged, {} refused with 503",
        book.acknowledged, book.unavailable
    );
}

#[tokio::test]
async fn unwritable_files_answer_503_and_lose_no_acknowledged_write() {
    let test = "unwritable_files_answer_503_and_lose_no_acknowledged_write";
    let Some(fs) = Tmpfs::or_skip(test, "16m") else {
        return;
    };
    let dir = fs.dir.join("data");
    let db = dir.join("brett.db");
    let mut s = TestServer::on(db.clone(), 30).await;
    let mut book = Book::default();
    for _ in 0..2 {
        book.round(&s).await;
    }
    let (status, v) = s
        .post("/api/games", json!({"kind": "online", "name": "Anna"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    book.note("create", status, &v);
    book.add(&v);
    let invite = v["invite"]["token"].as_str().unwrap().to_string();
    let online = id_of(&v);

    // The fault: the files and their folder become immutable (root too
    // must respect that; the connections opened before could still write
    // through their descriptors, the server must not).
    let files = ["brett.db", "brett.db-wal", "brett.db-shm"]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.exists())
        .chain([dir.clone()])
        .collect();
    let immutable = match Immutable::set(files) {
        Ok(guard) => guard,
        Err(e) => {
            eprintln!("skipped: {test}: {e} (the file system does not support it)");
            s.stop().await;
            return;
        }
    };
    let mut during = Vec::new();
    for _ in 0..3 {
        during.extend(book.round(&s).await);
    }
    let (status, v) = s
        .action(online, "join", json!({"token": invite, "name": "Ben"}))
        .await;
    book.note("join", status, &v);
    during.push(status);
    assert_eq!(s.state(online).await["players"]["black"]["joined"], false);
    assert_eq!(
        s.state(book.games[0].id).await["moves"].as_array().unwrap(),
        &book.games[0].moves
    );

    // Writable again: the next request works.
    drop(immutable);
    let first = book.create(&s).await;
    assert_eq!(first, StatusCode::CREATED, "{:?}", book.unexpected);
    for _ in 0..2 {
        let after = book.round(&s).await;
        assert!(after.iter().all(|s| s.is_success()), "{after:?}");
    }
    let (status, v) = s
        .action(online, "join", json!({"token": invite, "name": "Ben"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");

    book.assert_refused(&during, "read-only files");
    book.verify(&s, "after the files are writable again").await;
    s.stop().await;
    verify_reopened(&db, &book).await;
    let mut again = TestServer::on(db.clone(), 30).await;
    assert_eq!(again.state(online).await["players"]["black"]["name"], "Ben");
    again.stop().await;
}

#[tokio::test]
async fn database_file_removed_under_the_server_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("brett.db");
    let mut s = TestServer::on(db.clone(), 30).await;
    let mut book = Book::default();
    for _ in 0..3 {
        book.round(&s).await;
    }

    // The file goes; the next writes are stored in a restored file.
    std::fs::remove_file(&db).unwrap();
    for _ in 0..2 {
        let r = book.round(&s).await;
        assert!(r.iter().all(|s| s.is_success()), "{r:?}");
    }
    assert!(db.exists(), "the database file is restored");
    book.verify(&s, "after the file was removed").await;

    // The file and its write-ahead files go.
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    for _ in 0..2 {
        let r = book.round(&s).await;
        assert!(r.iter().all(|s| s.is_success()), "{r:?}");
    }
    book.verify(&s, "after the file and its -wal, -shm were removed")
        .await;

    // Removed while moves are being stored: each is stored or refused.
    let games: Vec<usize> = (0..3).collect();
    let base = s.base.clone();
    let mut players = Vec::new();
    for i in games {
        let mut mine = Book::default();
        mine.games.push(std::mem::replace(
            &mut book.games[i],
            Game {
                id: 0,
                tokens: [None, None],
                moves: Vec::new(),
                state: Value::Null,
            },
        ));
        let client = TestServer {
            server: None,
            base: base.clone(),
            client: s.client.clone(),
            db: db.clone(),
            dir: None,
        };
        players.push(tokio::spawn(async move {
            for _ in 0..15 {
                mine.play(&client, 0).await;
            }
            (i, mine)
        }));
    }
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(15)).await;
        let _ = std::fs::remove_file(&db);
    }
    for p in players {
        let (i, mine) = p.await.unwrap();
        assert!(mine.unexpected.is_empty(), "{:#?}", mine.unexpected);
        book.acknowledged += mine.acknowledged;
        book.unavailable += mine.unavailable;
        book.games[i] = mine.games.into_iter().next().unwrap();
    }
    // The next write restores the file if the last removal came after the
    // last write.
    let r = book.round(&s).await;
    assert!(r.iter().all(|s| s.is_success()), "{r:?}");
    book.verify(&s, "after removals during writes").await;
    s.stop().await;

    assert!(db.exists());
    assert!(
        !dir.path().join("brett.db.restoring").exists(),
        "a restore copy was left behind"
    );
    verify_reopened(&db, &book).await;
    eprintln!(
        "database_file_removed_under_the_server_loses_nothing: {} acknowledged, {} refused with 503",
        book.acknowledged, book.unavailable
    );
}
