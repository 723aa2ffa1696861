//! The storage trait, the same tests on every backend: SQLite (a file in a
//! temp folder) and PostgreSQL (a fresh database on the server of
//! `BRETT_TEST_POSTGRES`; skipped with a message when it is unset, a
//! failure when `BRETT_REQUIRE_POSTGRES=1`).

use std::sync::Arc;

use crate::common::{meta, person};
use server::storage::{
    self, Expected, GameRecord, MoveChange, NewGame, Seat, SeatChange, Status, Storage,
    StorageError, Variant,
};

/// A fresh, empty database of each backend: (name, URL, its temp folder).
async fn backends(test: &str) -> Vec<(&'static str, String, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite://{}", dir.path().join("brett.db").display());
    let mut out = vec![("sqlite", sqlite, Some(dir))];
    if let Some(base) = crate::common::postgres_url(test) {
        out.push((
            "postgres",
            crate::common::new_pg_database(&base).await,
            None,
        ));
    }
    out
}

/// Black joins game `game` at `version`, with `name`.
fn seat_change(game: i64, version: i64, name: Option<&str>, at: &str) -> SeatChange {
    SeatChange {
        game,
        version,
        seat: 1,
        name: name.map(str::to_string),
        joined: true,
        account: None,
        updated_at: at.to_string(),
        clock: None,
    }
}

fn new_game(kind: &str, moves: &[&str]) -> NewGame {
    NewGame {
        game: Variant::Muehle,
        kind: kind.into(),
        rules: "standard".into(),
        start_position: ".../.../.../....../.../.../... w 9 9 0 1".into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        move_clocks: Vec::new(),
        meta: meta("ongoing", "2026-11-26T10:00:00Z"),
        seats: [
            person("aa".repeat(32), "Anna"),
            Seat {
                joined: true,
                level: if kind == "computer" { Some(3) } else { None },
                ..Seat::default()
            },
        ],
        tags: if kind == "imported" {
            vec![("Event".into(), "Köln \"open\"".into())]
        } else {
            Vec::new()
        },
        created_at: "2026-11-26T10:00:00Z".into(),
    }
}

async fn open(url: &str) -> Arc<dyn Storage> {
    storage::open(url).await.unwrap()
}

/// Where game `id` stands now: what a change of it must name.
async fn at(db: &dyn Storage, id: i64) -> Expected {
    let g = db.load_game(id).await.unwrap().unwrap();
    Expected {
        ply: g.moves.len(),
        version: g.version,
    }
}

#[tokio::test]
async fn games_are_stored_changed_and_listed() {
    for (backend, url, _dir) in backends("games_are_stored_changed_and_listed").await {
        let db = open(&url).await;
        let a = db.create_game(new_game("local", &[])).await.unwrap();
        let b = db
            .create_game(new_game("imported", &["d6", "f4"]))
            .await
            .unwrap();
        let c = db.create_game(new_game("computer", &["a1"])).await.unwrap();
        assert!(a < b && b < c, "{backend}: ids grow");

        let g = db.load_game(b).await.unwrap().unwrap();
        assert_eq!(g.moves, ["d6", "f4"], "{backend}");
        assert_eq!(g.tags, new_game("imported", &[]).tags, "{backend}");
        assert_eq!(g.seats, new_game("imported", &[]).seats, "{backend}");
        assert_eq!(g.meta, meta("ongoing", "2026-11-26T10:00:00Z"), "{backend}");
        assert!(db.load_game(c + 100).await.unwrap().is_none(), "{backend}");

        // Moves appended, kept, truncated; the ply and the version are
        // the check, and every change bumps the version.
        assert_eq!(at(&*db, a).await, Expected { ply: 0, version: 0 });
        let v = db
            .update_game(
                a,
                at(&*db, a).await,
                MoveChange::Append("d6".into()),
                meta("ongoing", "t1"),
            )
            .await
            .unwrap();
        assert_eq!(v, 1, "{backend}");
        let before = at(&*db, a).await;
        db.update_game(
            a,
            before,
            MoveChange::Append("f4".into()),
            meta("ongoing", "t2"),
        )
        .await
        .unwrap();
        let stale = db
            .update_game(
                a,
                before,
                MoveChange::Append("d2".into()),
                meta("ongoing", "t3"),
            )
            .await;
        assert!(
            matches!(stale, Err(StorageError::Conflict)),
            "{backend}: {stale:?}"
        );
        let mut offer = meta("ongoing", "t4");
        offer.draw_offer = Some("white".into());
        let two = at(&*db, a).await;
        assert_eq!(two, Expected { ply: 2, version: 2 }, "{backend}");
        db.update_game(a, two, MoveChange::Keep, offer.clone())
            .await
            .unwrap();
        let g = db.load_game(a).await.unwrap().unwrap();
        assert_eq!(g.moves, ["d6", "f4"], "{backend}");
        assert_eq!(g.meta, offer, "{backend}");
        // A change made on the game before the draw offer (same ply, older
        // version) is refused.
        let stale = db
            .update_game(a, two, MoveChange::Keep, meta("over", "t4"))
            .await;
        assert!(
            matches!(stale, Err(StorageError::Conflict)),
            "{backend}: {stale:?}"
        );
        db.update_game(
            a,
            at(&*db, a).await,
            MoveChange::Truncate(1),
            meta("ongoing", "t5"),
        )
        .await
        .unwrap();
        assert_eq!(db.load_game(a).await.unwrap().unwrap().moves, ["d6"]);
        let missing = db
            .update_game(
                c + 100,
                Expected { ply: 0, version: 0 },
                MoveChange::Keep,
                meta("ongoing", "t"),
            )
            .await;
        assert!(matches!(missing, Err(StorageError::NotFound)), "{backend}");

        // Seats: checked against the version and bumping it too.
        let version = at(&*db, a).await.version;
        db.update_seat(seat_change(a, version, Some("Ben"), "t6"))
            .await
            .unwrap();
        let g = db.load_game(a).await.unwrap().unwrap();
        assert_eq!(g.seats[1].name.as_deref(), Some("Ben"), "{backend}");
        assert!(g.seats[1].joined);
        assert_eq!(g.meta.updated_at, "t6");
        assert_eq!(g.version, version + 1, "{backend}");
        assert!(matches!(
            db.update_seat(seat_change(a, version, None, "t")).await,
            Err(StorageError::Conflict)
        ));
        assert!(matches!(
            db.update_seat(SeatChange {
                seat: 0,
                ..seat_change(c + 100, 0, None, "t")
            })
            .await,
            Err(StorageError::NotFound)
        ));

        // The archive, newest first, in pages.
        let (page, total) = db.list_games(2, 0).await.unwrap();
        assert_eq!(total, 3, "{backend}");
        assert_eq!(page.iter().map(|g| g.id).collect::<Vec<_>>(), [c, b]);
        assert_eq!(page[1].ply, 2);
        let (page, _) = db.list_games(2, 2).await.unwrap();
        assert_eq!(page.iter().map(|g| g.id).collect::<Vec<_>>(), [a]);

        // Ongoing computer games.
        assert_eq!(db.ongoing_computer_games().await.unwrap(), [c], "{backend}");
        db.update_game(c, at(&*db, c).await, MoveChange::Keep, meta("over", "t7"))
            .await
            .unwrap();
        assert!(db.ongoing_computer_games().await.unwrap().is_empty());

        // Everything is there after reopening.
        db.close().await;
        let db = open(&url).await;
        assert_eq!(db.load_game(a).await.unwrap().unwrap().moves, ["d6"]);
        assert_eq!(db.list_games(10, 0).await.unwrap().1, 3);
        db.close().await;
    }
}

#[tokio::test]
async fn of_writers_at_one_ply_exactly_one_wins() {
    for (backend, url, _dir) in backends("of_writers_at_one_ply_exactly_one_wins").await {
        let db = open(&url).await;
        let id = db.create_game(new_game("local", &[])).await.unwrap();
        for ply in 0..5 {
            let mut tasks = Vec::new();
            let expected = at(&*db, id).await;
            assert_eq!(expected.ply, ply, "{backend}");
            for i in 0..6 {
                let db = db.clone();
                tasks.push(tokio::spawn(async move {
                    db.update_game(
                        id,
                        expected,
                        MoveChange::Append(format!("m{ply}-{i}")),
                        meta("ongoing", "t"),
                    )
                    .await
                }));
            }
            let mut won = 0;
            for t in tasks {
                match t.await.unwrap() {
                    Ok(_) => won += 1,
                    Err(StorageError::Conflict) => {}
                    Err(e) => panic!("{backend}: {e}"),
                }
            }
            assert_eq!(won, 1, "{backend}: ply {ply}");
        }
        let g = db.load_game(id).await.unwrap().unwrap();
        assert_eq!(g.moves.len(), 5, "{backend}");
        db.close().await;
    }
}

/// Games of every kind with moves, seats, tags and outcomes.
async fn fill(db: &dyn Storage) -> Vec<i64> {
    let mut ids = Vec::new();
    for (kind, moves) in [
        ("local", vec!["d6", "f4", "d2"]),
        ("imported", vec!["d6"]),
        ("computer", vec![]),
        ("online", vec!["a1", "a4"]),
    ] {
        ids.push(db.create_game(new_game(kind, &moves)).await.unwrap());
    }
    let mut over = meta("over", "2026-11-26T11:00:00Z");
    over.result = Some("0-1".into());
    over.reason = Some("resignation".into());
    db.update_game(ids[0], at(db, ids[0]).await, MoveChange::Keep, over)
        .await
        .unwrap();
    db.update_game(
        ids[3],
        at(db, ids[3]).await,
        MoveChange::Append("g7".into()),
        meta("ongoing", "2026-11-26T12:00:00Z"),
    )
    .await
    .unwrap();
    ids
}

async fn export_all(db: &dyn Storage) -> Vec<GameRecord> {
    let mut out = Vec::new();
    let mut after = 0;
    loop {
        let games = db.export_games(after, 2).await.unwrap();
        let Some(last) = games.last() else {
            return out;
        };
        after = last.id;
        out.extend(games);
    }
}

#[tokio::test]
async fn games_move_between_backends_unchanged() {
    let test = "games_move_between_backends_unchanged";
    let all = backends(test).await;
    let mut dirs = Vec::new();
    // Every backend to every backend (itself included).
    for (from, from_url, _) in &all {
        for (to, _, _) in &all {
            let to_url = match *to {
                "sqlite" => {
                    let dir = tempfile::tempdir().unwrap();
                    let url = format!("sqlite://{}", dir.path().join("to.db").display());
                    dirs.push(dir);
                    url
                }
                _ => {
                    crate::common::new_pg_database(&crate::common::postgres_url(test).unwrap())
                        .await
                }
            };
            let src = open(from_url).await;
            if src.list_games(1, 0).await.unwrap().1 == 0 {
                fill(src.as_ref()).await;
            }
            let exported = export_all(src.as_ref()).await;
            assert_eq!(exported.len(), 4);
            assert_eq!(exported[0].moves.len(), 3);
            assert_eq!(exported[0].moves[1].mv, "f4");
            assert_eq!(exported[3].moves.len(), 3);
            assert_eq!(exported[3].moves[2].at, "2026-11-26T12:00:00Z");
            let lines: Vec<String> = exported.iter().map(GameRecord::to_line).collect();
            let parsed: Vec<GameRecord> = lines
                .iter()
                .map(|l| GameRecord::from_line(l).unwrap())
                .collect();
            assert_eq!(parsed, exported);

            let dst = open(&to_url).await;
            dst.import_games(parsed.clone()).await.unwrap();
            let again = export_all(dst.as_ref()).await;
            assert_eq!(again, exported, "{from} → {to}");
            // The games work as before, and new ones come after them.
            for (a, b) in exported.iter().zip(&again) {
                assert_eq!(
                    src.load_game(a.id).await.unwrap(),
                    dst.load_game(b.id).await.unwrap(),
                    "{from} → {to}"
                );
            }
            let next = dst.create_game(new_game("local", &[])).await.unwrap();
            assert!(next > exported.last().unwrap().id, "{from} → {to}");
            // A second import of the same games writes nothing.
            let twice = dst.import_games(parsed).await;
            assert!(
                matches!(twice, Err(StorageError::Exists(_))),
                "{from} → {to}: {twice:?}"
            );
            assert_eq!(dst.list_games(1, 0).await.unwrap().1, 5);
            src.close().await;
            dst.close().await;
        }
    }
}

/// Two handles on one database (two connection pools: on SQLite, two
/// connections to the file; on PostgreSQL, as two instances have). A change
/// that keeps the moves (a resignation, a draw accepted) and a move, both
/// made on the same stored game, race: exactly one is stored, and the
/// stored game is the one the winner acknowledged. Before the version
/// check, the move won over an acknowledged resignation.
#[tokio::test]
async fn a_resignation_or_draw_racing_a_move_exactly_one_wins() {
    const ROUNDS: usize = 200;
    for (backend, url, _dir) in
        backends("a_resignation_or_draw_racing_a_move_exactly_one_wins").await
    {
        let (one, two) = (open(&url).await, open(&url).await);
        let (mut moved, mut ended) = (0, 0);
        for round in 0..ROUNDS {
            let id = one.create_game(new_game("online", &["d6"])).await.unwrap();
            let expected = at(&*two, id).await;
            let mut over = meta("over", "t");
            if round % 2 == 0 {
                over.result = Some("0-1".into());
                over.reason = Some("resignation".into());
            } else {
                over.result = Some("1/2-1/2".into());
                over.reason = Some("agreement".into());
            }
            let (a, b) = (one.clone(), two.clone());
            let end = over.clone();
            let play = tokio::spawn(async move {
                a.update_game(
                    id,
                    expected,
                    MoveChange::Append("f4".into()),
                    meta("ongoing", "t"),
                )
                .await
            });
            let stop =
                tokio::spawn(
                    async move { b.update_game(id, expected, MoveChange::Keep, end).await },
                );
            let (play, stop) = (play.await.unwrap(), stop.await.unwrap());
            let g = one.load_game(id).await.unwrap().unwrap();
            match (&play, &stop) {
                (Ok(v), Err(StorageError::Conflict)) => {
                    moved += 1;
                    assert_eq!(g.moves, ["d6", "f4"], "{backend} round {round}");
                    assert_eq!(g.meta.status, Status::Ongoing, "{backend} round {round}");
                    assert_eq!(g.version, *v);
                }
                (Err(StorageError::Conflict), Ok(v)) => {
                    ended += 1;
                    assert_eq!(g.moves, ["d6"], "{backend} round {round}");
                    assert_eq!(g.meta, over, "{backend} round {round}");
                    assert_eq!(g.version, *v);
                }
                other => panic!("{backend} round {round}: not exactly one: {other:?}"),
            }
            assert_eq!(g.version, expected.version + 1, "{backend} round {round}");
        }
        eprintln!(
            "{backend}: {ROUNDS} races, the move stored in {moved}, the resignation or draw in \
             {ended}, 0 inconsistent"
        );
        assert_eq!(moved + ended, ROUNDS);
        one.close().await;
        two.close().await;
    }
}
