//! The API's errors: one enum, one JSON shape `{"error": "…", "code": "…"}`
//! (with `detail` for errors a client can word in its language), the
//! games' errors mapped onto it, and extractors whose rejections use it
//! too.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use boardgame::ErrorDetail;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::game::GameError;
use crate::storage::StorageError;

/// Everything a request can fail with (docs/API.md, "Errors").
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// `400 bad_request`: the request is malformed or asks for what does
    /// not exist (a game, rules, a position).
    #[error("{0}")]
    BadRequest(String),
    /// `422 illegal_move`: the move is not legal here.
    #[error("{0}")]
    IllegalMove(String),
    /// `409 not_your_turn`.
    #[error("{0}")]
    NotYourTurn(String),
    /// `409 stale_ply`: the request was meant for another ply.
    #[error("{0}")]
    StalePly(String),
    /// `409 game_over`.
    #[error("{0}")]
    GameOver(String),
    /// `409 no_draw_offer`.
    #[error("{0}")]
    NoDrawOffer(String),
    /// `409 not_allowed`: not in this kind of game, or nothing to take back.
    #[error("{0}")]
    NotAllowed(String),
    /// `403 wrong_token`.
    #[error("{0}")]
    WrongToken(String),
    /// An online game whose invited player has not joined yet: nobody
    /// moves, offers a draw or resigns before both are there.
    #[error("{0}")]
    WaitingForOpponent(String),
    /// `401 not_logged_in`: the request needs a login's cookie and has
    /// none that holds (docs/API.md, "Accounts").
    #[error("{0}")]
    NotLoggedIn(String),
    /// `401 bad_login`: no account of that name, or the password is wrong
    /// (one answer for both).
    #[error("{0}")]
    BadLogin(String),
    /// `403 wrong_password`: the logged-in account's password is not the
    /// one given (changing the password, deleting the account).
    #[error("{0}")]
    WrongPassword(String),
    /// `403 forbidden`: the request acts for another player (cancels
    /// another's seek, accepts its own).
    #[error("{0}")]
    Forbidden(String),
    /// `409 name_taken`: an account of that name exists.
    #[error("{0}")]
    NameTaken(String),
    /// `403 account_closed`: the account was closed by the operator (a
    /// login with its right password, a chat message for its seat).
    #[error("{0}")]
    AccountClosed(String),
    /// `404 not_found`.
    #[error("{0}")]
    NotFound(String),
    /// `405 method_not_allowed`.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// `413 too_large`: the body is over the limit.
    #[error("{0}")]
    TooLarge(String),
    /// `503 unavailable`: the server is shutting down.
    #[error("{0}")]
    Unavailable(String),
    /// A state-changing request whose body is not declared JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// A state-changing request or socket from another web site.
    #[error("{0}")]
    CrossOrigin(String),
    /// `400 unknown_host`: the `Host` header names none of the server's
    /// names (an IP address, `localhost`, `--public-host`): a page of
    /// another site reaching this server through its own name (DNS
    /// rebinding).
    #[error("{0}")]
    UnknownHost(String),
    /// `429 too_many_connections`: the client's address holds as many
    /// connections or WebSockets as it may.
    #[error("{0}")]
    TooManyConnections(String),
    /// Too many requests of a kind from one client; retry after the
    /// seconds given.
    #[error("{0}")]
    RateLimited(String, u64),
    /// No engine slot for an analysis within the wait, or the queue of
    /// analyses is full: it had place `queue_position` (1: next); try again
    /// after `retry_after` seconds (an estimate).
    #[error("{message}")]
    EngineBusy {
        /// The words.
        message: String,
        /// The place the analysis had in the queue.
        queue_position: usize,
        /// Seconds until it could start (an estimate).
        retry_after: u64,
    },
    /// The database cannot be written (or read) right now; the detail is
    /// logged, never sent.
    #[error("{0}")]
    StorageUnavailable(String),
    /// A server fault; the message is logged, never sent.
    #[error("{0}")]
    Internal(String),
    /// An error with its code and parameters for a client to word it in
    /// its language (the body's `detail`, docs/API.md): status, code and
    /// message are the inner error's.
    #[error("{error}")]
    WithDetail {
        /// The error.
        error: Box<ApiError>,
        /// Its code, parameters and cause.
        detail: ErrorDetail,
    },
}

impl ApiError {
    /// The machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::IllegalMove(_) => "illegal_move",
            ApiError::NotYourTurn(_) => "not_your_turn",
            ApiError::StalePly(_) => "stale_ply",
            ApiError::GameOver(_) => "game_over",
            ApiError::NoDrawOffer(_) => "no_draw_offer",
            ApiError::NotAllowed(_) => "not_allowed",
            ApiError::WrongToken(_) => "wrong_token",
            ApiError::WaitingForOpponent(_) => "waiting_for_opponent",
            ApiError::NotLoggedIn(_) => "not_logged_in",
            ApiError::BadLogin(_) => "bad_login",
            ApiError::WrongPassword(_) => "wrong_password",
            ApiError::NameTaken(_) => "name_taken",
            ApiError::AccountClosed(_) => "account_closed",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed(_) => "method_not_allowed",
            ApiError::TooLarge(_) => "too_large",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::CrossOrigin(_) => "cross_origin",
            ApiError::UnknownHost(_) => "unknown_host",
            ApiError::TooManyConnections(_) => "too_many_connections",
            ApiError::RateLimited(..) => "rate_limited",
            ApiError::EngineBusy { .. } => "engine_busy",
            ApiError::StorageUnavailable(_) => "storage_unavailable",
            ApiError::Internal(_) => "internal",
            ApiError::WithDetail { error, .. } => error.code(),
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::UnknownHost(_) => StatusCode::BAD_REQUEST,
            ApiError::IllegalMove(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::NotYourTurn(_)
            | ApiError::StalePly(_)
            | ApiError::GameOver(_)
            | ApiError::NoDrawOffer(_)
            | ApiError::NotAllowed(_)
            | ApiError::WaitingForOpponent(_)
            | ApiError::NameTaken(_) => StatusCode::CONFLICT,
            ApiError::WrongToken(_)
            | ApiError::CrossOrigin(_)
            | ApiError::WrongPassword(_)
            | ApiError::AccountClosed(_)
            | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotLoggedIn(_) | ApiError::BadLogin(_) => StatusCode::UNAUTHORIZED,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::RateLimited(..) | ApiError::TooManyConnections(_) => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unavailable(_)
            | ApiError::StorageUnavailable(_)
            | ApiError::EngineBusy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::WithDetail { error, .. } => error.status(),
        }
    }

    /// The same error with `detail`.
    pub fn with_detail(self, detail: ErrorDetail) -> ApiError {
        ApiError::WithDetail {
            error: Box::new(self),
            detail,
        }
    }

    /// `not_found` for game `id`.
    pub fn not_found_game(id: i64) -> ApiError {
        ApiError::NotFound(format!("there is no game {id}"))
    }

    /// `internal` with `e` as the (logged, never sent) detail.
    pub fn internal(e: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl From<StorageError> for ApiError {
    fn from(e: StorageError) -> ApiError {
        match e {
            StorageError::Conflict => ApiError::StalePly(
                "the game changed meanwhile; fetch the state and try again".to_string(),
            ),
            StorageError::Unavailable(detail) => ApiError::StorageUnavailable(detail),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let message = e.to_string();
        match e {
            GameError::UnknownGame(_) | GameError::BadRules(_) => ApiError::BadRequest(message),
            GameError::BadPosition(x) | GameError::BadRecord(x) => {
                ApiError::BadRequest(message).with_detail(x.detail)
            }
            GameError::EmptyMove
            | GameError::SeveralMoves { .. }
            | GameError::BadMoveText(_)
            | GameError::IllegalMove(_) => ApiError::IllegalMove(message),
            GameError::GameOver(_) => ApiError::GameOver(message),
            GameError::NoDrawOffer(_) => ApiError::NoDrawOffer(message),
            GameError::NothingToUndo | GameError::NoHuffing => ApiError::NotAllowed(message),
        }
    }
}

/// An error's detail as JSON: `{"code": …, "params": {…}, "cause": {…}}`
/// (`cause` only when there is one).
pub fn detail_json(d: &ErrorDetail) -> Value {
    let params: serde_json::Map<String, Value> = d
        .params
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let mut out = json!({"code": d.code, "params": params});
    if let Some(cause) = &d.cause {
        out["cause"] = detail_json(cause);
    }
    out
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            ApiError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                "internal server error".to_string()
            }
            ApiError::StorageUnavailable(detail) => {
                tracing::warn!(%detail, "answered storage_unavailable");
                "the game storage is unavailable right now (the server cannot write its \
                 database); nothing was changed, try again later"
                    .to_string()
            }
            other => other.to_string(),
        };
        let mut body = json!({"error": message, "code": self.code()});
        if let ApiError::WithDetail { detail, .. } = &self {
            body["detail"] = detail_json(detail);
        }
        let retry_after = match &self {
            ApiError::RateLimited(_, secs) => Some(*secs),
            ApiError::EngineBusy {
                queue_position,
                retry_after,
                ..
            } => {
                body["queue_position"] = (*queue_position).into();
                Some(*retry_after)
            }
            _ => None,
        };
        if let Some(secs) = retry_after {
            body["retry_after"] = secs.into();
        }
        let mut response = (status, axum::Json(body)).into_response();
        if let Some(secs) = retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        response.extensions_mut().insert(ErrorCode(self.code()));
        response
    }
}

/// The code of an error answer, kept in the response's extensions for the
/// middleware (rate limits count `wrong_token` answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorCode(pub &'static str);

/// Marks an answer to a request whose token holds no seat although the
/// request itself succeeded (reading a game with `?token=`): the wrong-token
/// limits count it as they count `wrong_token` errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenHeldNoSeat;

/// The largest request body accepted (but for imports, [`IMPORT_LIMIT`]).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The largest body of `POST /api/games/import`: the record of the longest
/// game brett keeps ([`crate::registry::MAX_GAME_PLIES`] moves) fits, so
/// whatever brett exports it imports again.
pub const IMPORT_LIMIT: usize = 4 * 1024 * 1024;

/// The largest body accepted at `path`.
pub fn body_limit(path: &str) -> usize {
    if path == "/api/games/import" {
        IMPORT_LIMIT
    } else {
        BODY_LIMIT
    }
}

/// The refusal of a body over the limit of `path`.
pub fn too_large(path: &str) -> ApiError {
    ApiError::TooLarge(format!(
        "the request body is larger than {} KiB",
        body_limit(path) / 1024
    ))
}

/// A JSON request body whose every failure (too large, not JSON, wrong
/// fields) is an [`ApiError`]. It does not insist on a `Content-Type`.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let path = req.uri().path().to_string();
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    too_large(&path)
                } else {
                    ApiError::BadRequest(format!(
                        "could not read the body: {}",
                        rejection.body_text()
                    ))
                }
            })?;
        serde_json::from_slice(&bytes)
            .map(ApiJson)
            .map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
    }
}

/// The `{id}` of a game path; anything not a game number is `not_found`.
pub struct GameId(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Path(raw) =
            axum::extract::Path::<String>::from_request_parts(parts, state)
                .await
                .map_err(|_| ApiError::NotFound("no such game".to_string()))?;
        match raw.parse::<i64>() {
            Ok(id) if id > 0 => Ok(GameId(id)),
            _ => Err(ApiError::NotFound(format!("there is no game '{raw}'"))),
        }
    }
}

/// Query parameters whose failure is `bad_request`.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| ApiQuery(q.0))
            .map_err(|e| ApiError::BadRequest(e.body_text()))
    }
}
