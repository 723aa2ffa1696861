//! A game with everything stored about it, as `brett db export` writes it
//! (one JSON object a line) and `brett db import` reads it: the same for
//! every backend, so a database moves from one to the other.

use serde::{Deserialize, Serialize};

use super::{GameMeta, Seat, StorageError};

/// One game of an export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub id: i64,
    pub game: String,
    pub kind: String,
    pub rules: String,
    pub start_position: String,
    pub status: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub draw_offer: Option<String>,
    pub pending_huff: Option<String>,
    pub white: RecordSeat,
    pub black: RecordSeat,
    /// Record header tags kept from an import.
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    pub created_at: String,
    pub updated_at: String,
    /// The moves in order, each with the time it was stored.
    pub moves: Vec<RecordMove>,
}

/// One seat of an exported game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSeat {
    pub token_hash: Option<String>,
    pub name: Option<String>,
    pub joined: bool,
    pub level: Option<u8>,
}

/// One move of an exported game: the move and when it was stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub at: String,
}

impl From<Seat> for RecordSeat {
    fn from(s: Seat) -> RecordSeat {
        RecordSeat {
            token_hash: s.token_hash,
            name: s.name,
            joined: s.joined,
            level: s.level,
        }
    }
}

impl GameRecord {
    /// The stored outcome fields.
    pub fn meta(&self) -> GameMeta {
        GameMeta {
            status: self.status.clone(),
            result: self.result.clone(),
            reason: self.reason.clone(),
            draw_offer: self.draw_offer.clone(),
            pending_huff: self.pending_huff.clone(),
            updated_at: self.updated_at.clone(),
        }
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
