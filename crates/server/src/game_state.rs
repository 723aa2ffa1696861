//! The game's state as the API sends it (docs/API.md, "Game state"): the
//! answer of `GET /api/games/{id}` and of every change, and the body of
//! the WebSocket's `state` messages.

use serde::Serialize;

use crate::clocks::ClockState;
pub use crate::game::Status;
use crate::game::{Color, GameDetails, LiveGame, PerSide, RuleOptions};

/// The kinds of game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A person against the computer.
    Computer,
    /// Two people at one screen.
    Local,
    /// Two people through an invite link.
    Online,
    /// Read from a game record.
    Imported,
}

impl Kind {
    /// The kind's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Computer => "computer",
            Kind::Local => "local",
            Kind::Online => "online",
            Kind::Imported => "imported",
        }
    }

    /// The kind with this name.
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "computer" => Some(Kind::Computer),
            "local" => Some(Kind::Local),
            "online" => Some(Kind::Online),
            "imported" => Some(Kind::Imported),
            _ => None,
        }
    }
}

/// A seat of the state's `players`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Player {
    /// `human` or `computer`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The display name (`Computer (level N)` for the computer).
    pub name: Option<String>,
    /// The computer's level.
    pub level: Option<u8>,
    /// Whether a person holds the seat.
    pub joined: bool,
    /// Whether an account holds the seat (written only when one does).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
    /// Online games: whether the player has a connection to the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub online: Option<bool>,
    /// Online games: how long the player has had no connection.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away_ms: Option<u64>,
    /// A rated game that ended with a result: the player's rating before
    /// and after it (docs/API.md, "Ratings").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<crate::rating::SeatRating>,
}

/// A game's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameState {
    /// The game's id.
    pub id: i64,
    /// `muehle`, `dame`, `dame-100`, `dame-fr` or `international`.
    pub game: &'static str,
    /// How the game is played.
    pub kind: Kind,
    /// The rule set in text form.
    pub rules: String,
    /// The rule options one by one.
    pub rule_options: RuleOptions,
    /// The start position.
    pub start_position: String,
    /// The position now.
    pub position: String,
    /// The moves played.
    pub moves: Vec<String>,
    /// The number of moves played.
    pub ply: usize,
    /// The side to move.
    pub turn: Color,
    /// Whether the game is over.
    pub status: Status,
    /// `1-0`, `0-1`, `1/2-1/2` when over.
    pub result: Option<&'static str>,
    /// Why the game ended (a code).
    pub reason: Option<&'static str>,
    /// Why the game ended, in English words.
    pub reason_text: Option<String>,
    /// Whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The fields only this game has.
    #[serde(flatten)]
    pub details: GameDetails,
    /// The last move.
    pub last_move: Option<String>,
    /// Who plays.
    pub players: PerSide<Player>,
    /// Whether the computer is choosing its move.
    pub thinking: bool,
    /// When the game was created (RFC 3339).
    pub created_at: String,
    /// When the game last changed (RFC 3339).
    pub updated_at: String,
    /// A timed game's clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockState>,
    /// A rated game (written only for one).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// A finished online game's rematch: who offered it, and the new
    /// game once accepted (written only when there is one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<RematchState>,
    /// Sockets on the game that hold no seat (written only when there are
    /// some).
    #[serde(skip_serializing_if = "is_zero")]
    pub spectators: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A rematch offer as the state shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RematchState {
    /// The side that offered.
    pub offered_by: Color,
    /// The new game, once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<i64>,
}

/// What the state says beyond the game itself.
pub struct Seating {
    /// The game's id.
    pub id: i64,
    /// How the game is played.
    pub kind: Kind,
    /// Who plays.
    pub players: PerSide<Player>,
    /// Whether the computer is choosing its move.
    pub thinking: bool,
    /// When the game was created.
    pub created_at: String,
    /// When the game last changed.
    pub updated_at: String,
    /// A timed game's clock.
    pub clock: Option<ClockState>,
    /// Whether the game is rated.
    pub rated: bool,
    /// The rematch offer.
    pub rematch: Option<RematchState>,
    /// The spectators' sockets.
    pub spectators: usize,
}

impl GameState {
    /// The state of `game` with `seating`.
    pub fn new(game: &LiveGame, seating: Seating) -> GameState {
        let ending = game.ending();
        GameState {
            id: seating.id,
            game: game.game_type().name(),
            kind: seating.kind,
            rules: game.rules_text(),
            rule_options: game.rule_options(),
            start_position: game.start_position(),
            position: game.position(),
            moves: game.moves(),
            ply: game.ply(),
            turn: game.turn(),
            status: Status::of_ended(ending.is_some()),
            result: ending.as_ref().map(|e| e.result()),
            reason: ending.as_ref().map(|e| e.reason),
            reason_text: ending.map(|e| e.text),
            draw_offer: game.draw_offer(),
            details: game.details(),
            last_move: game.last_move(),
            players: seating.players,
            thinking: seating.thinking,
            created_at: seating.created_at,
            updated_at: seating.updated_at,
            clock: seating.clock,
            rated: seating.rated,
            rematch: seating.rematch,
            spectators: seating.spectators,
        }
    }
}

/// A state answer to a request with a token: the state and the seat the
/// token holds (`you`, docs/API.md).
#[derive(Serialize)]
pub struct StateForSeat {
    /// The state.
    #[serde(flatten)]
    pub state: GameState,
    /// The seat the request's token holds.
    pub you: Option<Color>,
}

/// A WebSocket message with the state: `{"type": "state", "state": …}`.
#[derive(Serialize)]
pub struct StateMessage<'a> {
    /// Always `state`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The state.
    pub state: &'a GameState,
}

impl StateMessage<'_> {
    /// The message as JSON text.
    pub fn text(state: &GameState) -> String {
        serde_json::to_string(&StateMessage {
            kind: "state",
            state,
        })
        .expect("a state serialises")
    }
}

/// The display name of the computer at `level`.
pub fn computer_name(level: u8) -> String {
    format!("Computer (level {level})")
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::game::Variant;

    /// The states of these games as the server wrote them before the
    /// state was a type (built by hand into a JSON map), for the same games.
    const SNAPSHOTS: &str = include_str!("../tests/snapshots/game-states.json");

    fn player(name: Option<&str>, joined: bool, level: Option<u8>) -> Player {
        Player {
            kind: if level.is_some() { "computer" } else { "human" },
            name: match level {
                Some(l) => Some(computer_name(l)),
                None => name.map(Into::into),
            },
            level,
            joined,
            account: false,
            online: None,
            away_ms: None,
            rating: None,
        }
    }

    fn state(
        id: i64,
        game: &LiveGame,
        kind: Kind,
        players: [Player; 2],
        thinking: bool,
    ) -> GameState {
        let [white, black] = players;
        GameState::new(
            game,
            Seating {
                id,
                kind,
                players: PerSide { white, black },
                thinking,
                created_at: "2026-11-22T10:15:00Z".into(),
                updated_at: "2026-11-22T10:15:09Z".into(),
                clock: None,
                rated: false,
                rematch: None,
                spectators: 0,
            },
        )
    }

    fn game(
        game: Variant,
        rules: Option<&str>,
        position: Option<&str>,
        moves: &[&str],
    ) -> LiveGame {
        let mut g = LiveGame::create(game, rules, None, position).unwrap();
        for m in moves {
            g.play(m).unwrap();
        }
        g
    }

    fn humans(a: Option<&str>, b: Option<&str>, joined: bool) -> [Player; 2] {
        [player(a, true, None), player(b, joined, None)]
    }

    #[test]
    fn the_computer_is_named_by_its_level() {
        assert_eq!(computer_name(5), "Computer (level 5)");
    }

    #[test]
    fn the_state_is_what_it_was() {
        let snapshots: Value = serde_json::from_str(SNAPSHOTS).unwrap();
        let computer = || {
            [
                player(Some("Anna"), true, None),
                player(None, true, Some(5)),
            ]
        };
        let mut states: Vec<(&str, GameState)> = Vec::new();

        let m = game(Variant::Muehle, None, None, &["d6", "f4"]);
        states.push((
            "muehle_computer_thinking",
            state(1, &m, Kind::Computer, computer(), true),
        ));
        let opts = serde_json::from_str(r#"{"flying": false, "no_mill": null}"#).unwrap();
        let mut m = LiveGame::create(Variant::Muehle, Some("standard"), Some(&opts), None).unwrap();
        for mv in ["d6", "f4", "d7"] {
            m.play(mv).unwrap();
        }
        m.offer_draw(Color::Black).unwrap();
        states.push((
            "muehle_online_draw_offer",
            state(
                2,
                &m,
                Kind::Online,
                humans(Some("Anna"), None, false),
                false,
            ),
        ));
        let mut m = game(
            Variant::Muehle,
            None,
            None,
            &["a7", "b6", "d7", "d6", "g7xb6"],
        );
        m.resign(Color::Black).unwrap();
        states.push((
            "muehle_local_resigned",
            state(3, &m, Kind::Local, humans(Some("Anna"), None, true), false),
        ));
        let m = game(
            Variant::Muehle,
            None,
            Some("WW./.../.../.B..BW/.../.../.B. w 0 0 0 30"),
            &["g4-g7xb4"],
        );
        states.push((
            "muehle_two_stones",
            state(4, &m, Kind::Computer, computer(), false),
        ));

        let huffing = Some("dame,huffing=on");
        let d = game(
            Variant::Dame,
            huffing,
            None,
            &["c3-d4", "f6-e5", "g3-h4", "Hd4"],
        );
        states.push((
            "dame_pending_huff",
            state(5, &d, Kind::Local, humans(None, None, true), false),
        ));
        let d = game(
            Variant::Dame,
            huffing,
            None,
            &["c3-d4", "f6-e5", "g3-h4", "Hd4 e5-f4", "e3xg5"],
        );
        states.push((
            "dame_huffable_and_huffs",
            state(6, &d, Kind::Computer, computer(), true),
        ));
        let mut d = game(
            Variant::International,
            None,
            None,
            &["32-28", "19-23", "28x19", "14x23"],
        );
        d.offer_draw(Color::White).unwrap();
        d.accept_draw(Color::Black).unwrap();
        states.push((
            "international_agreed",
            state(
                7,
                &d,
                Kind::Online,
                humans(Some("A"), Some("B"), true),
                false,
            ),
        ));
        let d = game(Variant::DameFr, None, Some("W:Wc3:Bd4"), &["c3xe5"]);
        states.push((
            "dame_fr_no_pieces",
            state(8, &d, Kind::Local, humans(None, None, true), false),
        ));
        let mut d = game(Variant::Dame100, None, None, &["32-28"]);
        d.offer_draw(Color::Black).unwrap();
        states.push((
            "dame_100_draw_offer",
            state(
                9,
                &d,
                Kind::Computer,
                [player(None, true, Some(3)), player(Some("Ben"), true, None)],
                false,
            ),
        ));

        let names: Vec<&str> = states.iter().map(|(n, _)| *n).collect();
        let mut known: Vec<&str> = snapshots
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        known.sort_unstable();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, known, "every snapshot is checked");
        for (name, st) in states {
            let typed = serde_json::to_value(&st).unwrap();
            assert_eq!(typed, snapshots[name], "{name}");
        }
        // The finished games say how they ended, the others do not.
        assert_eq!(snapshots["muehle_two_stones"]["reason"], "two-stones");
        assert_eq!(snapshots["dame_fr_no_pieces"]["reason"], "no-pieces");
        assert_eq!(snapshots["dame_pending_huff"]["pending_huff"], "d4");
        assert_eq!(snapshots["muehle_online_draw_offer"]["draw_offer"], "black");
    }

    #[test]
    fn a_state_for_a_seat_adds_you_and_a_message_wraps_it() {
        let g = game(Variant::Muehle, None, None, &[]);
        let st = state(1, &g, Kind::Local, humans(None, None, true), false);
        let v = serde_json::to_value(StateForSeat {
            state: st.clone(),
            you: Some(Color::White),
        })
        .unwrap();
        assert_eq!(v["you"], "white");
        assert_eq!(v["ply"], 0);
        let msg: Value = serde_json::from_str(&StateMessage::text(&st)).unwrap();
        assert_eq!(msg["type"], "state");
        assert_eq!(msg["state"], serde_json::to_value(&st).unwrap());
        let none = serde_json::to_value(StateForSeat {
            state: st,
            you: None,
        })
        .unwrap();
        assert!(none["you"].is_null());
    }
}
