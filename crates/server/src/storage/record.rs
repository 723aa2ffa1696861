//! A game with everything stored about it, as `brett db export` writes it
//! (one JSON object a line) and `brett db import` reads it: the same for
//! every backend, so a database moves from one to the other.

use serde::{Deserialize, Serialize};

use super::{ClockMeta, GameMeta, Seat, Status, StorageError, Variant};

/// One game of an export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's id, kept by the import (links stay valid).
    pub id: i64,
    /// As [`StoredGame::game`](super::StoredGame::game).
    pub game: String,
    /// As [`StoredGame::kind`](super::StoredGame::kind).
    pub kind: String,
    /// As [`StoredGame::rules`](super::StoredGame::rules).
    pub rules: String,
    /// As [`StoredGame::start_position`](super::StoredGame::start_position).
    pub start_position: String,
    /// As [`GameMeta::status`].
    pub status: String,
    /// As [`GameMeta::result`].
    pub result: Option<String>,
    /// As [`GameMeta::reason`].
    pub reason: Option<String>,
    /// As [`GameMeta::draw_offer`].
    pub draw_offer: Option<String>,
    /// As [`GameMeta::pending_huff`].
    pub pending_huff: Option<String>,
    /// White's seat.
    pub white: RecordSeat,
    /// Black's seat.
    pub black: RecordSeat,
    /// Record header tags kept from an import.
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    /// When the game was created (RFC 3339, UTC).
    pub created_at: String,
    /// When it last changed (RFC 3339, UTC).
    pub updated_at: String,
    /// The moves in order, each with the time it was stored.
    pub moves: Vec<RecordMove>,
    /// As [`StoredGame::version`](super::StoredGame::version) (0 in
    /// exports written before versions were stored).
    #[serde(default)]
    pub version: i64,
    /// As [`GameMeta::clock`] (absent: untimed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<RecordClock>,
    /// As [`StoredGame::rated`](super::StoredGame::rated) (absent: not
    /// rated). The ratings themselves are not exported.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

/// The clock of an exported game, as [`ClockMeta`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordClock {
    /// As [`ClockMeta::control`].
    pub control: String,
    /// As [`ClockMeta::remaining_ms`].
    pub remaining_ms: [i64; 2],
    /// As [`ClockMeta::turn_started_at`].
    pub turn_started_at: Option<i64>,
    /// As [`ClockMeta::deadline`].
    pub deadline: Option<i64>,
}

impl From<ClockMeta> for RecordClock {
    fn from(c: ClockMeta) -> RecordClock {
        RecordClock {
            control: c.control,
            remaining_ms: c.remaining_ms,
            turn_started_at: c.turn_started_at,
            deadline: c.deadline,
        }
    }
}

impl From<&RecordClock> for ClockMeta {
    fn from(c: &RecordClock) -> ClockMeta {
        ClockMeta {
            control: c.control.clone(),
            remaining_ms: c.remaining_ms,
            turn_started_at: c.turn_started_at,
            deadline: c.deadline,
        }
    }
}

/// One seat of an exported game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSeat {
    /// As [`Seat::token_hash`]: the hash only, never the token.
    pub token_hash: Option<String>,
    /// As [`Seat::name`].
    pub name: Option<String>,
    /// As [`Seat::joined`].
    pub joined: bool,
    /// As [`Seat::level`].
    pub level: Option<u8>,
    /// As [`Seat::account`] (absent: none; an import keeps it when the
    /// account is in the target database).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<i64>,
}

/// An exported account: a line `{"account": {…}}` of an export, before the
/// games. Its logins are not exported (its player logs in anew).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountRecord {
    /// As [`Account::id`](super::Account::id), kept by the import (the
    /// games' seats name it).
    pub id: i64,
    /// As [`Account::name`](super::Account::name).
    pub name: String,
    /// As [`Account::password_hash`](super::Account::password_hash): the
    /// hash only.
    pub password_hash: String,
    /// As [`Account::created_at`](super::Account::created_at).
    pub created_at: String,
    /// As [`Account::language`](super::Account::language).
    #[serde(default)]
    pub language: Option<String>,
    /// As [`Account::closed`](super::Account::closed).
    #[serde(default)]
    pub closed: bool,
}

/// The JSON form of an account's line.
#[derive(Serialize, Deserialize)]
struct AccountLine {
    account: AccountRecord,
}

impl AccountRecord {
    /// One line of an export (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(&AccountLine {
            account: self.clone(),
        })
        .expect("an account record serializes")
    }

    /// A line of an export, if it is an account's (`{"account": …}`).
    pub fn from_line(line: &str) -> Option<Result<AccountRecord, StorageError>> {
        let value: serde_json::Value = serde_json::from_str(line).ok()?;
        value.get("account")?;
        Some(
            serde_json::from_value::<AccountLine>(value)
                .map(|l| l.account)
                .map_err(|e| StorageError::Corrupt(format!("account record: {e}"))),
        )
    }
}

/// One move of an exported game: the move and when it was stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordMove {
    /// The move in the game's notation (`"move"` in the JSON).
    #[serde(rename = "move")]
    pub mv: String,
    /// When it was stored (RFC 3339, UTC).
    pub at: String,
    /// A timed game: White's and Black's time left after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<[i64; 2]>,
}

impl From<&RecordSeat> for Seat {
    fn from(s: &RecordSeat) -> Seat {
        Seat {
            token_hash: s.token_hash.clone(),
            name: s.name.clone(),
            joined: s.joined,
            level: s.level,
            account: s.account,
        }
    }
}

impl From<Seat> for RecordSeat {
    fn from(s: Seat) -> RecordSeat {
        RecordSeat {
            token_hash: s.token_hash,
            name: s.name,
            joined: s.joined,
            level: s.level,
            account: s.account,
        }
    }
}

impl GameRecord {
    /// The stored outcome fields; the status must be a known one.
    pub fn meta(&self) -> Result<GameMeta, StorageError> {
        Ok(GameMeta {
            status: stored_status(self.id, &self.status)?,
            result: self.result.clone(),
            reason: self.reason.clone(),
            draw_offer: self.draw_offer.clone(),
            pending_huff: self.pending_huff.clone(),
            updated_at: self.updated_at.clone(),
            clock: self.clock.as_ref().map(ClockMeta::from),
        })
    }

    /// One line of an export (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a game record serializes")
    }

    /// A line of an export.
    pub fn from_line(line: &str) -> Result<GameRecord, StorageError> {
        serde_json::from_str(line).map_err(|e| StorageError::Corrupt(format!("game record: {e}")))
    }

    /// The seats, White first.
    pub fn seats(&self) -> [&RecordSeat; 2] {
        [&self.white, &self.black]
    }
}

pub(super) fn tags_to_text(tags: &[(String, String)]) -> Option<String> {
    if tags.is_empty() {
        None
    } else {
        serde_json::to_string(tags).ok()
    }
}

pub(super) fn tags_from_text(text: Option<String>) -> Result<Vec<(String, String)>, StorageError> {
    match text {
        None => Ok(Vec::new()),
        Some(t) => {
            serde_json::from_str(&t).map_err(|e| StorageError::Corrupt(format!("tags: {e}")))
        }
    }
}

/// A stored value read back: `parse` must know it, else the stored game
/// `id` is [`StorageError::Corrupt`] (never a panic).
fn stored_value<T>(
    id: i64,
    what: &str,
    value: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<T, StorageError> {
    parse(value).ok_or_else(|| {
        let shown: String = value.chars().take(40).collect();
        StorageError::Corrupt(format!("game {id}: unknown {what} '{shown}'"))
    })
}

/// The game of game `id` as stored (`games.game`, an export's `game`).
pub(super) fn stored_game(id: i64, value: &str) -> Result<Variant, StorageError> {
    stored_value(id, "game", value, |v| Variant::parse(v).ok())
}

/// The status of game `id` as stored (`games.status`, an export's
/// `status`).
pub(super) fn stored_status(id: i64, value: &str) -> Result<Status, StorageError> {
    stored_value(id, "status", value, Status::parse)
}
