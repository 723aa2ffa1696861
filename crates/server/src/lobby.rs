//! The lobby (docs/API.md, "Lobby and challenges"): seeks anyone logged in
//! may accept, quick pairing, challenges to one player, and the games
//! being played, with a WebSocket that sends the lobby and its changes.
//!
//! Invitations live in the database ([`Storage::post_invitation`]), so
//! every instance on a shared database has the same ones; accepting one
//! is a conditional update of its status, which exactly one acceptor
//! wins. A change is sent to the lobby sockets here and announced to the
//! other instances ([`Cluster::announce_lobby`]), which send it to
//! theirs. A live seek (a clock in minutes, or none) lasts while its
//! poster has a lobby socket open on some instance (each renews the seeks
//! of its sockets' accounts); one not renewed for [`LAPSE_MS`] lapses. A
//! correspondence seek and a challenge stay until accepted, declined or
//! cancelled.
//!
//! [`Storage::post_invitation`]: crate::storage::Storage::post_invitation
//! [`Cluster::announce_lobby`]: crate::storage::Cluster::announce_lobby

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{MatchedPath, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::AppState;
use crate::account::{Login, SignedIn};
use crate::conn::ConnectionSlot;
use crate::error::{ApiError, ApiJson};
use crate::front::ClientAddr;
use crate::game::clock::TimeControlError;
use crate::game::{Color, LiveGame, TimeControl, Variant};
use crate::rating::{self, Rating};
use crate::registry::{GameRegistry, PairedPlayer, Pairing};
use crate::storage::{Invitation, InvitationTerms, InvitationsOf, blocked_either, name_key};
use crate::ws::{ClientAnswer, Keepalive, answer_binary, answer_text, carry_out, send_by};

/// The most open seeks one account may have.
pub const MAX_SEEKS: u32 = 5;

/// The most open challenges one account may have sent.
pub const MAX_CHALLENGES: u32 = 10;

/// A live seek not renewed for this long lapses (milliseconds).
pub const LAPSE_MS: i64 = 20_000;

/// How often the seeks of the accounts in the lobby here are renewed, and
/// lapsed seeks looked for.
const RENEW_EVERY: Duration = Duration::from_secs(5);

/// How many games being played the lobby lists.
const LIVE_GAMES: u32 = 30;

/// Lobby messages a socket may fall behind before it is sent the lobby
/// anew.
const CHANNEL_CAPACITY: usize = 1024;

/// One message to the lobby sockets: to all of them, or to those of some
/// accounts.
#[derive(Clone, Debug)]
struct Note {
    to: Option<Vec<i64>>,
    text: Utf8Bytes,
}

/// The lobby of this instance: its sockets, and the accounts that have
/// one open.
pub struct Lobby {
    registry: Arc<GameRegistry>,
    tx: broadcast::Sender<Note>,
    /// Account → its lobby sockets here.
    here: Mutex<HashMap<i64, usize>>,
}

impl Lobby {
    /// The lobby of `registry`'s games; its seeks are renewed and swept
    /// until the registry closes.
    pub fn start(registry: Arc<GameRegistry>) -> Arc<Lobby> {
        let lobby = Arc::new(Lobby {
            registry,
            tx: broadcast::channel(CHANNEL_CAPACITY).0,
            here: Mutex::new(HashMap::new()),
        });
        if tokio::runtime::Handle::try_current().is_ok() {
            let weak = Arc::downgrade(&lobby);
            let mut closing = lobby.registry.closing();
            tokio::spawn(async move {
                loop {
                    tokio::select! {
                        _ = tokio::time::sleep(RENEW_EVERY) => {}
                        _ = closing.changed() => return,
                    }
                    let Some(lobby) = weak.upgrade() else { return };
                    lobby.renew_and_sweep().await;
                }
            });
        }
        lobby
    }

    fn now(&self) -> i64 {
        self.registry.time().now_ms()
    }

    /// Renew the seeks of the accounts in the lobby here; lapse the seeks
    /// nobody renewed.
    pub async fn renew_and_sweep(&self) {
        let storage = self.registry.storage();
        let accounts: Vec<i64> = self
            .here
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .copied()
            .collect();
        let now = self.now();
        if !accounts.is_empty()
            && let Err(e) = storage.renew_invitations(accounts, now).await
        {
            tracing::warn!(error = %e, "renewing the seeks failed");
        }
        match storage.sweep_invitations(now, LAPSE_MS).await {
            Ok(lapsed) => {
                for seek in lapsed {
                    self.publish(None, json!({"type": "seek_removed", "id": seek.id}));
                }
            }
            Err(e) => tracing::warn!(error = %e, "sweeping the seeks failed"),
        }
    }

    /// Send `message` to the lobby sockets (of the accounts `to`, or all),
    /// here and on the other instances.
    fn publish(&self, to: Option<Vec<i64>>, message: Value) {
        let wire = json!({"to": to, "message": message}).to_string();
        self.deliver(to, message.to_string());
        if self.registry.storage().cluster().is_some()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            let registry = self.registry.clone();
            tokio::spawn(async move {
                if let Some(c) = registry.storage().cluster()
                    && let Err(e) = c.announce_lobby(wire).await
                {
                    tracing::warn!(error = %e, "telling the other lobbies failed");
                }
            });
        }
    }

    /// Another instance's lobby message (crate::cluster).
    pub(crate) fn heard(&self, wire: &str) {
        let Ok(v) = serde_json::from_str::<Value>(wire) else {
            return;
        };
        let to = v["to"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_i64).collect::<Vec<i64>>());
        if let Some(message) = v.get("message") {
            self.deliver(to, message.to_string());
        }
    }

    fn deliver(&self, to: Option<Vec<i64>>, text: String) {
        if self.tx.receiver_count() > 0 {
            let _ = self.tx.send(Note {
                to,
                text: text.into(),
            });
        }
    }

    /// The lobby sockets open here.
    pub fn sockets(&self) -> usize {
        self.tx.receiver_count()
    }

    /// A lobby socket of `account` opened: its seeks are renewed while the
    /// guard lives.
    fn enter(self: &Arc<Self>, account: Option<i64>) -> InLobby {
        if let Some(a) = account {
            *self
                .here
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(a)
                .or_default() += 1;
        }
        InLobby {
            lobby: self.clone(),
            account,
        }
    }
}

/// A lobby socket is open.
struct InLobby {
    lobby: Arc<Lobby>,
    account: Option<i64>,
}

impl Drop for InLobby {
    fn drop(&mut self) {
        if let Some(a) = self.account {
            let mut here = self.lobby.here.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = here.get_mut(&a) {
                *n -= 1;
                if *n == 0 {
                    here.remove(&a);
                }
            }
        }
    }
}

/// The lobby's routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/lobby", get(lobby))
        .route("/lobby/ws", get(socket))
        .route("/lobby/seeks", post(post_seek))
        .route("/lobby/seeks/{id}/{action}", post(act_on))
        .route("/lobby/quick", post(quick))
        .route("/challenges", post(challenge).get(challenges))
        .route("/challenges/{id}/{action}", post(act_on))
}

/// A player's rating as the lobby shows it.
fn rating_json(r: Rating) -> Value {
    json!({"rating": r.rating.round() as i64, "provisional": r.provisional()})
}

/// An invitation as the API shows it.
fn invitation_json(i: &Invitation) -> Value {
    let rating = i
        .rating
        .map_or_else(Rating::default, |(rating, deviation)| Rating {
            rating,
            deviation,
            ..Rating::default()
        });
    let mut v = json!({
        "id": i.id,
        "game": i.terms.game,
        "rules": i.terms.rules,
        "time_control": i.terms.time_control,
        "rated": i.terms.rated,
        "color": i.terms.color,
        "rating_min": i.terms.rating_min,
        "rating_max": i.terms.rating_max,
        "player": {"name": i.name, "rating": rating_json(rating)},
        "created_at": i.created_at,
    });
    if let Some(to) = &i.to_name {
        v["to"] = json!(to);
        v["status"] = json!(i.status);
        v["game_id"] = json!(i.game_id);
    }
    v
}

/// The open seeks.
async fn seeks(app: &AppState) -> Result<Vec<Value>, ApiError> {
    let now = app.lobby.now();
    let list = app
        .registry
        .storage()
        .invitations(InvitationsOf::Seeks, now)
        .await?;
    Ok(list.iter().map(invitation_json).collect())
}

/// The challenges from and to `account`.
async fn challenges_of(app: &AppState, account: i64) -> Result<Value, ApiError> {
    let now = app.lobby.now();
    let list = app
        .registry
        .storage()
        .invitations(InvitationsOf::Challenges(account), now)
        .await?;
    let (out, incoming): (Vec<&Invitation>, Vec<&Invitation>) =
        list.iter().partition(|i| i.terms.account == account);
    let json = |l: Vec<&Invitation>| l.into_iter().map(invitation_json).collect::<Vec<_>>();
    Ok(json!({"in": json(incoming), "out": json(out)}))
}

/// `GET /api/lobby`: the open seeks and the games being played.
async fn lobby(State(app): State<AppState>, login: Login) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({
        "seeks": seeks(&app).await?,
        "games": app.registry.games_in_play(LIVE_GAMES).await?,
        "you": login.0.as_ref().map(|s| s.account.name.clone()),
    })))
}

/// What a seek or challenge asks for.
#[derive(Deserialize)]
struct SeekRequest {
    game: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default = "untimed")]
    time_control: String,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    rating_min: Option<i64>,
    #[serde(default)]
    rating_max: Option<i64>,
}

fn untimed() -> String {
    "-".into()
}

/// Terms checked: the invitation to post (for `account`).
fn check_terms(t: &SeekRequest, account: i64) -> Result<InvitationTerms, ApiError> {
    let variant = Variant::parse(&t.game)?;
    let game = LiveGame::create(variant, t.rules.as_deref(), None, None)?;
    let rules = game.rules_text();
    let control: TimeControl = t
        .time_control
        .parse()
        .map_err(|e: TimeControlError| ApiError::BadRequest(format!("time_control: {e}")))?;
    let color = t.color.as_deref().unwrap_or("random");
    if !matches!(color, "white" | "black" | "random") {
        return Err(ApiError::BadRequest(format!(
            "unknown color '{color}' (white, black or random)"
        )));
    }
    let pool = rating::pool_of(variant, &rules);
    if t.rated && pool.is_none() {
        return Err(ApiError::BadRequest(format!(
            "rated games are played by a preset's rules as they are; '{rules}' is none"
        )));
    }
    let range = 0..=4000;
    if [t.rating_min, t.rating_max]
        .iter()
        .flatten()
        .any(|r| !range.contains(r))
        || matches!((t.rating_min, t.rating_max), (Some(a), Some(b)) if a > b)
    {
        return Err(ApiError::BadRequest(
            "the rating range is from 0 to 4000, its minimum not above its maximum".into(),
        ));
    }
    Ok(InvitationTerms {
        account,
        to_account: None,
        game: variant.name().to_string(),
        rules,
        time_control: control.to_string(),
        rated: t.rated,
        color: color.to_string(),
        rating_min: t.rating_min,
        rating_max: t.rating_max,
        pool,
        live: !matches!(control, TimeControl::Correspondence { .. }),
    })
}

/// Post seek `new` (its poster has at most [`MAX_SEEKS`] open).
async fn post_new(app: &AppState, new: InvitationTerms) -> Result<Invitation, ApiError> {
    let posted = app
        .registry
        .storage()
        .post_invitation(new, app.lobby.now(), MAX_SEEKS)
        .await?;
    let Some(seek) = posted else {
        return Err(ApiError::NotAllowed(format!(
            "you have {MAX_SEEKS} open seeks already; cancel one first"
        )));
    };
    app.lobby.publish(
        None,
        json!({"type": "seek", "seek": invitation_json(&seek)}),
    );
    Ok(seek)
}

/// `POST /api/lobby/seeks`.
async fn post_seek(
    State(app): State<AppState>,
    login: Login,
    ApiJson(t): ApiJson<SeekRequest>,
) -> Result<Response, ApiError> {
    let signed = login.required()?;
    let new = check_terms(&t, signed.account.id)?;
    let seek = post_new(&app, new).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"seek": invitation_json(&seek)})),
    )
        .into_response())
}

/// `POST /api/lobby/seeks/{id}/accept|cancel` and
/// `POST /api/challenges/{id}/accept|decline|cancel`: a seek is accepted
/// by anyone logged in but its poster and cancelled by its poster; a
/// challenge is accepted or declined by its player, cancelled by its
/// challenger, and unknown to everyone else (`not_found`).
async fn act_on(
    State(app): State<AppState>,
    matched: MatchedPath,
    login: Login,
    path: Result<Path<(i64, String)>, axum::extract::rejection::PathRejection>,
) -> Result<Json<Value>, ApiError> {
    let missing = || ApiError::NotFound("there is no such seek or challenge".into());
    let Ok(Path((id, action))) = path else {
        return Err(missing());
    };
    let challenge = matched.as_str().contains("/challenges/");
    let known = ["accept", "cancel"].contains(&action.as_str()) || challenge && action == "decline";
    if !known {
        return Err(ApiError::NotFound(
            "no such API endpoint (see docs/API.md)".into(),
        ));
    }
    let signed = login.required()?;
    let me = signed.account.id;
    let i = app
        .registry
        .storage()
        .invitation(id)
        .await?
        .filter(|i| match i.terms.to_account {
            None => !challenge,
            Some(to) => challenge && (to == me || i.terms.account == me),
        })
        .ok_or_else(missing)?;
    let (poster, player) = (i.terms.account == me, i.terms.to_account == Some(me));
    let (allowed, status) = match action.as_str() {
        "accept" if challenge => (player, "accepted"),
        "accept" => (!poster, "accepted"),
        "decline" => (player, "declined"),
        _ => (poster, "cancelled"),
    };
    if !allowed {
        return Err(ApiError::Forbidden(format!(
            "only {} may {action} this",
            match (challenge, action.as_str()) {
                (false, "accept") => "another player than its poster",
                (false, _) => "its poster",
                (true, "cancel") => "the challenger",
                (true, _) => "the challenged player",
            }
        )));
    }
    if status == "accepted" {
        let game = accept(&app, &signed, &i).await?;
        return started(&app, &signed, game).await;
    }
    settle(&app, &i, status).await?;
    match i.terms.to_account {
        None => app
            .lobby
            .publish(None, json!({"type": "seek_removed", "id": i.id})),
        Some(to) => app.lobby.publish(
            Some(vec![to, i.terms.account]),
            json!({"type": format!("challenge_{status}"), "id": i.id}),
        ),
    }
    Ok(Json(json!({"id": i.id, "status": status})))
}

/// An open invitation becomes `to`; `not_allowed` if it is not open any
/// more.
async fn settle(app: &AppState, i: &Invitation, to: &'static str) -> Result<(), ApiError> {
    let now = app.lobby.now();
    let done = app
        .registry
        .storage()
        .settle_invitation(i.id, "open", to, None, now)
        .await?;
    if !done {
        return Err(ApiError::NotAllowed(
            "this seek or challenge is no longer open".into(),
        ));
    }
    Ok(())
}

/// `signed`'s rating in the pool of `i` (the start rating if none).
async fn rating_in(app: &AppState, signed: &SignedIn, i: &Invitation) -> Result<Rating, ApiError> {
    let Some(pool) = &i.terms.pool else {
        return Ok(Rating::default());
    };
    let ratings = app
        .registry
        .storage()
        .account_ratings(signed.account.id)
        .await?;
    Ok(ratings
        .iter()
        .find(|r| &r.pool == pool)
        .map_or_else(Rating::default, |r| r.rating))
}

/// Accept invitation `i` for `signed`: exactly one acceptor wins it; the
/// game starts, both players are told. The new game's id.
async fn accept(app: &AppState, signed: &SignedIn, i: &Invitation) -> Result<i64, ApiError> {
    if i.terms.account == signed.account.id {
        return Err(ApiError::Forbidden(
            "you cannot accept your own seek".into(),
        ));
    }
    // A player blocked by the other, or blocking them, does not play them.
    if blocked_either(
        app.registry.storage().as_ref(),
        i.terms.account,
        signed.account.id,
    )
    .await?
    {
        return Err(ApiError::NotAllowed(
            "you cannot play this player (one of you blocked the other)".into(),
        ));
    }
    let r = rating_in(app, signed, i).await?.rating.round() as i64;
    if i.terms.rating_min.is_some_and(|min| r < min)
        || i.terms.rating_max.is_some_and(|max| r > max)
    {
        return Err(ApiError::NotAllowed(format!(
            "your rating {r} is outside the range this seek asks for"
        )));
    }
    settle(app, i, "accepted").await?;
    let storage = app.registry.storage();
    let now = app.lobby.now();
    let started = start_game(app, signed, i).await;
    let game = match started {
        Ok(game) => game,
        Err(e) => {
            // Nobody plays it: the invitation is open again.
            storage
                .settle_invitation(i.id, "accepted", "open", None, now)
                .await?;
            return Err(e);
        }
    };
    storage
        .settle_invitation(i.id, "accepted", "accepted", Some(game), now)
        .await?;
    let players = vec![i.terms.account, signed.account.id];
    match i.terms.to_account {
        None => app
            .lobby
            .publish(None, json!({"type": "seek_removed", "id": i.id})),
        Some(_) => app.lobby.publish(
            Some(players.clone()),
            json!({"type": "challenge_accepted", "id": i.id, "game": game}),
        ),
    }
    app.lobby
        .publish(Some(players), json!({"type": "started", "game": game}));
    Ok(game)
}

/// The game of invitation `i` between its poster and `signed`.
async fn start_game(app: &AppState, signed: &SignedIn, i: &Invitation) -> Result<i64, ApiError> {
    let variant = Variant::parse(&i.terms.game)?;
    let game = LiveGame::create(variant, Some(&i.terms.rules), None, None)?;
    let control: TimeControl = i
        .terms
        .time_control
        .parse()
        .map_err(|e: TimeControlError| ApiError::Internal(format!("time control: {e}")))?;
    let poster_white = match i.terms.color.as_str() {
        "white" => true,
        "black" => false,
        _ => fastrand::bool(),
    };
    let poster = PairedPlayer {
        account: Some(i.terms.account),
        name: Some(i.name.clone()),
        token_hash: None,
    };
    let acceptor = PairedPlayer {
        account: Some(signed.account.id),
        name: Some(signed.account.name.clone()),
        token_hash: None,
    };
    let players = if poster_white {
        [poster, acceptor]
    } else {
        [acceptor, poster]
    };
    let registry = app.registry.clone();
    let rated = i.terms.rated;
    let (id, _) = tokio::spawn(async move {
        registry
            .create_paired(Pairing {
                game,
                control,
                rated,
                players,
            })
            .await
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(id)
}

/// The answer to an accepted invitation: the game and the acceptor's
/// colour.
async fn started(app: &AppState, signed: &SignedIn, game: i64) -> Result<Json<Value>, ApiError> {
    let who = crate::registry::Credentials {
        token: None,
        account: Some(signed.account.id),
    };
    let color: Option<Color> = app.registry.seat_as(game, who).await?;
    Ok(Json(json!({"game": game, "color": color})))
}

/// `POST /api/lobby/quick`: accept an open seek of the same game, rules,
/// time control and rated flag whose range admits the player; else post
/// one (or answer the player's own, if open already).
async fn quick(
    State(app): State<AppState>,
    login: Login,
    ApiJson(t): ApiJson<SeekRequest>,
) -> Result<Response, ApiError> {
    let signed = login.required()?;
    let me = signed.account.id;
    let mut new = check_terms(&t, me)?;
    new.color = "random".into();
    let now = app.lobby.now();
    let open = app
        .registry
        .storage()
        .invitations(InvitationsOf::Seeks, now)
        .await?;
    let same = |i: &&Invitation| {
        i.terms.game == new.game
            && i.terms.rules == new.rules
            && i.terms.time_control == new.time_control
            && i.terms.rated == new.rated
    };
    for seek in open.iter().filter(same).filter(|i| i.terms.account != me) {
        match accept(&app, &signed, seek).await {
            Ok(game) => return Ok(started(&app, &signed, game).await?.into_response()),
            // Taken meanwhile, or out of its range: the next one.
            Err(ApiError::NotAllowed(_)) => continue,
            Err(e) => return Err(e),
        }
    }
    if let Some(mine) = open.iter().filter(same).find(|i| i.terms.account == me) {
        return Ok(Json(json!({"seek": invitation_json(mine)})).into_response());
    }
    let seek = post_new(&app, new).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"seek": invitation_json(&seek)})),
    )
        .into_response())
}

/// A challenge: the terms and the player's name.
#[derive(Deserialize)]
struct ChallengeRequest {
    to: String,
    #[serde(flatten)]
    terms: SeekRequest,
}

/// `POST /api/challenges`.
async fn challenge(
    State(app): State<AppState>,
    login: Login,
    ApiJson(req): ApiJson<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let signed = login.required()?;
    let storage = app.registry.storage();
    let to = storage
        .account_by_name(&name_key(req.to.trim()))
        .await?
        .filter(|a| !a.closed)
        .ok_or_else(|| ApiError::NotFound(format!("there is no player '{}'", req.to.trim())))?;
    if to.id == signed.account.id {
        return Err(ApiError::NotAllowed("you cannot challenge yourself".into()));
    }
    if blocked_either(storage.as_ref(), signed.account.id, to.id).await? {
        return Err(ApiError::NotAllowed(format!(
            "you cannot challenge {} (one of you blocked the other)",
            to.name
        )));
    }
    let mut new = check_terms(&req.terms, signed.account.id)?;
    new.to_account = Some(to.id);
    new.live = false;
    new.rating_min = None;
    new.rating_max = None;
    let Some(posted) = storage
        .post_invitation(new, app.lobby.now(), MAX_CHALLENGES)
        .await?
    else {
        return Err(ApiError::NotAllowed(format!(
            "you have {MAX_CHALLENGES} open challenges already; cancel one first"
        )));
    };
    let body = invitation_json(&posted);
    app.lobby.publish(
        Some(vec![posted.terms.account, to.id]),
        json!({"type": "challenge", "challenge": body}),
    );
    Ok((StatusCode::CREATED, Json(json!({"challenge": body}))).into_response())
}

/// `GET /api/challenges`: the player's, in and out.
async fn challenges(State(app): State<AppState>, login: Login) -> Result<Json<Value>, ApiError> {
    let signed = login.required()?;
    Ok(Json(challenges_of(&app, signed.account.id).await?))
}

/// The lobby as a socket's first message: the seeks and, for a login,
/// its challenges.
async fn snapshot(app: &AppState, account: Option<i64>) -> Result<Message, ApiError> {
    let mut v = json!({"type": "lobby", "seeks": seeks(app).await?});
    if let Some(a) = account {
        v["challenges"] = challenges_of(app, a).await?;
    }
    Ok(Message::Text(v.to_string().into()))
}

/// `GET /api/lobby/ws`.
async fn socket(
    State(app): State<AppState>,
    slot: Option<Extension<ConnectionSlot>>,
    client: Option<Extension<ClientAddr>>,
    login: Login,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let (upgrade, held) = crate::ws::open(&app, client, upgrade)?;
    let account = login.account();
    let rx = app.lobby.tx.subscribe();
    let first = snapshot(&app, account).await?;
    Ok(upgrade
        .max_message_size(64 * 1024)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            let _held = held;
            let _in = app.lobby.enter(account);
            run(socket, app.clone(), rx, first, account).await
        }))
}

async fn run(
    mut socket: WebSocket,
    app: AppState,
    mut rx: broadcast::Receiver<Note>,
    first: Message,
    account: Option<i64>,
) {
    let keepalive: Keepalive = app.ws;
    let mut closing = app.registry.closing();
    let mut heard = Instant::now();
    let deadline = |heard: Instant| heard + keepalive.idle_timeout;
    if *closing.borrow_and_update() || !send_by(&mut socket, first, deadline(heard)).await {
        return;
    }
    let mut pings =
        tokio::time::interval_at(heard + keepalive.ping_interval, keepalive.ping_interval);
    loop {
        let out = tokio::select! {
            note = rx.recv() => match note {
                Ok(note) => {
                    let mine = note.to.as_ref().is_none_or(|to| account.is_some_and(|a| to.contains(&a)));
                    if !mine {
                        continue;
                    }
                    Message::Text(note.text)
                }
                Err(RecvError::Lagged(_)) => match snapshot(&app, account).await {
                    Ok(m) => m,
                    Err(_) => return,
                },
                Err(RecvError::Closed) => return,
            },
            incoming = socket.recv() => {
                let answer = match incoming {
                    Some(Ok(Message::Text(text))) => answer_text(&text),
                    Some(Ok(Message::Binary(data))) => answer_binary(data.len()),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {
                        heard = Instant::now();
                        continue;
                    }
                    _ => return,
                };
                heard = Instant::now();
                if !carry_out(&mut socket, answer, deadline(heard)).await {
                    return;
                }
                continue;
            },
            _ = pings.tick() => Message::Ping(Default::default()),
            () = tokio::time::sleep_until(deadline(heard)) => {
                let answer = ClientAnswer::Close(close_code::AWAY, "no answer to pings");
                let _ = carry_out(&mut socket, answer, Instant::now() + Duration::from_secs(1)).await;
                return;
            }
            _ = closing.changed() => {
                let answer = ClientAnswer::Close(close_code::AWAY, "the server is shutting down");
                let _ = carry_out(&mut socket, answer, deadline(heard)).await;
                return;
            }
        };
        if !send_by(&mut socket, out, deadline(heard)).await {
            return;
        }
    }
}
