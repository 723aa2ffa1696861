//! Several server instances on one PostgreSQL database, and PostgreSQL
//! going away under a running server. Each test makes a database of its
//! own on the server of `BRETT_TEST_POSTGRES` (skipped with a message when
//! it is unset, a failure when `BRETT_REQUIRE_POSTGRES=1`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::ServerConfig;

/// A Dame start (Black one man short) that no opening book holds: level 10
/// thinks its whole move time there (the book would answer at once).
const OUT_OF_BOOK: &str =
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8";

/// A server instance on the PostgreSQL database `url`.
async fn instance(url: &str, f: impl FnOnce(&mut ServerConfig)) -> TestServer {
    let mut c = ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        database_url: Some(url.to_string()),
        computer_movetime_ms: Some(30),
        engine_slots: Some(2),
        ..ServerConfig::default()
    };
    f(&mut c);
    TestServer::with_config("unused".into(), c).await
}

/// Instances A (on the database at `a_url`, thinking `a_movetime_ms`) and
/// B (at `url`, thinking 30 ms) with computer leases of `lease`, and a Dame
/// game against the computer at level 10 created on A, the computer to
/// move; the answer of its creation.
async fn computer_game_on_a(
    url: &str,
    a_url: &str,
    lease: Duration,
    a_movetime_ms: u64,
) -> (TestServer, TestServer, Value) {
    let a = instance(a_url, |c| {
        c.computer_lease = lease;
        c.computer_movetime_ms = Some(a_movetime_ms);
    })
    .await;
    let b = instance(url, |c| c.computer_lease = lease).await;
    let v = a
        .create(json!({"game": "dame", "kind": "computer", "color": "black", "level": 10, "position": OUT_OF_BOOK}))
        .await;
    (a, b, v)
}

/// Two instances A and B on one fresh database.
async fn two_instances(test: &str) -> Option<(TestServer, TestServer, String)> {
    let base = postgres_url(test)?;
    let url = new_pg_database(&base).await;
    let a = instance(&url, |_| {}).await;
    let b = instance(&url, |_| {}).await;
    Some((a, b, url))
}

#[tokio::test]
async fn a_move_on_one_instance_reaches_the_sockets_of_the_other() {
    let Some((a, b, _)) =
        two_instances("a_move_on_one_instance_reaches_the_sockets_of_the_other").await
    else {
        return;
    };
    let v = a.create(json!({"kind": "local"})).await;
    let id = id_of(&v);
    let (white, black) = (token(&v, "white"), token(&v, "black"));
    let mut on_b = b.ws(id).await;
    assert_eq!(next_json(&mut on_b).await["state"]["ply"], 0);
    let mut on_a = a.ws(id).await;
    assert_eq!(next_json(&mut on_a).await["state"]["ply"], 0);

    // A move over HTTP on A reaches the socket on B, and back.
    a.play_ok(id, &white, 0, "d6").await;
    let st = next_state_where(&mut on_b, |s| s["ply"] == 1).await;
    assert_eq!(st["moves"], json!(["d6"]));
    b.play_ok(id, &black, 1, "f4").await;
    let st = next_state_where(&mut on_a, |s| s["ply"] == 2).await;
    assert_eq!(st["moves"], json!(["d6", "f4"]));
    // A change of seats and a draw offer travel too.
    let (status, _) = a.draw(id, &white, "offer").await;
    assert_eq!(status, StatusCode::OK);
    let st = next_state_where(&mut on_b, |s| s["draw_offer"] == "white").await;
    assert_eq!(st["ply"], 2);
    // B serves the current state, and moves on from it.
    assert_eq!(b.state(id).await["draw_offer"], "white");
    b.play_ok(id, &white, 2, "d2").await;
    next_state_where(&mut on_a, |s| s["ply"] == 3).await;

    // An online game: the guest joins on B, the host sees it on A.
    let (status, v) = a
        .post("/api/games", json!({"kind": "online", "name": "Anna"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let online = id_of(&v);
    let invite = v["invite"]["token"].as_str().unwrap().to_string();
    let mut host = a.ws(online).await;
    next_json(&mut host).await;
    let (status, v) = b
        .action(online, "join", json!({"token": invite, "name": "Ben"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let st = next_state_where(&mut host, |s| s["players"]["black"]["joined"] == true).await;
    assert_eq!(st["players"]["black"]["name"], "Ben");
}

#[tokio::test]
async fn the_same_move_on_both_instances_is_stored_once() {
    let Some((a, b, _)) = two_instances("the_same_move_on_both_instances_is_stored_once").await
    else {
        return;
    };
    let v = a.create(json!({"kind": "local"})).await;
    let id = id_of(&v);
    let tokens = [token(&v, "white"), token(&v, "black")];
    for ply in 0..12u64 {
        // Both instances have the game in memory at this ply.
        let st = a.wait_for(id, 10, |s| s["ply"] == ply).await;
        b.wait_for(id, 10, |s| s["ply"] == ply).await;
        let mv = st["legal_moves"][0].as_str().unwrap().to_string();
        let t = &tokens[usize::from(st["turn"] != "white")];
        let (ra, rb) = tokio::join!(a.play(id, t, ply, &mv), b.play(id, t, ply, &mv));
        let ok = [&ra, &rb]
            .iter()
            .filter(|(s, _)| *s == StatusCode::OK)
            .count();
        assert_eq!(ok, 1, "ply {ply}: exactly one is stored: {ra:?} {rb:?}");
        for (status, body) in [&ra, &rb] {
            if *status != StatusCode::OK {
                assert_error(*status, body, 409, "stale_ply");
            }
        }
    }
    let st = a.state(id).await;
    assert_eq!(st["ply"], 12);
    assert_eq!(
        b.wait_for(id, 10, |s| s["ply"] == 12).await["moves"],
        st["moves"]
    );
    // A client that moved on A and sends the next move to B at once finds
    // B up to date (B reads the game anew when the ply is ahead of it).
    for ply in 12..16u64 {
        let st = a.state(id).await;
        let mv = st["legal_moves"][0].as_str().unwrap().to_string();
        let t = &tokens[usize::from(st["turn"] != "white")];
        let server = if ply % 2 == 0 { &a } else { &b };
        server.play_ok(id, t, ply, &mv).await;
    }
}

#[tokio::test]
async fn the_computer_moves_on_one_instance_and_another_takes_over() {
    let test = "the_computer_moves_on_one_instance_and_another_takes_over";
    let Some(base) = postgres_url(test) else {
        return;
    };
    let url = new_pg_database(&base).await;
    let lease = Duration::from_millis(2000);
    // A thinks a minute (Dame, level 10: by time only); B would answer at
    // once.
    let (mut a, b, v) = computer_game_on_a(&url, &url, lease, 60_000).await;
    let id = id_of(&v);
    assert_eq!(v["state"]["thinking"], true);
    // A takes the lease right after answering; until then B could take it
    // (and would play the move itself).
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    loop {
        if let Some(holder) = lease_holder(&mut conn, id).await {
            let hub = &a.server.as_ref().unwrap().state.registry;
            assert_eq!(holder, hub.storage().cluster().unwrap().instance());
            break;
        }
        assert!(Instant::now() < deadline, "nobody takes the lease");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut on_b = b.ws(id).await;
    let st = next_json(&mut on_b).await["state"].clone();
    assert_eq!(st["ply"], 0);
    assert_eq!(st["thinking"], true, "B knows the computer thinks: {st}");
    // A holds the lease (renewed): B does not play, over several leases.
    tokio::time::sleep(lease * 2).await;
    assert_eq!(b.state(id).await["ply"], 0);
    assert_eq!(a.state(id).await["ply"], 0);

    // A stops (its leases expire at once); B takes the game over.
    let stopped = Instant::now();
    a.stop().await;
    eprintln!("A stopped in {:?}", stopped.elapsed());
    let st = next_state_where(&mut on_b, |s| s["ply"] == 1).await;
    eprintln!(
        "B took over {:?} after A was told to stop",
        stopped.elapsed()
    );
    assert_eq!(st["thinking"], false);
    assert!(
        stopped.elapsed() < Duration::from_secs(10),
        "taken over after {:?}",
        stopped.elapsed()
    );

    // Games created on B are played by B.
    let v = b
        .create(json!({"kind": "computer", "color": "white", "level": 1}))
        .await;
    let g = id_of(&v);
    let me = token(&v, "white");
    b.play_ok(g, &me, 0, "d6").await;
    b.wait_for(g, 10, |s| s["ply"] == 2).await;
}

/// A TCP proxy to the PostgreSQL server that can be cut: open connections
/// are dropped and new ones refused until it is restored.
struct Proxy {
    port: u16,
    open: Arc<AtomicBool>,
    conns: Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Proxy {
    async fn to(target: String) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(AtomicBool::new(true));
        let conns = Arc::new(std::sync::Mutex::new(Vec::<tokio::task::AbortHandle>::new()));
        let (o, c) = (open.clone(), conns.clone());
        tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    return;
                };
                if !o.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let target = target.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                c.lock().unwrap().push(task.abort_handle());
            }
        });
        Proxy { port, open, conns }
    }

    fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        for c in self.conns.lock().unwrap().drain(..) {
            c.abort();
        }
    }

    fn restore(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

/// The host:port of a postgres:// URL.
fn host_port(url: &str) -> String {
    let rest = url.split_once("://").unwrap().1;
    let authority = rest.split(['/', '?']).next().unwrap();
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, h)| h)
        .to_string()
}

#[tokio::test]
async fn postgres_gone_answers_503_and_the_server_recovers() {
    let test = "postgres_gone_answers_503_and_the_server_recovers";
    let Some(base) = postgres_url(test) else {
        return;
    };
    let url = new_pg_database(&base).await;
    let proxy = Proxy::to(host_port(&url)).await;
    let through = url.replacen(&host_port(&url), &format!("127.0.0.1:{}", proxy.port), 1);
    let s = instance(&through, |_| {}).await;
    let v = s.create(json!({"kind": "local"})).await;
    let id = id_of(&v);
    let white = token(&v, "white");
    let black = token(&v, "black");
    s.play_ok(id, &white, 0, "d6").await;
    let mut ws = s.ws(id).await;
    next_json(&mut ws).await;

    // The database goes away: writes are refused, nothing is acknowledged
    // or sent.
    proxy.cut();
    let (status, v) = s.play(id, &black, 1, "f4").await;
    assert_error(status, &v, 503, "storage_unavailable");
    let (status, v) = s.post("/api/games", json!({"kind": "local"})).await;
    assert_error(status, &v, 503, "storage_unavailable");
    assert!(
        tokio::time::timeout(Duration::from_millis(300), next_json(&mut ws))
            .await
            .is_err(),
        "nothing is sent for a change not stored"
    );

    // Back: the next requests work, without a restart.
    proxy.restore();
    let st = s.wait_for(id, 10, |st| st["ply"] == 1).await;
    assert_eq!(st["moves"], json!(["d6"]));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, v) = s.play(id, &black, 1, "f4").await;
        if status == StatusCode::OK {
            break;
        }
        assert_error(status, &v, 503, "storage_unavailable");
        assert!(Instant::now() < deadline, "no recovery: {v}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let st = next_state_where(&mut ws, |st| st["ply"] == 2).await;
    assert_eq!(st["moves"], json!(["d6", "f4"]));
    s.play_ok(id, &white, 2, "d2").await;
    let (_, archive) = s.get("/api/games").await;
    assert_eq!(archive["total"], 1, "the refused game was not stored");

    // Read straight from the database: exactly the acknowledged moves.
    let again = instance(&url, |_| {}).await;
    let st: Value = again.state(id).await;
    assert_eq!(st["moves"], json!(["d6", "f4", "d2"]));
}

#[tokio::test]
async fn an_instance_cut_off_from_the_database_loses_its_computer_lease() {
    let test = "an_instance_cut_off_from_the_database_loses_its_computer_lease";
    let Some(base) = postgres_url(test) else {
        return;
    };
    let url = new_pg_database(&base).await;
    let proxy = Proxy::to(host_port(&url)).await;
    let through = url.replacen(&host_port(&url), &format!("127.0.0.1:{}", proxy.port), 1);
    let lease = Duration::from_millis(1000);
    // A reaches the database through the proxy and thinks 5 s; B thinks
    // 30 ms.
    let (a, b, v) = computer_game_on_a(&url, &through, lease, 5000).await;
    let id = id_of(&v);
    let started = Instant::now();
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    let a_instance = {
        let hub = &a.server.as_ref().unwrap().state.registry;
        hub.storage().cluster().unwrap().instance().to_string()
    };
    while lease_holder(&mut conn, id).await.is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "A takes no lease"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(lease_holder(&mut conn, id).await.unwrap(), a_instance);

    // A loses the database while it searches: its lease expires, B takes
    // the game over and plays.
    proxy.cut();
    let mut on_b = b.ws(id).await;
    let st = next_state_where(&mut on_b, |s| s["ply"] == 1).await;
    assert!(
        started.elapsed() < Duration::from_millis(4500),
        "B played before A's search ended: {:?}",
        started.elapsed()
    );
    let played = st["moves"].clone();

    // A comes back before its search ends: its move is not stored (the
    // game moved on: the ply check, or A reads the game anew first).
    proxy.restore();
    tokio::time::sleep(Duration::from_millis(6000).saturating_sub(started.elapsed())).await;
    let st = a
        .wait_for(id, 10, |s| s["ply"] == 1 && s["thinking"] == false)
        .await;
    assert_eq!(st["moves"], played);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1")
        .bind(id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(moves, 1, "one computer move stored");
    assert_eq!(b.state(id).await["moves"], played);
}

/// What one race of a move against a resignation or a draw acceptance
/// ended with (the stored game read afresh from the database).
#[derive(Debug, Default)]
struct RaceCount {
    moved: usize,
    ended: usize,
    both: usize,
    neither: usize,
}

/// Two instances, the race: an online game made on A and joined on
/// B; White plays d6 on A. Then at the same instant Black's move f4 goes to
/// A and, in the even rounds, White's resignation to B; in the odd rounds
/// White offers a draw first and Black's acceptance goes to B. Every
/// acknowledged change must be in the stored game (also after a restart:
/// it is read from the database by a storage of its own), and of two changes
/// made on the same stored game only one is acknowledged. Before every
/// change was checked against the game's version, 92 of 200 resignations
/// were acknowledged and then lost to the move.
#[tokio::test]
async fn a_resignation_or_draw_racing_a_move_on_two_instances_is_never_lost() {
    const ROUNDS: usize = 200;
    let test = "a_resignation_or_draw_racing_a_move_on_two_instances_is_never_lost";
    let Some(base) = postgres_url(test) else {
        return;
    };
    let url = new_pg_database(&base).await;
    // 200 games from one address: no limit on creating games.
    let a = instance(&url, |c| c.games_per_minute = 0).await;
    let b = instance(&url, |c| c.games_per_minute = 0).await;
    let stored = server::storage::open(&url).await.unwrap();
    let mut count = RaceCount::default();
    for round in 0..ROUNDS {
        let draw = round % 2 == 1;
        let v = a
            .create(json!({"kind": "online", "name": "Anna", "color": "white"}))
            .await;
        let id = id_of(&v);
        let white = token(&v, "white");
        let black = v["invite"]["token"].as_str().unwrap().to_string();
        let (status, v) = b
            .action(id, "join", json!({"token": black, "name": "Ben"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        a.wait_for(id, 10, |s| s["players"]["black"]["joined"] == true)
            .await;
        a.play_ok(id, &white, 0, "d6").await;
        if draw {
            let (status, v) = a.draw(id, &white, "offer").await;
            assert_eq!(status, StatusCode::OK, "{v}");
            b.wait_for(id, 10, |s| s["ply"] == 1 && s["draw_offer"] == "white")
                .await;
        } else {
            b.wait_for(id, 10, |s| s["ply"] == 1).await;
        }
        let end = async {
            if draw {
                b.draw(id, &black, "accept").await
            } else {
                b.action(id, "resign", json!({"token": white})).await
            }
        };
        let ((moved, mv_body), (ended, end_body)) = tokio::join!(a.play(id, &black, 1, "f4"), end);
        let g = stored.load_game(id).await.unwrap().unwrap();
        let (moved, ended) = (moved == StatusCode::OK, ended == StatusCode::OK);
        let why = format!("round {round}: move {mv_body}, end {end_body}, stored {g:?}");
        let resigned = g.meta.status == server::storage::Status::Over
            && g.meta.reason.as_deref() == Some(if draw { "agreement" } else { "resignation" });
        // An acknowledged change is stored; a refused one is not.
        assert_eq!(
            g.moves.len() == 2,
            moved,
            "the move is stored iff acknowledged: {why}"
        );
        assert_eq!(resigned, ended, "the end is stored iff acknowledged: {why}");
        for (ok, body) in [(moved, &mv_body), (ended, &end_body)] {
            if !ok {
                assert_eq!(body["code"].as_str().map(|_| ()), Some(()), "{why}");
            }
        }
        match (moved, ended) {
            (true, false) => count.moved += 1,
            (false, true) => count.ended += 1,
            // One after the other (the second saw the first): a resignation
            // after the move; never a draw accepted after the move declined
            // the offer.
            (true, true) => {
                assert!(!draw, "a draw accepted after the move declined it: {why}");
                count.both += 1;
            }
            (false, false) => count.neither += 1,
        }
        // Both instances agree with the database.
        for s in [&a, &b] {
            s.wait_for(id, 10, |st| {
                st["ply"] == g.moves.len() as u64 && (st["status"] == "over") == resigned
            })
            .await;
        }
    }
    eprintln!("{ROUNDS} races on two instances: {count:?}, 0 inconsistent");
    assert_eq!(count.neither, 0, "{count:?}");
    stored.close().await;
}

/// The stored version of game `id` (every stored change bumps it).
async fn stored_version(url: &str, id: i64) -> i64 {
    let storage = server::storage::open(url).await.unwrap();
    let v = storage.load_game(id).await.unwrap().unwrap().version;
    storage.close().await;
    v
}

/// Instances A and B on a fresh database of the server `base`, going by
/// one manual clock; the database's URL and the clock.
async fn clocked_instances(
    base: &str,
) -> (
    TestServer,
    TestServer,
    String,
    Arc<server::clocks::ManualClock>,
) {
    let url = new_pg_database(base).await;
    let clock = server::clocks::ManualClock::new(1_800_000_000_000);
    let time = server::clocks::Time(clock.clone());
    let a = instance(&url, |c| c.time = time.clone()).await;
    let b = instance(&url, |c| c.time = time.clone()).await;
    (a, b, url, clock)
}

#[tokio::test]
async fn a_flag_on_two_instances_is_stored_once_and_reaches_both() {
    let Some(base) = postgres_url("a_flag_on_two_instances_is_stored_once_and_reaches_both") else {
        return;
    };
    let (a, b, url, clock) = clocked_instances(&base).await;
    let v = a
        .create(json!({"kind": "local", "time_control": "1+0"}))
        .await;
    let id = id_of(&v);
    let (white, black) = (token(&v, "white"), token(&v, "black"));
    a.play_ok(id, &white, 0, "d6").await;
    b.play_ok(id, &black, 1, "f4").await;
    // Both instances hold the game, with White's clock running.
    let mut on_a = a.ws(id).await;
    next_state_where(&mut on_a, |s| s["clock"]["running"] == "white").await;
    let mut on_b = b.ws(id).await;
    next_state_where(&mut on_b, |s| s["clock"]["running"] == "white").await;
    let before = stored_version(&url, id).await;
    clock.advance(60_000);
    let at = Instant::now();
    for ws in [&mut on_a, &mut on_b] {
        let st = next_state_where(ws, |s| s["status"] == "over").await;
        assert_eq!(
            (st["result"].as_str(), st["reason"].as_str()),
            (Some("0-1"), Some("time"))
        );
    }
    assert!(at.elapsed() < Duration::from_secs(1), "{:?}", at.elapsed());
    // Give the other instance's timer and the database sweep their turn:
    // the end was stored exactly once.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(stored_version(&url, id).await, before + 1);
}

#[tokio::test]
async fn who_is_connected_counts_on_every_instance() {
    let Some(base) = postgres_url("who_is_connected_counts_on_every_instance") else {
        return;
    };
    let (a, b, url, clock) = clocked_instances(&base).await;
    let v = a
        .create(json!({"kind": "online", "time_control": "5+3", "name": "Anna"}))
        .await;
    let id = id_of(&v);
    let white = token(&v, "white");
    let black = v["invite"]["token"].as_str().unwrap().to_string();
    b.action(id, "join", json!({"token": black})).await;
    a.play_ok(id, &white, 0, "d6").await;
    b.play_ok(id, &black, 1, "d2").await;
    // White is on A, Black on B: each sees the other connected.
    let mut on_a = a.ws(id).await;
    next_json(&mut on_a).await;
    send_text(
        &mut on_a,
        &json!({"type": "hello", "token": white}).to_string(),
    )
    .await;
    let mut on_b = b.ws(id).await;
    next_json(&mut on_b).await;
    send_text(
        &mut on_b,
        &json!({"type": "hello", "token": black}).to_string(),
    )
    .await;
    next_state_where(&mut on_a, |s| s["players"]["black"]["online"] == true).await;
    next_state_where(&mut on_b, |s| s["players"]["white"]["online"] == true).await;
    // Black cannot claim on B against White, who is connected on A (whose
    // count of sockets is renewed every second).
    clock.advance(40_000);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let (status, body) = b
        .action(id, "claim", json!({"token": black, "result": "win"}))
        .await;
    assert_error(status, &body, 409, "not_allowed");
    // Black leaves: A hears of it; 30 s later White may claim there.
    drop(on_b);
    next_state_where(&mut on_a, |s| s["players"]["black"]["online"] == false).await;
    let (status, body) = a
        .action(id, "claim", json!({"token": white, "result": "win"}))
        .await;
    assert_error(status, &body, 409, "not_allowed");
    clock.advance(30_000);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let (status, body) = a
        .action(id, "claim", json!({"token": white, "result": "win"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["reason"], "claimed");

    // An instance that died with Black's socket open: its count lapses
    // after 10 s without renewal, and Black is away since then.
    let v = a
        .create(json!({"kind": "online", "time_control": "5+3"}))
        .await;
    let id = id_of(&v);
    let white = token(&v, "white");
    let black = v["invite"]["token"].as_str().unwrap().to_string();
    a.action(id, "join", json!({"token": black})).await;
    a.play_ok(id, &white, 0, "d6").await;
    a.play_ok(id, &black, 1, "d2").await;
    let now: i64 = 1_800_000_000_000 + 70_000;
    {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
        sqlx::query(
            "INSERT INTO seat_presence (game_id, seat, instance, sockets, changed_at) \
             VALUES ($1, 1, 'gone', 1, $2)",
        )
        .bind(id)
        .bind(now)
        .execute(&mut conn)
        .await
        .unwrap();
    }
    clock.advance(9_000);
    let (status, body) = a
        .action(
            id,
            "claim",
            json!({"token": white.clone(), "result": "win"}),
        )
        .await;
    assert_error(status, &body, 409, "not_allowed");
    clock.advance(31_000);
    let (status, body) = a
        .action(id, "claim", json!({"token": white, "result": "draw"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}
