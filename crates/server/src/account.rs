//! Accounts over HTTP (docs/API.md, "Accounts"): register, log in and
//! out, who am I, change the password, delete the account, the account's
//! games; the login cookie and the [`Login`] of a request.
//!
//! A login is a random token in the cookie [`COOKIE`] (HttpOnly,
//! SameSite=Lax, Path=/, Max-Age; `Secure` when the request came over TLS,
//! [`Https`]); the database keeps only its SHA-256. Passwords are argon2id
//! hashes ([`crate::password`]). Login attempts are limited per address and
//! per name; a wrong name and a wrong password get one answer, in the time
//! of a real check.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher as _};
use std::net::IpAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::api::ArchiveQuery;
use crate::error::{ApiError, ApiJson, ApiQuery};
use crate::front::Https;
use crate::guard::{Key, RateLimiter, client_ip};
use crate::password::{self, Hasher, MAX_PASSWORD_BYTES, MIN_PASSWORD_CHARS, PasswordError};
use crate::rating;
use crate::storage::{Account, NewAccount, NewLogin, PoolRating, StatusFilter, name_key};
use crate::util::{new_token, now_rfc3339, token_hash};

/// The login cookie's name.
pub const COOKIE: &str = "brett_session";

/// How long a login holds (the cookie's Max-Age): 30 days.
pub const LOGIN_DAYS: i64 = 30;

/// The shortest and longest account name, in characters.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;

/// The one answer to a login with a wrong name or password.
const BAD_LOGIN: &str = "wrong name or password";

/// What the account endpoints share: the hashing and the limits of the
/// attempts.
pub struct Accounts {
    hasher: Hasher,
    /// Password checks (logins, registrations, password changes,
    /// deletions) per client address.
    per_address: RateLimiter,
    /// Login attempts per account name.
    per_name: RateLimiter,
    /// Keys the names' buckets (random per process).
    name_keys: std::collections::hash_map::RandomState,
}

impl Accounts {
    /// `per_address` password checks a minute from one address,
    /// `per_name` login attempts a minute for one name (0: no limit).
    pub fn new(per_address: u32, per_name: u32) -> Accounts {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Accounts {
            hasher: Hasher::new(cores),
            per_address: RateLimiter::new(per_address),
            per_name: RateLimiter::new(per_name),
            name_keys: std::collections::hash_map::RandomState::new(),
        }
    }

    /// The password hashing (for tests: its checks against the dummy hash).
    pub fn hasher(&self) -> &Hasher {
        &self.hasher
    }

    fn name_bucket(&self, name: &str) -> Key {
        let mut h: DefaultHasher = std::hash::BuildHasher::build_hasher(&self.name_keys);
        name_key(name).hash(&mut h);
        Key::Name(h.finish())
    }

    /// Take a password check for `ip` (and a login attempt for `name`).
    fn take(&self, ip: IpAddr, name: Option<&str>) -> Result<(), ApiError> {
        self.per_address.take(ip).map_err(|secs| {
            ApiError::RateLimited(
                format!("too many login attempts from your address; try again in {secs} s"),
                secs,
            )
        })?;
        if let Some(name) = name
            && let Err(secs) = self.per_name.take_key(self.name_bucket(name))
        {
            self.per_address.refund(ip);
            return Err(ApiError::RateLimited(
                format!("too many login attempts for this name; try again in {secs} s"),
                secs,
            ));
        }
        Ok(())
    }

    /// A check that succeeded does not count.
    fn refund(&self, ip: IpAddr, name: Option<&str>) {
        self.per_address.refund(ip);
        if let Some(name) = name {
            self.per_name.refund_key(self.name_bucket(name));
        }
    }
}

impl From<PasswordError> for ApiError {
    fn from(e: PasswordError) -> ApiError {
        ApiError::internal(e)
    }
}

/// The `/api/account` routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account", get(whoami))
        .route("/account/register", post(register))
        .route("/account/login", post(login))
        .route("/account/logout", post(logout))
        .route("/account/password", post(change_password))
        .route("/account/delete", post(delete))
        .route("/account/games", get(games))
        .route("/account/language", post(set_language))
        .route("/account/your-turn", get(your_turn))
        .route("/ratings", get(rating_pools))
        .route("/ratings/{pool}", get(leaderboard))
        .route("/players/{name}/ratings", get(player_ratings))
        .route("/players/{name}/games", get(player_games))
}

/// Now in milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The token of the login cookie among the request's cookies.
fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|t| {
            (16..=64).contains(&t.len())
                && t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// A logged-in request's account and its login.
#[derive(Clone, Debug)]
pub struct SignedIn {
    /// The account.
    pub account: Account,
    /// SHA-256 of the login's token.
    pub login: String,
}

/// The login of a request: its cookie's account, if the cookie holds a
/// login that has not ended (of an account not closed).
pub struct Login(pub Option<SignedIn>);

impl Login {
    /// The account's id.
    pub fn account(&self) -> Option<i64> {
        self.0.as_ref().map(|s| s.account.id)
    }

    /// The name a seat taken with this login shows: the account's (a
    /// player with an account plays under its name), else `asked`.
    pub fn seat_name(&self, asked: Option<String>) -> Option<String> {
        match &self.0 {
            Some(s) => Some(s.account.name.clone()),
            None => asked,
        }
    }

    /// The signed-in account, or `not_logged_in`.
    pub fn required(self) -> Result<SignedIn, ApiError> {
        self.0.ok_or_else(|| {
            ApiError::NotLoggedIn("you are not logged in (or your login has ended)".into())
        })
    }
}

impl FromRequestParts<AppState> for Login {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let Some(token) = cookie_token(&parts.headers) else {
            return Ok(Login(None));
        };
        let login = token_hash(&token);
        let found = app
            .registry
            .storage()
            .account_by_login(&login, now_ms())
            .await?;
        Ok(Login(
            found
                .filter(|a| !a.closed)
                .map(|account| SignedIn { account, login }),
        ))
    }
}

/// The `Set-Cookie` of a login with `token` (`None`: the cookie is
/// cleared).
fn cookie(token: Option<&str>, https: bool) -> HeaderValue {
    let (value, max_age) = match token {
        Some(t) => (t, LOGIN_DAYS * 86_400),
        None => ("", 0),
    };
    let secure = if https { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}"
    ))
    .expect("a cookie of token characters")
}

fn account_json(a: &Account) -> Value {
    json!({"name": a.name, "created_at": a.created_at, "language": a.language})
}

/// Check an account name: 3–20 letters, digits, `_` or `-`.
fn check_name(name: &str) -> Result<(), ApiError> {
    let n = name.chars().count();
    if !NAME_CHARS.contains(&n)
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(ApiError::BadRequest(format!(
            "an account name is {} to {} letters, digits, '_' or '-'",
            NAME_CHARS.start(),
            NAME_CHARS.end()
        )));
    }
    Ok(())
}

/// Check a new password: at least 8 characters, at most 256 bytes.
fn check_password(password: &str) -> Result<(), ApiError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(ApiError::BadRequest(format!(
            "a password has at least {MIN_PASSWORD_CHARS} characters"
        )));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(ApiError::BadRequest(format!(
            "a password has at most {MAX_PASSWORD_BYTES} bytes"
        )));
    }
    Ok(())
}

/// A new login of `account`: stored, and its cookie.
async fn start_login(app: &AppState, account: i64, https: bool) -> Result<HeaderValue, ApiError> {
    let token = new_token().map_err(ApiError::internal)?;
    let now = now_ms();
    app.registry
        .storage()
        .create_login(NewLogin {
            token_hash: token_hash(&token),
            account,
            created_at: now,
            expires_at: now.saturating_add(LOGIN_DAYS * 86_400_000),
        })
        .await?;
    Ok(cookie(Some(&token), https))
}

/// Who asks: the client address (for the limits) and whether the request
/// came over TLS (the cookie's `Secure`).
struct Asker {
    ip: IpAddr,
    https: bool,
}

impl<S: Send + Sync> FromRequestParts<S> for Asker {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Asker {
            ip: client_ip(&parts.extensions),
            https: parts.extensions.get::<Https>().is_some_and(|h| h.0),
        })
    }
}

#[derive(Deserialize)]
struct Credentials {
    name: String,
    password: String,
}

async fn register(
    State(app): State<AppState>,
    Asker { ip, https }: Asker,
    ApiJson(req): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    let name = req.name.trim().to_string();
    check_name(&name)?;
    check_password(&req.password)?;
    app.accounts.take(ip, None)?;
    let hash = app.accounts.hasher.hash(req.password).await?;
    let created = app
        .registry
        .storage()
        .create_account(NewAccount {
            name_key: name_key(&name),
            name: name.clone(),
            password_hash: hash,
            created_at: now_rfc3339(),
        })
        .await?;
    let Some(id) = created else {
        return Err(ApiError::NameTaken(format!(
            "the name '{name}' is taken; choose another"
        )));
    };
    let account = app
        .registry
        .storage()
        .account_by_id(id)
        .await?
        .ok_or_else(|| ApiError::internal("a new account was not found"))?;
    let cookie = start_login(&app, id, https).await?;
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, cookie)],
        Json(json!({"account": account_json(&account)})),
    )
        .into_response())
}

async fn login(
    State(app): State<AppState>,
    Asker { ip, https }: Asker,
    ApiJson(req): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    let name = req.name.trim().to_string();
    if name.is_empty() || name.chars().count() > 64 || req.password.len() > MAX_PASSWORD_BYTES {
        return Err(ApiError::BadLogin(BAD_LOGIN.into()));
    }
    let accounts = &app.accounts;
    accounts.take(ip, Some(&name))?;
    let found = app
        .registry
        .storage()
        .account_by_name(&name_key(&name))
        .await?;
    let right = match &found {
        Some(a) => {
            accounts
                .hasher
                .verify(req.password.clone(), a.password_hash.clone())
                .await?
        }
        None => accounts.hasher.verify_none(req.password.clone()).await?,
    };
    let (Some(account), true) = (found, right) else {
        return Err(ApiError::BadLogin(BAD_LOGIN.into()));
    };
    accounts.refund(ip, Some(&name));
    if account.closed {
        // Said only to whoever knows the password.
        return Err(ApiError::AccountClosed("this account is closed".into()));
    }
    if password::needs_rehash(&account.password_hash) {
        let hash = accounts.hasher.hash(req.password).await?;
        app.registry
            .storage()
            .set_password(account.id, hash, None)
            .await?;
    }
    let cookie = start_login(&app, account.id, https).await?;
    Ok((
        [(header::SET_COOKIE, cookie)],
        Json(json!({"account": account_json(&account)})),
    )
        .into_response())
}

async fn logout(
    State(app): State<AppState>,
    Asker { https, .. }: Asker,
    login: Login,
) -> Result<Response, ApiError> {
    if let Some(signed) = &login.0 {
        app.registry.storage().delete_login(&signed.login).await?;
    }
    Ok((
        [(header::SET_COOKIE, cookie(None, https))],
        Json(json!({"logged_out": login.0.is_some()})),
    )
        .into_response())
}

async fn whoami(State(app): State<AppState>, login: Login) -> Result<Json<Value>, ApiError> {
    let signed = login.required()?;
    let storage = app.registry.storage();
    let ratings = storage.account_ratings(signed.account.id).await?;
    let blocked = storage.blocked_names(signed.account.id).await?;
    Ok(Json(json!({
        "account": account_json(&signed.account),
        "ratings": ratings_json(&ratings),
        "blocked": blocked,
    })))
}

/// An account's ratings: pool → rating, deviation, provisional, games.
fn ratings_json(ratings: &[PoolRating]) -> Value {
    ratings
        .iter()
        .map(|r| {
            let mut line = rating_json(r);
            line.as_object_mut().map(|o| o.remove("name"));
            (r.pool.clone(), line)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// One rating as the API shows it.
fn rating_json(r: &PoolRating) -> Value {
    json!({
        "name": r.name,
        "rating": r.rating.rating.round() as i64,
        "rd": r.rating.deviation.round() as i64,
        "provisional": r.rating.provisional(),
        "games": r.games,
    })
}

/// The most players a leaderboard lists.
const LEADERBOARD_SIZE: u32 = 100;

/// `GET /api/ratings/{pool}`: the best players of a rating pool.
/// `GET /api/ratings`: the rating pools.
async fn rating_pools() -> Json<Value> {
    Json(json!({"pools": rating::pools()}))
}

async fn leaderboard(
    State(app): State<AppState>,
    pool: Result<Path<String>, PathRejection>,
) -> Result<Json<Value>, ApiError> {
    let Ok(Path(pool)) = pool else {
        return Err(ApiError::NotFound("no such rating pool".into()));
    };
    if !rating::pools().contains(&pool) {
        return Err(ApiError::NotFound(format!(
            "there is no rating pool '{pool}' (pools: {})",
            rating::pools().join(", ")
        )));
    }
    let players = app
        .registry
        .storage()
        .leaderboard(pool.clone(), LEADERBOARD_SIZE)
        .await?;
    let players: Vec<Value> = players
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut line = rating_json(r);
            line["rank"] = json!(i + 1);
            line
        })
        .collect();
    Ok(Json(json!({"pool": pool, "players": players})))
}

/// `GET /api/players/{name}/ratings`: a player's ratings and their
/// history.
/// The account a public page names (`404` for a name no open account has).
async fn public_account(
    app: &AppState,
    name: Result<Path<String>, PathRejection>,
) -> Result<Account, ApiError> {
    let missing = || ApiError::NotFound("there is no such player".into());
    let Ok(Path(name)) = name else {
        return Err(missing());
    };
    app.registry
        .storage()
        .account_by_name(&name_key(&name))
        .await?
        .filter(|a| !a.closed)
        .ok_or_else(missing)
}

async fn player_ratings(
    State(app): State<AppState>,
    name: Result<Path<String>, PathRejection>,
) -> Result<Json<Value>, ApiError> {
    let account = public_account(&app, name).await?;
    let storage = app.registry.storage();
    let ratings = storage.account_ratings(account.id).await?;
    let history: Vec<Value> = storage
        .rating_history(account.id)
        .await?
        .iter()
        .map(|p| {
            json!({
                "pool": p.pool,
                "game": p.game,
                "at": p.at,
                "rating": p.rating.round() as i64,
                "rd": p.deviation.round() as i64,
            })
        })
        .collect();
    Ok(Json(json!({
        "name": account.name,
        "ratings": ratings_json(&ratings),
        "history": history,
    })))
}

/// Check the logged-in account's password (limited as logins are).
async fn confirm(
    app: &AppState,
    ip: IpAddr,
    signed: &SignedIn,
    password: String,
) -> Result<(), ApiError> {
    let name = signed.account.name.as_str();
    app.accounts.take(ip, Some(name))?;
    let right = password.len() <= MAX_PASSWORD_BYTES
        && app
            .accounts
            .hasher
            .verify(password, signed.account.password_hash.clone())
            .await?;
    if !right {
        return Err(ApiError::WrongPassword("the password is wrong".into()));
    }
    app.accounts.refund(ip, Some(name));
    Ok(())
}

#[derive(Deserialize)]
struct PasswordChange {
    old: String,
    new: String,
}

async fn change_password(
    State(app): State<AppState>,
    Asker { ip, .. }: Asker,
    login: Login,
    ApiJson(req): ApiJson<PasswordChange>,
) -> Result<Json<Value>, ApiError> {
    let signed = login.required()?;
    check_password(&req.new)?;
    confirm(&app, ip, &signed, req.old).await?;
    let hash = app.accounts.hasher.hash(req.new).await?;
    let found = app
        .registry
        .storage()
        .set_password(signed.account.id, hash, Some(signed.login.clone()))
        .await?;
    if !found {
        return Err(ApiError::NotLoggedIn("the account no longer exists".into()));
    }
    Ok(Json(json!({"account": account_json(&signed.account)})))
}

#[derive(Deserialize)]
struct Deletion {
    password: String,
}

async fn delete(
    State(app): State<AppState>,
    Asker { ip, https }: Asker,
    login: Login,
    ApiJson(req): ApiJson<Deletion>,
) -> Result<Response, ApiError> {
    let signed = login.required()?;
    confirm(&app, ip, &signed, req.password).await?;
    let games = app
        .registry
        .storage()
        .delete_account(signed.account.id)
        .await?
        .unwrap_or_default();
    app.registry.games_changed(&games).await;
    Ok((
        [(header::SET_COOKIE, cookie(None, https))],
        Json(json!({"deleted": true, "games": games.len()})),
    )
        .into_response())
}

async fn games(
    State(app): State<AppState>,
    login: Login,
    ApiQuery(q): ApiQuery<ArchiveQuery>,
) -> Result<Json<Value>, ApiError> {
    let signed = login.required()?;
    let (limit, offset) = q.page();
    let filter = q.filter(Some(signed.account.id), StatusFilter::All)?;
    Ok(Json(app.registry.games_list(filter, limit, offset).await?))
}

/// The languages of the app.
pub const LANGUAGES: [&str; 4] = ["de", "en", "fr", "it"];

#[derive(Deserialize)]
struct LanguageRequest {
    language: Option<String>,
}

/// `POST /api/account/language`: the account's language, kept for every
/// device it logs in on (`null`: the browser's).
async fn set_language(
    State(app): State<AppState>,
    login: Login,
    ApiJson(req): ApiJson<LanguageRequest>,
) -> Result<Json<Value>, ApiError> {
    let signed = login.required()?;
    let language = match req.language.as_deref() {
        None => None,
        Some(l) if LANGUAGES.contains(&l) => Some(l.to_string()),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "language '{other}' is none of {}",
                LANGUAGES.join(", ")
            )));
        }
    };
    app.registry
        .storage()
        .set_language(signed.account.id, language.clone())
        .await?;
    let mut account = signed.account.clone();
    account.language = language;
    Ok(Json(json!({"account": account_json(&account)})))
}

/// The most running games `GET /api/account/your-turn` looks through.
const YOUR_TURN_GAMES: u32 = 100;

/// `GET /api/account/your-turn`: the account's running games (with
/// another player: online) in which it is the account's move, least time
/// left first.
async fn your_turn(State(app): State<AppState>, login: Login) -> Result<Json<Value>, ApiError> {
    let signed = login.required()?;
    let me = signed.account.id;
    let filter = crate::storage::GameFilter {
        account: Some(me),
        status: StatusFilter::Ongoing,
        ..Default::default()
    };
    let (games, _) = app
        .registry
        .storage()
        .find_games(filter, YOUR_TURN_GAMES, 0)
        .await?;
    let mut turns = Vec::new();
    for g in games.iter().filter(|g| g.kind == "online") {
        let held = [0, 1].map(|i| g.seats[i].account == Some(me));
        if held[0] == held[1] || !g.seats.iter().all(|s| s.joined) {
            continue;
        }
        let state = app.registry.state(g.id).await?;
        let st = serde_json::to_value(&state).map_err(ApiError::internal)?;
        let you = if held[0] { "white" } else { "black" };
        if st["status"] != "ongoing" || st["turn"] != you {
            continue;
        }
        let opponent = if held[0] { "black" } else { "white" };
        let left = st["clock"][format!("{you}_ms")].as_i64();
        turns.push(json!({
            "id": g.id,
            "game": g.game.name(),
            "rules": g.rules,
            "you": you,
            "opponent": st["players"][opponent]["name"],
            "ply": st["ply"],
            "time_control": st["clock"]["control"],
            "time_left_ms": left,
        }));
    }
    turns.sort_by_key(|t| t["time_left_ms"].as_i64().unwrap_or(i64::MAX));
    Ok(Json(json!({"games": turns})))
}

/// `GET /api/players/{name}/games`: a player's finished games (public).
async fn player_games(
    State(app): State<AppState>,
    name: Result<Path<String>, PathRejection>,
    ApiQuery(q): ApiQuery<ArchiveQuery>,
) -> Result<Json<Value>, ApiError> {
    let account = public_account(&app, name).await?;
    let (limit, offset) = q.page();
    let mut filter = q.filter(Some(account.id), StatusFilter::Finished)?;
    // Only finished games: a player's running games and invitations are
    // theirs (and their opponents') to see.
    filter.status = StatusFilter::Finished;
    let mut list = app.registry.games_list(filter, limit, offset).await?;
    list["name"] = json!(account.name);
    Ok(Json(list))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_passwords() {
        for ok in ["Anna", "abc", "Jürgen_2", "a-b-c", &"x".repeat(20)] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in ["ab", "a b", "a.b", "", &"x".repeat(21), "a\u{202E}b"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        assert!(check_password("12345678").is_ok());
        assert!(check_password("1234567").is_err());
        assert!(check_password(&"x".repeat(257)).is_err());
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        let mut h = HeaderMap::new();
        let token = "A".repeat(32);
        h.insert(
            header::COOKIE,
            format!("a=1; {COOKIE}={token}; b=2").parse().unwrap(),
        );
        assert_eq!(cookie_token(&h), Some(token));
        h.insert(
            header::COOKIE,
            format!("{COOKIE}=bad token").parse().unwrap(),
        );
        assert_eq!(cookie_token(&h), None);
        let c = cookie(Some("abc"), true);
        assert_eq!(
            c.to_str().unwrap(),
            "brett_session=abc; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000; Secure"
        );
    }
}
