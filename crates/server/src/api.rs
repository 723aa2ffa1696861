//! The HTTP handlers of docs/API.md.

use std::time::Duration;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::AppState;
use crate::account::Login;
use crate::error::{ApiError, ApiJson, ApiQuery, GameId, TokenHeldNoSeat};
use crate::game::clock::TimeControlError;
use crate::game::{Color, LiveGame, TimeControl, Variant};
use crate::game_state::{GameState, Kind, StateForSeat};
use crate::guard::Requester;
use crate::registry::{Action, CreateGame, Credentials, DrawAction, RematchAction};
use crate::storage::{GameFilter, Outcome, StatusFilter};
use crate::util::clean_name;

/// The `/api` routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games", post(create).get(archive))
        .route(
            "/games/import",
            post(import).layer(DefaultBodyLimit::max(crate::error::IMPORT_LIMIT)),
        )
        .route("/games/{id}", get(state))
        .route("/games/{id}/moves", post(play))
        .route("/games/{id}/huff", post(huff))
        .route("/games/{id}/draw", post(draw))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/takeback", post(takeback))
        .route("/games/{id}/join", post(join))
        .route("/games/{id}/abort", post(abort))
        .route("/games/{id}/claim", post(claim))
        .route("/games/{id}/give-time", post(give_time))
        .route("/games/{id}/rematch", post(rematch))
        .route("/games/{id}/record", get(record))
        .route("/games/{id}/review", get(review))
        .route(
            "/games/{id}/analysis",
            post(start_game_analysis).get(game_analysis),
        )
        .route("/games/{id}/ws", get(crate::ws::handler))
        .route("/analyze", post(analyze))
        .route("/tablebase", get(tablebase_status))
        .route("/perfect", get(perfect_overview))
        .route("/perfect/build", post(perfect_build))
        .route("/perfect/build/pause", post(perfect_pause))
        .route("/perfect/build/resume", post(perfect_resume))
        .route("/catalogue", get(catalogue))
        .route("/test/clock", post(advance_test_clock))
        .merge(crate::account::routes())
        .merge(crate::chat::routes())
        .merge(crate::lobby::routes())
        .fallback(unknown_api)
        .method_not_allowed_fallback(method_not_allowed)
}

/// The games brett plays, with their presets, in every language of the app.
async fn catalogue() -> Json<Value> {
    Json(crate::game::catalogue_json())
}

#[derive(Deserialize)]
struct AdvanceRequest {
    advance_ms: i64,
}

/// `POST /api/test/clock` (`brett serve --test-clock` only): move the
/// server's clock on; answers the time now.
async fn advance_test_clock(
    State(app): State<AppState>,
    ApiJson(req): ApiJson<AdvanceRequest>,
) -> Result<Json<Value>, ApiError> {
    let Some(clock) = &app.test_clock else {
        return Err(unknown_api().await);
    };
    if req.advance_ms < 0 {
        return Err(ApiError::BadRequest("advance_ms is 0 or more".into()));
    }
    Ok(Json(json!({ "now_ms": clock.advance(req.advance_ms) })))
}

async fn unknown_api() -> ApiError {
    ApiError::NotFound("no such API endpoint (see docs/API.md)".into())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed("this endpoint does not take that method".into())
}

/// Run a change of a game to its end even if the client goes away
/// meanwhile: a change is stored, taken over in memory and broadcast as one
/// piece, never cut off between storing and broadcasting.
async fn detached<T: Send + 'static>(
    change: impl std::future::Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(change).await.map_err(ApiError::internal)?
}

/// A state answer; with the seat the request's token holds as `you`.
fn with_you(state: GameState, you: Option<Color>) -> Json<StateForSeat> {
    Json(StateForSeat { state, you })
}

/// Carry out `action` for the seat of `token` (or of the login's account)
/// in game `id` (to its end, [`detached`]); the answer is the new state,
/// for that seat.
async fn act(
    app: &AppState,
    id: i64,
    token: Option<String>,
    login: Login,
    action: Action,
) -> Result<Json<StateForSeat>, ApiError> {
    act_with_lag(app, id, token, login, action, 0).await
}

/// [`act`] for a move whose client measured `lag_ms` of network delay.
async fn act_with_lag(
    app: &AppState,
    id: i64,
    token: Option<String>,
    login: Login,
    action: Action,
    lag_ms: u64,
) -> Result<Json<StateForSeat>, ApiError> {
    let registry = app.registry.clone();
    let account = login.account();
    let (side, state) = detached(async move {
        let who = Credentials {
            token: token.as_deref(),
            account,
        };
        registry.apply_as(id, who, action, lag_ms).await
    })
    .await?;
    Ok(with_you(state, Some(side)))
}

#[derive(Deserialize)]
struct CreateRequest {
    #[serde(default = "default_game")]
    game: String,
    kind: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    options: Option<Map<String, Value>>,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    rated: bool,
}

fn default_game() -> String {
    "muehle".into()
}

async fn create(
    State(app): State<AppState>,
    login: Login,
    ApiJson(req): ApiJson<CreateRequest>,
) -> Result<Response, ApiError> {
    let game = Variant::parse(&req.game)?;
    let kind = match Kind::parse(&req.kind) {
        Some(k @ (Kind::Computer | Kind::Local | Kind::Online)) => k,
        _ => {
            return Err(ApiError::BadRequest(format!(
                "unknown kind '{}' (kinds: computer, local, online)",
                req.kind
            )));
        }
    };
    let level = req.level.unwrap_or(5);
    if !(1..=10).contains(&level) {
        return Err(ApiError::BadRequest("level is 1 to 10".into()));
    }
    let color = match req.color.as_deref().unwrap_or("white") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => {
            if fastrand::bool() {
                Color::White
            } else {
                Color::Black
            }
        }
        other => {
            return Err(ApiError::BadRequest(format!(
                "unknown color '{other}' (white, black or random)"
            )));
        }
    };
    let name = login.seat_name(clean_name(req.name.as_deref()).map_err(ApiError::BadRequest)?);
    let control: TimeControl = match req.time_control.as_deref() {
        None => TimeControl::Untimed,
        Some(text) => text
            .parse()
            .map_err(|e: TimeControlError| ApiError::BadRequest(format!("time_control: {e}")))?,
    };
    let game = LiveGame::create(
        game,
        req.rules.as_deref(),
        req.options.as_ref(),
        req.position.as_deref().map(str::trim),
    )?;
    let registry = app.registry.clone();
    let created = detached(async move {
        registry
            .create(CreateGame {
                game,
                kind,
                level,
                color,
                name,
                control,
                account: login.account(),
                rated: req.rated,
            })
            .await
    })
    .await?;
    let tokens: Map<String, Value> = created
        .tokens
        .iter()
        .map(|(side, token)| (side.name().to_string(), json!(token)))
        .collect();
    let mut body = json!({"id": created.id, "tokens": tokens, "state": created.state});
    if let Some((side, token)) = &created.invite {
        body["invite"] = json!({
            "color": side,
            "token": token,
            "url": format!("/game/{}#token={token}", created.id),
        });
    }
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[derive(Deserialize)]
struct StateQuery {
    token: Option<String>,
}

async fn state(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiQuery(q): ApiQuery<StateQuery>,
) -> Result<Response, ApiError> {
    let state = app.registry.state(id).await?;
    match q.token.as_deref() {
        None if login.0.is_some() => {
            let who = Credentials {
                token: None,
                account: login.account(),
            };
            let you = app.registry.seat_as(id, who).await?;
            Ok(with_you(state, you).into_response())
        }
        Some(t) => {
            let you = app.registry.seat(id, t).await?;
            let mut response = with_you(state, you).into_response();
            if you.is_none() {
                response.extensions_mut().insert(TokenHeldNoSeat);
            }
            Ok(response)
        }
        None => Ok(Json(state).into_response()),
    }
}

#[derive(Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    #[serde(default)]
    token: Option<String>,
    ply: u64,
    /// The network delay the client measured (its WebSocket's round trip
    /// halved), credited to its clock up to a cap.
    #[serde(default)]
    lag_ms: Option<u64>,
}

async fn play(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    if req.mv.len() > 64 {
        return Err(ApiError::IllegalMove("that is not a move".into()));
    }
    let action = Action::Move {
        ply: req.ply,
        text: req.mv,
    };
    act_with_lag(&app, id, req.token, login, action, req.lag_ms.unwrap_or(0)).await
}

#[derive(Deserialize)]
struct HuffRequest {
    square: String,
    #[serde(default)]
    token: Option<String>,
    ply: u64,
}

async fn huff(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<HuffRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    let square = req.square.trim();
    if square.is_empty() || square.len() > 8 || square.contains(char::is_whitespace) {
        return Err(ApiError::BadRequest(
            "square is the name of one square (e5 on 8×8, 28 on 10×10)".into(),
        ));
    }
    let action = Action::Huff {
        ply: req.ply,
        square: square.to_string(),
    };
    act(&app, id, req.token, login, action).await
}

#[derive(Deserialize)]
struct TokenRequest {
    #[serde(default)]
    token: Option<String>,
}

#[derive(Deserialize)]
struct DrawRequest {
    #[serde(default)]
    token: Option<String>,
    action: String,
}

async fn draw(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<DrawRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    let action = match req.action.as_str() {
        "offer" => DrawAction::Offer,
        "accept" => DrawAction::Accept,
        "decline" => DrawAction::Decline,
        other => {
            return Err(ApiError::BadRequest(format!(
                "unknown draw action '{other}' (offer, accept or decline)"
            )));
        }
    };
    act(&app, id, req.token, login, Action::Draw(action)).await
}

async fn resign(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<TokenRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    act(&app, id, req.token, login, Action::Resign).await
}

async fn abort(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<TokenRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    act(&app, id, req.token, login, Action::Abort).await
}

#[derive(Deserialize)]
struct ClaimRequest {
    #[serde(default)]
    token: Option<String>,
    result: String,
}

async fn claim(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<ClaimRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    let win = match req.result.as_str() {
        "win" => true,
        "draw" => false,
        other => {
            return Err(ApiError::BadRequest(format!(
                "unknown claim '{other}' (win or draw)"
            )));
        }
    };
    act(&app, id, req.token, login, Action::Claim { win }).await
}

async fn give_time(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<TokenRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    act(&app, id, req.token, login, Action::GiveTime).await
}

#[derive(Deserialize)]
struct RematchRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    action: Option<String>,
}

/// The actions of `POST /api/games/{id}/rematch`.
const REMATCH_ACTIONS: [(&str, RematchAction); 4] = [
    ("offer", RematchAction::Offer),
    ("accept", RematchAction::Offer),
    ("decline", RematchAction::Decline),
    ("withdraw", RematchAction::Decline),
];

/// `POST /api/games/{id}/rematch`: offer (or accept) a rematch, or
/// decline (or withdraw) it; once accepted, the caller's seat of the new
/// game.
async fn rematch(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<RematchRequest>,
) -> Result<Json<Value>, ApiError> {
    let asked = req.action.as_deref().unwrap_or("offer");
    let Some(&(_, action)) = REMATCH_ACTIONS.iter().find(|(name, _)| *name == asked) else {
        return Err(ApiError::BadRequest(format!(
            "unknown rematch action '{asked}' (offer, accept, decline or withdraw)"
        )));
    };
    let registry = app.registry.clone();
    let account = login.account();
    let (state, seat) = detached(async move {
        let who = Credentials {
            token: req.token.as_deref(),
            account,
        };
        registry.rematch(id, who, action).await
    })
    .await?;
    let mut body = json!({"state": state});
    if let Some(seat) = seat {
        body["game"] = json!(seat.game);
        body["color"] = json!(seat.color);
        if let Some(token) = seat.token {
            body["token"] = json!(token);
        }
    }
    Ok(Json(body))
}

async fn takeback(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<TokenRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    act(&app, id, req.token, login, Action::Takeback).await
}

#[derive(Deserialize)]
struct JoinRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

async fn join(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<JoinRequest>,
) -> Result<Json<StateForSeat>, ApiError> {
    let name = login.seat_name(clean_name(req.name.as_deref()).map_err(ApiError::BadRequest)?);
    act(&app, id, req.token, login, Action::Join { name }).await
}

async fn record(State(app): State<AppState>, GameId(id): GameId) -> Result<Response, ApiError> {
    let (text, game) = app.registry.record(id).await?;
    // Dame records are PDN; Mühle records are text in docs/RULES.md's format.
    let ext = game.record_extension();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"brett-{id}.{ext}\""),
            ),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
struct ImportRequest {
    #[serde(default)]
    game: Option<String>,
    record: String,
}

async fn import(
    State(app): State<AppState>,
    ApiJson(req): ApiJson<ImportRequest>,
) -> Result<Response, ApiError> {
    let game = req.game.as_deref().map(Variant::parse).transpose()?;
    let registry = app.registry.clone();
    let id = detached(async move { registry.import(game, &req.record).await }).await?;
    Ok((StatusCode::CREATED, Json(json!({"id": id}))).into_response())
}

/// A page of a list of games: `?limit=50&offset=0`.
#[derive(Deserialize)]
pub(crate) struct ArchiveQuery {
    limit: Option<u32>,
    offset: Option<u32>,
    /// `finished`, `ongoing` or `all`.
    status: Option<String>,
    /// A catalogue name.
    game: Option<String>,
    /// `win`, `loss`, `draw` (for a player's games), `1-0`, `0-1`,
    /// `1/2-1/2` (for any).
    result: Option<String>,
    /// A player's name.
    player: Option<String>,
    /// The first day (`YYYY-MM-DD`).
    from: Option<String>,
    /// The last day (`YYYY-MM-DD`).
    to: Option<String>,
}

impl ArchiveQuery {
    /// The limit (50 unless given, at most [`MAX_PAGE`]) and the offset.
    pub(crate) fn page(&self) -> (u32, u32) {
        (
            self.limit.unwrap_or(50).min(MAX_PAGE),
            self.offset.unwrap_or(0),
        )
    }

    /// The games the query asks for: of `account` if given, in the state
    /// `status` unless the query names one.
    pub(crate) fn filter(
        &self,
        account: Option<i64>,
        status: StatusFilter,
    ) -> Result<GameFilter, ApiError> {
        let status = match self.status.as_deref() {
            None => status,
            Some("finished") => StatusFilter::Finished,
            Some("ongoing") => StatusFilter::Ongoing,
            Some("all") => StatusFilter::All,
            Some(other) => {
                return Err(ApiError::BadRequest(format!(
                    "status '{other}' is none of finished, ongoing, all"
                )));
            }
        };
        let game = match self.game.as_deref() {
            None | Some("") => None,
            Some(g) => Some(Variant::parse(g)?.name().to_string()),
        };
        let outcome = match (self.result.as_deref(), account) {
            (None | Some(""), _) => None,
            (Some("win"), Some(_)) | (Some("1-0"), _) => Some(Outcome::Win),
            (Some("loss"), Some(_)) | (Some("0-1"), _) => Some(Outcome::Loss),
            (Some("draw" | "1/2-1/2"), _) => Some(Outcome::Draw),
            (Some(other), _) => {
                return Err(ApiError::BadRequest(format!(
                    "result '{other}' is none of {}",
                    if account.is_some() {
                        "win, loss, draw"
                    } else {
                        "1-0, 0-1, 1/2-1/2"
                    }
                )));
            }
        };
        let player = match self.player.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(p) if p.chars().count() > 40 => {
                return Err(ApiError::BadRequest("player: at most 40 characters".into()));
            }
            Some(p) => Some(p.to_string()),
        };
        let day = |d: &Option<String>, name: &str, next: bool| match d.as_deref() {
            None | Some("") => Ok(None),
            Some(text) => crate::util::day_start(text, next).map(Some).ok_or_else(|| {
                ApiError::BadRequest(format!("{name}: a day as YYYY-MM-DD, not '{text}'"))
            }),
        };
        Ok(GameFilter {
            account,
            status,
            game,
            outcome,
            player,
            since: day(&self.from, "from", false)?,
            before: day(&self.to, "to", true)?,
        })
    }
}

/// The most games one archive page lists.
const MAX_PAGE: u32 = 200;

async fn archive(
    State(app): State<AppState>,
    ApiQuery(q): ApiQuery<ArchiveQuery>,
) -> Result<Json<Value>, ApiError> {
    let (limit, offset) = q.page();
    let filter = q.filter(None, StatusFilter::All)?;
    Ok(Json(app.registry.games_list(filter, limit, offset).await?))
}

#[derive(Deserialize)]
struct AnalyzeRequest {
    #[serde(default = "default_game")]
    game: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    options: Option<Map<String, Value>>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    time_ms: Option<u64>,
    #[serde(default)]
    lines: Option<u64>,
}

async fn analyze(
    State(app): State<AppState>,
    Requester(client): Requester,
    ApiJson(req): ApiJson<AnalyzeRequest>,
) -> Result<Json<Value>, ApiError> {
    let time_ms = req.time_ms.unwrap_or(1000);
    if !(50..=10_000).contains(&time_ms) {
        return Err(ApiError::BadRequest("time_ms is 50 to 10000".into()));
    }
    let lines = req.lines.unwrap_or(3);
    if !(1..=10).contains(&lines) {
        return Err(ApiError::BadRequest("lines is 1 to 10".into()));
    }
    if req.moves.len() > 2000 {
        return Err(ApiError::BadRequest("too many moves".into()));
    }
    let game = Variant::parse(&req.game)?;
    let mut game = LiveGame::create(
        game,
        req.rules.as_deref(),
        req.options.as_ref(),
        req.position.as_deref().map(str::trim),
    )?;
    for (i, mv) in req.moves.iter().enumerate() {
        game.play(mv).map_err(|e| match ApiError::from(e) {
            ApiError::IllegalMove(m) | ApiError::GameOver(m) => {
                ApiError::IllegalMove(format!("moves[{i}] '{mv}': {m}"))
            }
            other => other,
        })?;
    }
    let done = app
        .analysis
        .analyze(client, game, Duration::from_millis(time_ms), lines as usize)
        .await?;
    let mut answer = serde_json::to_value(done.analysis).map_err(ApiError::internal)?;
    if let Value::Object(m) = &mut answer {
        m.insert("preempted".into(), json!(done.preempted));
        if let Some(db) = done.database {
            m.insert("database".into(), db);
        }
    }
    Ok(Json(answer))
}

#[derive(Deserialize)]
struct TablebaseQuery {
    rules: Option<String>,
}

/// Whether Mühle's perfect-play databases are installed for the rules.
async fn tablebase_status(ApiQuery(q): ApiQuery<TablebaseQuery>) -> Result<Json<Value>, ApiError> {
    let text = q
        .rules
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .unwrap_or("standard");
    let rules: muehle::RuleSet = text
        .parse()
        .map_err(|e: muehle::ParseRulesError| ApiError::BadRequest(e.to_string()))?;
    let status = tokio::task::spawn_blocking(move || crate::perfect::status(&rules))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(status))
}

/// The moves of a game that changed its value, by the databases (Mühle).
async fn review(State(app): State<AppState>, GameId(id): GameId) -> Result<Json<Value>, ApiError> {
    let game = app.registry.game(id).await?;
    let review = tokio::task::spawn_blocking(move || crate::perfect::review(&game))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(review))
}

/// The client address of a request as it came (behind a trusted proxy, the
/// one it names), not keyed like the limits.
fn client_addr(parts: &axum::http::Extensions) -> std::net::IpAddr {
    parts
        .get::<crate::front::ClientAddr>()
        .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |c| c.0)
}

fn may_build(app: &AppState, ext: &axum::http::Extensions, login: &Login) -> bool {
    let name = login.0.as_ref().map(|s| s.account.name.as_str());
    app.builds.may_build(client_addr(ext), name)
}

/// `GET /api/perfect`: the databases of every rule set, their costs and
/// the build running (docs/API.md).
async fn perfect_overview(
    State(app): State<AppState>,
    login: Login,
    ext: axum::http::Extensions,
) -> Result<Json<Value>, ApiError> {
    let may = may_build(&app, &ext, &login);
    let builds = app.builds.clone();
    let overview = tokio::task::spawn_blocking(move || crate::perfect::overview(&builds, may))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(overview))
}

#[derive(Deserialize)]
struct BuildRequest {
    game: String,
    rules: String,
    size: u32,
}

fn check_builder(
    app: &AppState,
    ext: &axum::http::Extensions,
    login: &Login,
) -> Result<(), ApiError> {
    if may_build(app, ext, login) {
        Ok(())
    } else {
        Err(crate::perfect_build::not_admin())
    }
}

/// `POST /api/perfect/build`: start building a rule set's databases up to
/// a size (local app or admin only).
async fn perfect_build(
    State(app): State<AppState>,
    login: Login,
    ext: axum::http::Extensions,
    ApiJson(req): ApiJson<BuildRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    check_builder(&app, &ext, &login)?;
    let Some(dir) = crate::perfect_build::database_dir() else {
        return Err(ApiError::NotAllowed(
            "the server uses no databases (started with --no-tablebase)".into(),
        )
        .with_detail(boardgame::ErrorDetail::new("perfect.off")));
    };
    let Some(set) = crate::perfect::find_set(req.game.trim(), req.rules.trim()) else {
        return Err(ApiError::BadRequest(format!(
            "no databases for game '{}' with rules '{}'",
            req.game, req.rules
        )));
    };
    let builds = app.builds.clone();
    let status = tokio::task::spawn_blocking(move || builds.start(&dir, &set, req.size))
        .await
        .map_err(ApiError::internal)??;
    let body = serde_json::to_value(status).map_err(ApiError::internal)?;
    Ok((StatusCode::ACCEPTED, Json(body)))
}

/// `POST /api/perfect/build/pause`.
async fn perfect_pause(
    State(app): State<AppState>,
    login: Login,
    ext: axum::http::Extensions,
) -> Result<Json<Value>, ApiError> {
    set_paused(&app, &ext, &login, true)
}

/// `POST /api/perfect/build/resume`.
async fn perfect_resume(
    State(app): State<AppState>,
    login: Login,
    ext: axum::http::Extensions,
) -> Result<Json<Value>, ApiError> {
    set_paused(&app, &ext, &login, false)
}

fn set_paused(
    app: &AppState,
    ext: &axum::http::Extensions,
    login: &Login,
    paused: bool,
) -> Result<Json<Value>, ApiError> {
    check_builder(app, ext, login)?;
    let status = app.builds.pause(paused)?;
    Ok(Json(
        serde_json::to_value(status).map_err(ApiError::internal)?,
    ))
}

#[derive(Deserialize)]
struct GameAnalysisRequest {
    #[serde(default)]
    time_ms: Option<u64>,
}

/// Start the analysis of a whole finished game (idempotent).
async fn start_game_analysis(
    State(app): State<AppState>,
    GameId(id): GameId,
    Requester(client): Requester,
    ApiJson(req): ApiJson<GameAnalysisRequest>,
) -> Result<Json<Value>, ApiError> {
    use crate::game_analysis::{DEFAULT_TIME_MS, MAX_TIME_MS, MIN_TIME_MS};
    let time_ms = req.time_ms.unwrap_or(DEFAULT_TIME_MS);
    if !(MIN_TIME_MS..=MAX_TIME_MS).contains(&time_ms) {
        return Err(ApiError::BadRequest(format!(
            "time_ms is {MIN_TIME_MS} to {MAX_TIME_MS}"
        )));
    }
    Ok(Json(app.game_analyses.start(id, client, time_ms).await?))
}

/// The analysis of a whole game as far as it went.
async fn game_analysis(
    State(app): State<AppState>,
    GameId(id): GameId,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(app.game_analyses.get(id).await?))
}
