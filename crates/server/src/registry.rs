//! The live games: one [`Entry`] per game in use, holding the game (loaded
//! from storage on first use), a mutex that serializes every change of the
//! game, and the broadcast channel of its sockets. Entries vanish when the
//! last request, socket or computer search lets go of them.
//!
//! Every change follows one path: check it on a copy of the game, store it
//! (one transaction), then take the copy, answer and broadcast; the
//! computer's moves too. Who moves for a computer seat (`crate::computer`)
//! is told of every game loaded or changed ([`ComputerSeat`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde_json::{Value, json};
use tokio::sync::{broadcast, watch};

use crate::clocks::{
    self, ABANDON_MS, ClockService, ClockState, ClockView, EXTRA_TIME_MS, GameClock, Presence, Time,
};
use crate::error::ApiError;
use crate::fair::AnalysisLimits;
use crate::game::{Color, GameError, LiveGame, PerSide, SavedGame, TimeControl, Variant};
use crate::game_state::{
    GameState, Kind, Player, RematchState, Seating, StateMessage, Status, computer_name,
};
use crate::rating::{self, SeatRating};
use crate::storage::{
    ClockMeta, Expected, GameFilter, GameMeta, GameSummary, MoveChange, NewGame, RatingChange,
    Rematch, RematchChange, Seat, SeatChange, Seats, Storage, StorageError, StoredGame,
};
use crate::util::{self, constant_time_eq, token_hash};

/// How many state messages a socket may fall behind before it is sent a
/// fresh state instead.
const CHANNEL_CAPACITY: usize = 16;

/// Settings of the engine's users: the computer player and the analyses.
#[derive(Clone, Debug)]
pub struct RegistryConfig {
    /// The computer's thinking time per move; `None`: by level (0.3–1 s for
    /// levels 1–9, 1.5 s at level 10).
    pub computer_movetime: Option<Duration>,
    /// Searches (computer moves and analyses) running at once.
    pub engine_slots: usize,
    /// The longest an analysis may think, whatever the request asks;
    /// `None`: as asked (the API allows up to 10 s).
    pub max_analysis_time: Option<Duration>,
    /// How analyses share the engine slots with computer moves and among
    /// clients.
    pub analysis: AnalysisLimits,
}

impl Default for RegistryConfig {
    fn default() -> RegistryConfig {
        RegistryConfig {
            computer_movetime: None,
            engine_slots: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_analysis_time: None,
            analysis: AnalysisLimits::default(),
        }
    }
}

/// The most moves a game keeps: a further move is refused (the players
/// can agree a draw, which the computer then accepts, or resign). Only
/// games whose draw rules are switched off get near it; the limit keeps
/// every exported record importable (crate::error::IMPORT_LIMIT).
pub const MAX_GAME_PLIES: usize = 20_000;

/// An online game whose second player has not come this many hours after
/// its creation is aborted (the invitation expires).
pub const INVITATION_HOURS: i64 = 24;

/// As [`INVITATION_HOURS`], in days, for a correspondence game.
pub const CORRESPONDENCE_INVITATION_DAYS: i64 = 7;

/// A colour as the storage writes it: exactly `white` or `black`.
fn color_from_row(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// A game in memory.
pub(crate) struct Live {
    pub(crate) game: LiveGame,
    pub(crate) kind: Kind,
    pub(crate) seats: Seats,
    tags: Vec<(String, String)>,
    created_at: String,
    pub(crate) updated_at: String,
    /// Changes whenever the moves change (or the game is reloaded): a
    /// computer search started at another version is void.
    pub(crate) version: u64,
    /// The stored game's version (`StoredGame::version`) this state is
    /// at: the next change is stored only if the game is still there.
    pub(crate) stored_version: i64,
    /// The stop flag of the computer's search in progress.
    pub(crate) thinking: Option<Arc<AtomicBool>>,
    /// The stored game changed behind our back (another writer): reload.
    pub(crate) stale: bool,
    /// A timed game's clock.
    pub(crate) clock: Option<GameClock>,
    /// Both times left after each move (timed games; `None` where not
    /// stored).
    move_clocks: Vec<Option<[i64; 2]>>,
    /// Whether the game is rated (docs/API.md, "Ratings").
    pub(crate) rated: bool,
    /// A rated game that ended with a result: White's and Black's rating
    /// change.
    ratings: Option<[RatingChange; 2]>,
    /// A finished online game's rematch offer.
    rematch: Option<Rematch>,
    /// Who of the players is connected (the entry's).
    presence: Arc<Presence>,
    /// The server's time.
    time: Time,
}

impl Live {
    /// The stored game this state stands for: a change made on it is
    /// stored only if nothing else was stored since.
    pub(crate) fn expected(&self) -> Expected {
        Expected {
            ply: self.game.ply(),
            version: self.stored_version,
        }
    }

    /// The outcome of storing a change: its new version is the game's,
    /// or, when it was not stored, nothing is taken over and the game is
    /// read anew before the next change (another writer came first, the
    /// game is gone, or a failed write whose outcome the storage could not
    /// tell, like a database file replaced meanwhile).
    fn take_stored(&mut self, stored: Result<i64, StorageError>) -> Result<(), ApiError> {
        match stored {
            Ok(version) => {
                self.stored_version = version;
                Ok(())
            }
            Err(e) => {
                self.stale = true;
                Err(e.into())
            }
        }
    }

    /// The stored outcome, draw offer, pending huff and clock of `game`
    /// with `clock`.
    fn meta(&self, game: &LiveGame, clock: Option<&GameClock>, updated_at: &str) -> GameMeta {
        GameMeta {
            clock: clock.map(|c| c.to_meta(self.clock_view(game))),
            ..meta_of(game, updated_at)
        }
    }

    /// Where `game` stands with its clock.
    fn clock_view(&self, game: &LiveGame) -> ClockView {
        ClockView {
            turn: game.turn(),
            first_moves: game.ply() < 2,
            online: self.kind == Kind::Online,
            over: game.ending().is_some(),
        }
    }

    /// The clock's deadline now.
    pub(crate) fn deadline(&self) -> Option<i64> {
        self.clock?.deadline(self.clock_view(&self.game))
    }

    /// What the clock makes of `step` at `now`: the clock after it, or
    /// the game ended by the clock instead (`true`: the step itself was
    /// not made, the time had run out first).
    fn clock_step(&self, step: &mut Step, now: i64) -> (Option<GameClock>, bool) {
        let Some(mut c) = self.clock else {
            return (None, false);
        };
        if self.game.ending().is_some() {
            return (Some(c), false);
        }
        let view = self.clock_view(&self.game);
        if let Some((side, ms)) = step.give {
            c.clock.give(side, ms);
        }
        let turn = view.turn;
        let overdue = c.deadline(view).is_some_and(|d| now >= d);
        let timed_out = match &step.moves {
            MoveChange::Append(_) if !view.first_moves => c
                .clock
                .charge(turn, c.elapsed(now), step.credit_ms)
                .is_err(),
            _ => overdue,
        };
        if timed_out {
            let mut next = self.game.clone();
            let ended = if view.first_moves {
                next.abort()
            } else {
                c.clock.remaining_ms[turn.index()] = 0;
                next.flag(turn)
            };
            if ended.is_ok() {
                step.next = next;
                step.moves = MoveChange::Keep;
                c.turn_started_at = None;
                return (Some(c), true);
            }
        }
        match &step.moves {
            MoveChange::Append(_) | MoveChange::Truncate(_) => {
                if c.turn_started_at.is_some() {
                    c.turn_started_at = Some(now);
                }
            }
            MoveChange::Keep => {}
        }
        if step.next.ending().is_some() && c.turn_started_at.is_some() {
            // The clock stops: the side to move's time as it stood.
            if !view.first_moves && !matches!(step.moves, MoveChange::Append(_)) {
                let i = turn.index();
                c.clock.remaining_ms[i] = c.clock.left_after(turn, c.elapsed(now));
            }
            c.turn_started_at = None;
        }
        (Some(c), false)
    }

    /// The seat `who` may act for: the one its token holds, else the one
    /// its account holds (of two, the side to move: a local game).
    fn seat_for(&self, who: Credentials<'_>) -> Result<Color, ApiError> {
        let token = who.token.filter(|t| !t.is_empty());
        if let Some(token) = token {
            let hash = token_hash(token);
            if let Some(side) = Color::ALL.into_iter().find(|s| {
                self.seats[s.index()]
                    .token_hash
                    .as_deref()
                    .is_some_and(|h| constant_time_eq(h, &hash))
            }) {
                return Ok(side);
            }
        }
        let held: Vec<Color> = match who.account {
            Some(account) => Color::ALL
                .into_iter()
                .filter(|s| self.seats[s.index()].account == Some(account))
                .collect(),
            None => Vec::new(),
        };
        match held[..] {
            [side] => Ok(side),
            [_, _] => Ok(self.game.turn()),
            _ if token.is_some() => Err(ApiError::WrongToken(
                "the token holds no seat in this game".to_string(),
            )),
            _ if who.account.is_some() => Err(ApiError::WrongToken(
                "your account holds no seat in this game (and no seat's token was given)"
                    .to_string(),
            )),
            _ => Err(ApiError::WrongToken(
                "this action needs the token of a seat".to_string(),
            )),
        }
    }

    /// In an online game, a seat whose invited player has not joined yet:
    /// the game waits for them (docs/API.md, `waiting_for_opponent`).
    fn check_both_joined(&self) -> Result<(), ApiError> {
        if self.kind != Kind::Online {
            return Ok(());
        }
        match Color::ALL
            .into_iter()
            .find(|s| !self.seats[s.index()].joined && self.seats[s.index()].level.is_none())
        {
            Some(missing) => Err(ApiError::WaitingForOpponent(format!(
                "the {} player has not joined yet: the game starts when both players are here",
                missing.name()
            ))),
            None => Ok(()),
        }
    }

    fn player_name(&self, side: Color) -> Option<String> {
        let seat = &self.seats[side.index()];
        match seat.level {
            Some(level) => Some(computer_name(level)),
            None => seat.name.clone(),
        }
    }

    pub(crate) fn state(&self, id: i64) -> GameState {
        let now = self.time.now_ms();
        let online = self.kind == Kind::Online;
        let players = PerSide::new(|side| {
            let seat = &self.seats[side.index()];
            let away_ms = online.then(|| self.presence.away_ms(side, now)).flatten();
            Player {
                online: online.then_some(away_ms.is_none()),
                away_ms,
                kind: if seat.level.is_some() {
                    "computer"
                } else {
                    "human"
                },
                name: self.player_name(side),
                level: seat.level,
                joined: seat.joined,
                account: seat.account.is_some(),
                rating: self
                    .ratings
                    .map(|r| SeatRating::new(r[side.index()].before, r[side.index()].after)),
            }
        });
        GameState::new(
            &self.game,
            Seating {
                id,
                kind: self.kind,
                players,
                thinking: self.thinking.is_some(),
                created_at: self.created_at.clone(),
                updated_at: self.updated_at.clone(),
                clock: self
                    .clock
                    .map(|c| ClockState::new(&c, now, self.clock_view(&self.game))),
                rated: self.rated,
                rematch: self.rematch.as_ref().map(|r| RematchState {
                    offered_by: if r.offered_by == 0 {
                        Color::White
                    } else {
                        Color::Black
                    },
                    game: r.new_game,
                }),
                spectators: if online {
                    self.presence.spectators()
                } else {
                    0
                },
            },
        )
    }

    /// The time control and each move's clock, for the record.
    fn record_clock(&self) -> Option<(TimeControl, Vec<Option<u64>>)> {
        let c = self.clock?;
        let mover_after = self
            .move_clocks
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let side = self.game.mover_of(i)?;
                m.and_then(|m| u64::try_from(m[side.index()]).ok())
            })
            .collect();
        Some((c.clock.control, mover_after))
    }

    fn record_tags(&self) -> Vec<(String, String)> {
        if self.kind == Kind::Imported {
            return self.tags.clone();
        }
        let date = self
            .created_at
            .get(..10)
            .unwrap_or("????-??-??")
            .replace('-', ".");
        let name = |side| self.player_name(side).unwrap_or_else(|| "?".to_string());
        vec![
            ("Event".into(), format!("brett {} game", self.kind.name())),
            ("Site".into(), "brett".into()),
            ("Date".into(), date),
            ("White".into(), name(Color::White)),
            ("Black".into(), name(Color::Black)),
        ]
    }
}

/// How `game` stands, as stored: status, result, reason, draw offer,
/// pending huff.
fn meta_of(game: &LiveGame, updated_at: &str) -> GameMeta {
    let ending = game.ending();
    GameMeta {
        status: Status::of_ended(ending.is_some()),
        result: ending.as_ref().map(|e| e.result().to_string()),
        reason: ending.as_ref().map(|e| e.reason.to_string()),
        draw_offer: game.draw_offer().map(|s| s.name().to_string()),
        pending_huff: game.pending_huff(),
        updated_at: updated_at.to_string(),
        clock: None,
    }
}

/// A name from an imported record: control characters dropped, trimmed,
/// at most 40 characters; `?` (unknown) is no name.
fn import_name(raw: Option<&str>) -> Option<String> {
    let cleaned: String = raw?
        .chars()
        .filter(|&c| !c.is_control() && !util::is_bidi_control(c))
        .collect();
    let cleaned: String = cleaned.trim().chars().take(util::MAX_NAME_CHARS).collect();
    let cleaned = cleaned.trim().to_string();
    (!cleaned.is_empty() && cleaned != "?").then_some(cleaned)
}

/// The map of the entries of the games in use.
type Entries = Arc<Mutex<HashMap<i64, Weak<Entry>>>>;

/// One game in use.
pub struct Entry {
    pub(crate) id: i64,
    pub(crate) state: tokio::sync::Mutex<Option<Live>>,
    /// Who of the players is connected to it here.
    pub(crate) presence: Arc<Presence>,
    tx: broadcast::Sender<Utf8Bytes>,
    /// The game's new chat messages, for its sockets to filter
    /// (crate::chat).
    pub(crate) chat: broadcast::Sender<Arc<crate::chat::ChatLine>>,
    entries: Entries,
}

impl Drop for Entry {
    fn drop(&mut self) {
        let mut map = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if map.get(&self.id).is_some_and(|w| w.strong_count() == 0) {
            map.remove(&self.id);
        }
    }
}

impl Entry {
    /// A receiver of the game's state messages.
    pub fn subscribe(&self) -> broadcast::Receiver<Utf8Bytes> {
        self.tx.subscribe()
    }
}

/// What creating a game asks for.
pub struct CreateGame {
    /// The game, at its start.
    pub game: LiveGame,
    /// How it is played (not `imported`).
    pub kind: Kind,
    /// The computer's level (computer games).
    pub level: u8,
    /// The creator's colour (ignored for local games).
    pub color: Color,
    /// The creator's name.
    pub name: Option<String>,
    /// The time control.
    pub control: TimeControl,
    /// The creator's account (a login's cookie): it holds the creator's
    /// seats.
    pub account: Option<i64>,
    /// A rated game (online, created by an account, by a rating pool's
    /// rules: docs/API.md, "Ratings").
    pub rated: bool,
}

/// Who acts for a seat: the seat's token, or the account that holds the
/// seat (the cookie of a login, on any device).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Credentials<'a> {
    /// The seat's token.
    pub token: Option<&'a str>,
    /// The requester's account.
    pub account: Option<i64>,
}

impl<'a> Credentials<'a> {
    /// A seat's token alone (a guest).
    pub fn of_token(token: Option<&'a str>) -> Credentials<'a> {
        Credentials {
            token,
            account: None,
        }
    }
}

/// A game between two players who are both there
/// ([`GameRegistry::create_paired`]).
pub struct Pairing {
    /// The game, at its start.
    pub game: LiveGame,
    /// The time control.
    pub control: TimeControl,
    /// A rated game.
    pub rated: bool,
    /// White and Black.
    pub players: [PairedPlayer; 2],
}

/// A player of a [`Pairing`].
pub struct PairedPlayer {
    /// The account that holds the seat (its login's cookie acts for it).
    pub account: Option<i64>,
    /// The name shown.
    pub name: Option<String>,
    /// The hash of the seat's token (`None`: a new random one, which
    /// nobody is given).
    pub token_hash: Option<String>,
}

/// What a rematch request does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RematchAction {
    /// Offer a rematch, or accept the opponent's offer.
    Offer,
    /// Withdraw the offer, or decline the opponent's.
    Decline,
}

/// The new game of an accepted rematch, for one of its players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RematchSeat {
    /// The new game.
    pub game: i64,
    /// The player's colour there.
    pub color: Color,
    /// A guest's token of that seat.
    pub token: Option<String>,
}

/// What creating a game gives.
pub struct Created {
    /// The new game's id.
    pub id: i64,
    /// The seats the creator holds, with their tokens.
    pub tokens: Vec<(Color, String)>,
    /// The other seat of an online game.
    pub invite: Option<(Color, String)>,
    /// The game's state.
    pub state: GameState,
}

/// What a draw request does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline the opponent's offer.
    Decline,
}

/// What a player does to a game: every change made through a seat's token
/// is one of these, carried out by [`GameRegistry::apply`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move (in the game's notation) at `ply`, the current ply.
    Move {
        /// The ply the move is meant for.
        ply: u64,
        /// The move.
        text: String,
    },
    /// Huff (Dame) the opponent's piece on `square` at `ply`.
    Huff {
        /// The ply the huff is meant for.
        ply: u64,
        /// The square.
        square: String,
    },
    /// Offer, accept or decline a draw.
    Draw(DrawAction),
    /// Resign.
    Resign,
    /// Take back the player's last move (and the computer's reply), or
    /// the last move at one screen.
    Takeback,
    /// Take the seat of an online game, with a name.
    Join {
        /// The player's name (`None`: the seat keeps its name).
        name: Option<String>,
    },
    /// End an online game without a result before both sides have moved.
    Abort,
    /// Claim the win (`win`) or a draw after the opponent left a live game.
    Claim {
        /// The win, or a draw.
        win: bool,
    },
    /// Give the opponent more time.
    GiveTime,
}

impl Action {
    /// The ply a move or huff is meant for.
    fn ply(&self) -> Option<u64> {
        match self {
            Action::Move { ply, .. } | Action::Huff { ply, .. } => Some(*ply),
            _ => None,
        }
    }
}

/// A change of the game itself, prepared and checked, not yet stored:
/// the game after it, what happens to the stored moves, and for the
/// clock, the lag credited to a move and the time given to a side.
pub(crate) struct Step {
    /// The game after the change.
    pub(crate) next: LiveGame,
    /// What happens to the stored moves.
    pub(crate) moves: MoveChange,
    /// The network lag credited to a move.
    pub(crate) credit_ms: u64,
    /// Time given to a side.
    pub(crate) give: Option<(Color, u64)>,
}

impl Step {
    /// A change of `next` with `moves`, nothing for the clock.
    pub(crate) fn new(next: LiveGame, moves: MoveChange) -> Step {
        Step {
            next,
            moves,
            credit_ms: 0,
            give: None,
        }
    }
}

/// What an action changes, prepared and checked, not yet stored.
enum Change {
    /// The game itself.
    Game(Box<Step>),
    /// The player's seat: joined, with this name.
    Seat { name: Option<String> },
}

/// Check `action` of `side` against the game and prepare its change on a
/// copy; nothing is changed here.
fn prepare(live: &Live, side: Color, action: Action, lag_ms: u64) -> Result<Change, ApiError> {
    if !matches!(
        action,
        Action::Takeback | Action::Join { .. } | Action::Abort
    ) {
        live.check_both_joined()?;
    }
    let mut next = live.game.clone();
    let mut give = None;
    let credit_ms = lag_ms.min(clocks::LAG_CREDIT_CAP_MS);
    let moves = match action {
        Action::Move { ply, text } => {
            check_turn(live, side, ply)?;
            match next.play(&text)? {
                Some(stored) => MoveChange::Append(stored),
                // Only a huff (Dame): the same player is still to move.
                None => MoveChange::Keep,
            }
        }
        Action::Huff { ply, square } => {
            check_turn(live, side, ply)?;
            next.huff(&square)?;
            MoveChange::Keep
        }
        Action::Draw(draw) => {
            match draw {
                DrawAction::Offer => {
                    if next.draw_offer() != Some(side) {
                        next.offer_draw(side)?;
                    }
                    // The computer declines, but for a game at the most
                    // moves kept, which cannot go on.
                    let opponent = side.other();
                    if live.seats[opponent.index()].level.is_some() && next.ending().is_none() {
                        if next.ply() >= MAX_GAME_PLIES {
                            next.accept_draw(opponent)?;
                        } else {
                            next.decline_draw(opponent)?;
                        }
                    }
                }
                DrawAction::Accept => next.accept_draw(side)?,
                DrawAction::Decline => next.decline_draw(side)?,
            }
            MoveChange::Keep
        }
        Action::Resign => {
            next.resign(side)?;
            MoveChange::Keep
        }
        Action::Takeback => {
            if !matches!(live.kind, Kind::Computer | Kind::Local) {
                return Err(ApiError::NotAllowed(
                    "moves can be taken back only in games against the computer and local games"
                        .into(),
                ));
            }
            if let Some(e) = live.game.ending() {
                return Err(GameError::GameOver(e.text).into());
            }
            let ply = live.game.ply();
            let back_to = if live.kind == Kind::Local {
                ply.checked_sub(1)
            } else {
                (0..ply)
                    .rev()
                    .find(|&i| live.game.mover_of(i) == Some(side))
            };
            let Some(back_to) = back_to else {
                return Err(ApiError::NotAllowed("you have no move to take back".into()));
            };
            // Storing the takeback calls off the computer's search, if any:
            // its move is never played.
            next.undo_to(back_to);
            MoveChange::Truncate(back_to)
        }
        Action::Join { name } => {
            if live.kind != Kind::Online {
                return Err(ApiError::NotAllowed(
                    "only seats of online games are joined".into(),
                ));
            }
            let name = name.or_else(|| live.seats[side.index()].name.clone());
            return Ok(Change::Seat { name });
        }
        Action::Abort => {
            if let Some(e) = live.game.ending() {
                return Err(GameError::GameOver(e.text).into());
            }
            if live.kind != Kind::Online || live.game.ply() >= 2 {
                return Err(ApiError::NotAllowed(
                    "an online game can be aborted only before both players have moved".into(),
                ));
            }
            next.abort()?;
            MoveChange::Keep
        }
        Action::Claim { win } => {
            if let Some(e) = live.game.ending() {
                return Err(GameError::GameOver(e.text).into());
            }
            let live_clock = live.clock.is_some_and(|c| c.clock.control.is_live());
            if live.kind != Kind::Online || !live_clock {
                return Err(ApiError::NotAllowed(
                    "a game can be claimed only in online games with a live clock".into(),
                ));
            }
            let now = live.time.now_ms();
            let away = live.presence.away_ms(side.other(), now);
            if away.is_none_or(|ms| ms < ABANDON_MS as u64) {
                return Err(ApiError::NotAllowed(format!(
                    "your opponent is still here: a game can be claimed when the opponent has \
                     had no connection for {} seconds",
                    ABANDON_MS / 1000
                )));
            }
            next.claim(side, win)?;
            MoveChange::Keep
        }
        Action::GiveTime => {
            if let Some(e) = live.game.ending() {
                return Err(GameError::GameOver(e.text).into());
            }
            let Some(c) = live.clock else {
                return Err(ApiError::NotAllowed("this game has no clock".into()));
            };
            if live.kind != Kind::Online {
                return Err(ApiError::NotAllowed(
                    "time is given to the opponent in online games".into(),
                ));
            }
            let ms = match c.clock.control {
                TimeControl::Correspondence { .. } => crate::game::clock::DAY_MS,
                _ => EXTRA_TIME_MS,
            };
            give = Some((side.other(), ms));
            MoveChange::Keep
        }
    };
    Ok(Change::Game(Box::new(Step {
        next,
        moves,
        credit_ms,
        give,
    })))
}

/// The checks of a move or huff before the rules, in the order of
/// docs/API.md: the ply, the game not over, the most moves a game keeps,
/// the turn.
fn check_turn(live: &Live, side: Color, ply: u64) -> Result<(), ApiError> {
    let now_ply = live.game.ply();
    if ply != now_ply as u64 {
        return Err(ApiError::StalePly(format!(
            "ply {ply} is not the current ply {now_ply}: the position has changed (or the move was already played)"
        )));
    }
    if let Some(e) = live.game.ending() {
        return Err(GameError::GameOver(e.text).into());
    }
    if now_ply >= MAX_GAME_PLIES {
        return Err(ApiError::NotAllowed(format!(
            "this game has reached the {MAX_GAME_PLIES} moves brett keeps of a game; \
             offer a draw or resign"
        )));
    }
    let turn = live.game.turn();
    if turn != side {
        return Err(ApiError::NotYourTurn(format!(
            "it is {}'s turn; your seat is {}",
            turn.name(),
            side.name()
        )));
    }
    Ok(())
}

/// Who moves for the computer seats (crate::computer): told of every game
/// loaded or changed, under the game's lock, so that it starts its search
/// when it is the computer's turn.
pub(crate) trait ComputerSeat: Send + Sync {
    /// `live`, the game of `entry`, was loaded or changed.
    fn consider(&self, entry: &Arc<Entry>, live: &mut Live);
}

/// All live games and the storage.
pub struct GameRegistry {
    storage: Arc<dyn Storage>,
    entries: Entries,
    versions: AtomicU64,
    closing: watch::Sender<bool>,
    /// Who moves for the computer seats, once there is one.
    computer: OnceLock<Weak<dyn ComputerSeat>>,
    /// What ends games by the clock, once there is one.
    clocks: OnceLock<Weak<ClockService>>,
    /// The server's time.
    time: Time,
    /// When the registry started: a player with no connection since counts
    /// as away since then.
    started_at: i64,
}

impl GameRegistry {
    /// The registry of the games in `storage`.
    pub fn new(storage: Arc<dyn Storage>) -> Arc<GameRegistry> {
        GameRegistry::with_time(storage, Time::default())
    }

    /// The registry of the games in `storage`, going by `time`.
    pub fn with_time(storage: Arc<dyn Storage>, time: Time) -> Arc<GameRegistry> {
        Arc::new(GameRegistry {
            storage,
            entries: Arc::new(Mutex::new(HashMap::new())),
            versions: AtomicU64::new(1),
            closing: watch::channel(false).0,
            computer: OnceLock::new(),
            clocks: OnceLock::new(),
            started_at: time.now_ms(),
            time,
        })
    }

    /// Let `clocks` end the games by the clock (once).
    pub(crate) fn set_clocks(&self, clocks: Weak<ClockService>) {
        let _ = self.clocks.set(clocks);
    }

    /// The server's time.
    pub fn time(&self) -> &Time {
        &self.time
    }

    /// Tell the clock service of `live`'s deadline.
    fn schedule(&self, id: i64, live: &Live) {
        clocks::schedule(self.clocks.get(), id, live.deadline());
    }

    /// Let `computer` move for the computer seats (once).
    pub(crate) fn seat_computer(&self, computer: Weak<dyn ComputerSeat>) {
        let _ = self.computer.set(computer);
    }

    /// If it is the computer's turn in `live` and it is not thinking yet,
    /// the computer starts its search.
    fn start_computer(&self, entry: &Arc<Entry>, live: &mut Live) {
        if let Some(computer) = self.computer.get().and_then(Weak::upgrade) {
            computer.consider(entry, live);
        }
    }

    /// Where the games are kept.
    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    /// Resolves when the server shuts down.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Whether the server is shutting down.
    pub fn is_closing(&self) -> bool {
        *self.closing.borrow()
    }

    /// Stop: sockets close, no computer move is stored any more.
    pub fn shutdown(&self) {
        self.closing.send_replace(true);
    }

    /// Number of games in memory (for tests and the benchmark).
    pub fn live_games(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|w| w.strong_count() > 0)
            .count()
    }

    /// Ids of the games in memory (crate::cluster).
    pub(crate) fn live_game_ids(&self) -> Vec<i64> {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(_, w)| w.strong_count() > 0)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Another instance changed game `id` (crate::cluster): read it anew
    /// and send it to the sockets here; with `load`, also when it is not in
    /// memory (so the computer moves here if it is its turn).
    pub(crate) async fn refresh(self: &Arc<Self>, id: i64, load: bool) {
        let entry = if load {
            self.entry(id)
        } else {
            let map = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            match map.get(&id).and_then(Weak::upgrade) {
                Some(entry) => entry,
                None => return,
            }
        };
        let mut guard = entry.state.lock().await;
        match guard.as_mut() {
            Some(live) => live.stale = true,
            None if !load => return,
            None => {}
        }
        match self.load(&entry, &mut guard).await {
            Ok(live) => Self::broadcast(&entry, live),
            Err(e) => tracing::warn!(game = id, error = %e, "reading a changed game failed"),
        }
    }

    /// A version number not used before in this process.
    fn next_version(&self) -> u64 {
        self.versions.fetch_add(1, Ordering::Relaxed)
    }

    /// The entry of game `id` (it may not exist: loading tells).
    pub fn entry(&self, id: i64) -> Arc<Entry> {
        let mut map = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = map.get(&id).and_then(Weak::upgrade) {
            return e;
        }
        let entry = Arc::new(Entry {
            id,
            state: tokio::sync::Mutex::new(None),
            presence: Arc::new(Presence::new(self.started_at)),
            tx: broadcast::channel(CHANNEL_CAPACITY).0,
            chat: broadcast::channel(CHANNEL_CAPACITY).0,
            entries: self.entries.clone(),
        });
        map.insert(id, Arc::downgrade(&entry));
        entry
    }

    fn live_from_stored(&self, stored: StoredGame, entry: &Entry) -> Result<Live, ApiError> {
        let (id, stored_version, rated, g) =
            (stored.id, stored.version, stored.rated, stored.stored);
        let meta = &g.meta;
        let saved = SavedGame {
            game: g.game.name(),
            rules: &g.rules,
            start: &g.start_position,
            moves: &g.moves,
            over: meta.status == Status::Over,
            result: meta.result.as_deref(),
            reason: meta.reason.as_deref(),
            draw_offer: meta.draw_offer.as_deref().and_then(color_from_row),
            pending_huff: meta.pending_huff.as_deref(),
        };
        let game =
            LiveGame::restore(&saved).map_err(|e| ApiError::Internal(format!("game {id}: {e}")))?;
        let kind = Kind::parse(&g.kind)
            .ok_or_else(|| ApiError::Internal(format!("game {id}: unknown kind '{}'", g.kind)))?;
        let clock = match &g.meta.clock {
            None => None,
            Some(c) => Some(GameClock::from_meta(c).ok_or_else(|| {
                ApiError::Internal(format!("game {id}: unknown time control '{}'", c.control))
            })?),
        };
        Ok(Live {
            clock,
            move_clocks: g.move_clocks,
            presence: entry.presence.clone(),
            time: self.time.clone(),
            game,
            kind,
            seats: g.seats,
            tags: g.tags,
            created_at: g.created_at,
            updated_at: g.meta.updated_at,
            version: self.next_version(),
            stored_version,
            stale: false,
            thinking: None,
            rated,
            ratings: None,
            rematch: None,
        })
    }

    /// The loaded game behind `guard`, loading it if needed. A computer
    /// game whose turn it is gets the computer going.
    pub(crate) async fn load<'g>(
        self: &Arc<Self>,
        entry: &Arc<Entry>,
        guard: &'g mut Option<Live>,
    ) -> Result<&'g mut Live, ApiError> {
        if guard.as_ref().is_some_and(|l| l.stale) {
            if let Some(stop) = guard.as_mut().and_then(|l| l.thinking.take()) {
                stop.store(true, Ordering::Relaxed);
            }
            *guard = None;
        }
        if guard.is_none() {
            let stored = self
                .storage
                .load_game(entry.id)
                .await?
                .ok_or_else(|| ApiError::not_found_game(entry.id))?;
            let mut live = self.live_from_stored(stored, entry)?;
            self.read_ratings(entry.id, &mut live).await;
            self.read_rematch(entry.id, &mut live).await;
            self.read_presence(entry).await;
            self.schedule(entry.id, &live);
            *guard = Some(live);
        }
        let live = guard.as_mut().expect("loaded just now");
        self.start_computer(entry, live);
        Ok(live)
    }

    /// A rated game that has ended: its rating changes, if not read yet
    /// (they were stored with the ending; a failed read leaves them out of
    /// the state until the game is read anew).
    async fn read_ratings(&self, id: i64, live: &mut Live) {
        if !live.rated || live.ratings.is_some() || live.game.ending().is_none() {
            return;
        }
        match self.storage.game_ratings(id).await {
            Ok(ratings) => live.ratings = ratings,
            Err(e) => tracing::warn!("game {id}: the rating changes could not be read: {e}"),
        }
    }

    /// A finished online game: its rematch offer (a failed read leaves it
    /// out of the state until the game is read anew).
    async fn read_rematch(&self, id: i64, live: &mut Live) {
        if live.kind != Kind::Online || live.game.ending().is_none() {
            return;
        }
        match self.storage.rematch(id).await {
            Ok(r) => live.rematch = r,
            Err(e) => tracing::warn!("game {id}: the rematch offer could not be read: {e}"),
        }
    }

    /// Send the state to every socket of the game.
    pub(crate) fn broadcast(entry: &Entry, live: &Live) {
        if entry.tx.receiver_count() > 0 {
            Self::broadcast_state(entry, &live.state(entry.id));
        }
    }

    /// Send a state already built to every socket of the game.
    fn broadcast_state(entry: &Entry, state: &GameState) {
        if entry.tx.receiver_count() == 0 {
            return;
        }
        let _ = entry.tx.send(Utf8Bytes::from(StateMessage::text(state)));
    }

    /// Store a change prepared on `next` and take it over; then broadcast
    /// and let the computer move if it is its turn. Returns the new state.
    /// A change that was not stored is not taken over: the game is read
    /// anew before the next one.
    ///
    /// The clock goes first: a move is charged to the mover's clock, and a
    /// change that comes when the side to move's time has run out ends the
    /// game on time (or aborts it) instead; that is stored and broadcast,
    /// and the answer is `game_over`.
    pub(crate) async fn commit(
        self: &Arc<Self>,
        entry: &Arc<Entry>,
        live: &mut Live,
        mut step: Step,
    ) -> Result<GameState, ApiError> {
        let now = self.now_text();
        let (clock, timed_out) = live.clock_step(&mut step, self.time.now_ms());
        let Step {
            next,
            moves: change,
            ..
        } = step;
        let meta = live.meta(&next, clock.as_ref(), &now);
        let moves_change = change != MoveChange::Keep;
        let after_move = meta.clock.as_ref().map(|c: &ClockMeta| c.remaining_ms);
        let appended = matches!(change, MoveChange::Append(_));
        let truncated = match change {
            MoveChange::Truncate(n) => Some(n),
            _ => None,
        };
        let stored = self
            .storage
            .update_game(entry.id, live.expected(), change, meta)
            .await;
        live.take_stored(stored)?;
        live.game = next;
        live.clock = clock;
        if appended {
            let ply = live.game.ply();
            live.move_clocks.resize(ply.saturating_sub(1), None);
            live.move_clocks.push(after_move);
        }
        if let Some(n) = truncated {
            live.move_clocks.truncate(n);
        }
        live.updated_at = now;
        self.read_ratings(entry.id, live).await;
        self.schedule(entry.id, live);
        if moves_change || live.game.ending().is_some() {
            // The computer's search in progress (if any) is void.
            if moves_change {
                live.version = self.next_version();
            }
            if let Some(stop) = live.thinking.take() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        self.start_computer(entry, live);
        let state = live.state(entry.id);
        Self::broadcast_state(entry, &state);
        if timed_out && let Some(e) = live.game.ending() {
            return Err(GameError::GameOver(e.text).into());
        }
        Ok(state)
    }

    /// Game `id`'s clock deadline has come: end it on time (or abort it)
    /// if it still stands; else tell the clock service the new one.
    pub(crate) async fn expire(self: &Arc<Self>, id: i64) {
        for _ in 0..3 {
            let entry = self.entry(id);
            let mut guard = entry.state.lock().await;
            let live = match self.load(&entry, &mut guard).await {
                Ok(live) => live,
                Err(e) => {
                    tracing::warn!(game = id, error = %e, "reading a game whose time ran out failed");
                    return;
                }
            };
            match live.deadline() {
                Some(d) if d <= self.time.now_ms() => {}
                _ => {
                    self.schedule(id, live);
                    return;
                }
            }
            let step = Step::new(live.game.clone(), MoveChange::Keep);
            match self.commit(&entry, live, step).await {
                Ok(_) | Err(ApiError::GameOver(_)) => return,
                // Another instance or a request came first: read it anew.
                Err(e) => tracing::debug!(game = id, error = %e, "ending on time: retrying"),
            }
        }
    }

    /// Several instances: what the others hold of game `entry`'s seats,
    /// and their spectators.
    async fn read_presence(&self, entry: &Entry) {
        if let Some(cluster) = self.storage.cluster() {
            let now = self.time.now_ms();
            match cluster.presence(entry.id, now).await {
                Ok(remote) => entry.presence.set_remote(remote),
                Err(e) => {
                    tracing::warn!(game = entry.id, error = %e, "reading who is connected failed")
                }
            }
            match cluster.spectators(entry.id, now).await {
                Ok(n) => entry.presence.set_remote_spectators(n),
                Err(e) => tracing::warn!(game = entry.id, error = %e, "reading spectators failed"),
            }
        }
    }

    /// Several instances: tell the others how many sockets of `side` of
    /// game `id` this one holds.
    fn tell_presence(self: &Arc<Self>, id: i64, side: Color, sockets: usize) {
        self.tell_sockets(id, side.index(), sockets);
    }

    /// Several instances: tell the others how many sockets of seat index
    /// `seat` (2: spectators) of game `id` this one holds.
    fn tell_sockets(self: &Arc<Self>, id: i64, seat: usize, sockets: usize) {
        if self.storage.cluster().is_none()
            || self.is_closing()
            || tokio::runtime::Handle::try_current().is_err()
        {
            return;
        }
        let (registry, at) = (self.clone(), self.time.now_ms());
        tokio::spawn(async move {
            if let Some(cluster) = registry.storage.cluster()
                && let Err(e) = cluster.set_presence(id, seat, sockets, at).await
            {
                tracing::warn!(game = id, error = %e, "telling who is connected failed");
            }
        });
    }

    /// A socket of the seat `token` holds in game `id` opened: the seat is
    /// present until the returned guard is dropped. The players are sent
    /// the news.
    pub async fn present(
        self: &Arc<Self>,
        id: i64,
        token: &str,
    ) -> Result<Option<PresenceGuard>, ApiError> {
        self.present_as(id, Credentials::of_token(Some(token)))
            .await
    }

    /// [`GameRegistry::present`] for the seat `who` may act for.
    pub async fn present_as(
        self: &Arc<Self>,
        id: i64,
        who: Credentials<'_>,
    ) -> Result<Option<PresenceGuard>, ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        let Ok(side) = live.seat_for(who) else {
            return Ok(None);
        };
        let sockets = entry.presence.connect(side);
        self.tell_presence(id, side, sockets);
        Self::broadcast(&entry, live);
        drop(guard);
        Ok(Some(PresenceGuard {
            registry: self.clone(),
            entry,
            side,
        }))
    }

    /// Create a game.
    pub async fn create(self: &Arc<Self>, req: CreateGame) -> Result<Created, ApiError> {
        let account = req.account;
        if req.rated {
            check_rated(&req)?;
        }
        let mut seats: Seats = Default::default();
        let mut tokens = Vec::new();
        let mut invite = None;
        let mut new_seat =
            |side: Color, name: Option<String>, joined: bool| -> Result<String, ApiError> {
                let token = util::new_token().map_err(ApiError::internal)?;
                seats[side.index()] = Seat {
                    token_hash: Some(token_hash(&token)),
                    name,
                    joined,
                    level: None,
                    account: joined.then_some(account).flatten(),
                };
                Ok(token)
            };
        match req.kind {
            Kind::Computer => {
                tokens.push((req.color, new_seat(req.color, req.name, true)?));
            }
            Kind::Local => {
                tokens.push((Color::White, new_seat(Color::White, req.name, true)?));
                tokens.push((Color::Black, new_seat(Color::Black, None, true)?));
            }
            Kind::Online => {
                tokens.push((req.color, new_seat(req.color, req.name, true)?));
                let other = req.color.other();
                invite = Some((other, new_seat(other, None, false)?));
            }
            Kind::Imported => {
                return Err(ApiError::BadRequest(
                    "kind is computer, local or online (imports go to /api/games/import)".into(),
                ));
            }
        }
        if req.kind == Kind::Computer {
            seats[req.color.other().index()] = Seat {
                token_hash: None,
                name: None,
                joined: true,
                level: Some(req.level),
                account: None,
            };
        }
        // Online games' clocks start when both players are there.
        let started = (req.kind != Kind::Online).then(|| self.time.now_ms());
        let (id, state) = self
            .insert(req.game, req.kind, seats, req.control, req.rated, started)
            .await?;
        Ok(Created {
            id,
            tokens,
            invite,
            state,
        })
    }

    /// Create an online game between two players who are both there (a
    /// seek or challenge accepted, a rematch): its clock starts now.
    pub async fn create_paired(
        self: &Arc<Self>,
        req: Pairing,
    ) -> Result<(i64, GameState), ApiError> {
        let accounts = req.players.each_ref().map(|p| p.account);
        if req.rated {
            let [Some(white), Some(black)] = accounts else {
                return Err(ApiError::BadRequest(
                    "only games between accounts are rated".into(),
                ));
            };
            if white == black {
                return Err(ApiError::NotAllowed(
                    "a rated game is not played against yourself".into(),
                ));
            }
            if rating::pool_of(req.game.game_type(), &req.game.rules_text()).is_none() {
                return Err(ApiError::BadRequest(format!(
                    "rated games are played by a preset's rules as they are; '{}' is none",
                    req.game.rules_text()
                )));
            }
        }
        let mut seats: Seats = Default::default();
        for (seat, player) in seats.iter_mut().zip(req.players) {
            let token_hash = match player.token_hash {
                Some(h) => h,
                None => token_hash(&util::new_token().map_err(ApiError::internal)?),
            };
            *seat = Seat {
                token_hash: Some(token_hash),
                name: player.name,
                joined: true,
                level: None,
                account: player.account,
            };
        }
        let started = Some(self.time.now_ms());
        self.insert(
            req.game,
            Kind::Online,
            seats,
            req.control,
            req.rated,
            started,
        )
        .await
    }

    /// Store a new game and take it into memory: its id and state.
    async fn insert(
        self: &Arc<Self>,
        game: LiveGame,
        kind: Kind,
        seats: Seats,
        control: TimeControl,
        rated: bool,
        started: Option<i64>,
    ) -> Result<(i64, GameState), ApiError> {
        let now = self.now_text();
        let mut live = Live {
            game,
            kind,
            seats,
            tags: Vec::new(),
            created_at: now.clone(),
            updated_at: now.clone(),
            version: self.next_version(),
            stored_version: 0,
            stale: false,
            thinking: None,
            clock: GameClock::new(control, started),
            rated,
            ratings: None,
            rematch: None,
            move_clocks: Vec::new(),
            presence: Arc::new(Presence::new(self.started_at)),
            time: self.time.clone(),
        };
        let meta = live.meta(&live.game, live.clock.as_ref(), &now);
        let id = self
            .storage
            .create_game_rated(
                NewGame {
                    game: live.game.game_type(),
                    kind: kind.name().to_string(),
                    rules: live.game.rules_text(),
                    start_position: live.game.start_position(),
                    moves: live.game.stored_moves(),
                    move_clocks: Vec::new(),
                    meta,
                    seats: live.seats.clone(),
                    tags: Vec::new(),
                    created_at: now,
                },
                rated,
            )
            .await?;
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        if guard.is_none() {
            live.presence = entry.presence.clone();
            self.schedule(id, &live);
            self.start_computer(&entry, &mut live);
            *guard = Some(live);
        }
        let live = self.load(&entry, &mut guard).await?;
        Ok((id, live.state(id)))
    }

    /// A rematch request of the player `who` of finished online game `id`:
    /// the first offer is stored; the opponent's offer accepts it and
    /// creates the new game (colours swapped, the same game, rules, time
    /// control and rated flag), and every later offer of either player
    /// answers their seat there. The state of game `id` shows the offer.
    pub async fn rematch(
        self: &Arc<Self>,
        id: i64,
        who: Credentials<'_>,
        action: RematchAction,
    ) -> Result<(GameState, Option<RematchSeat>), ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        let side = live.seat_for(who)?;
        if live.kind != Kind::Online || live.seats.iter().any(|s| s.level.is_some()) {
            return Err(ApiError::NotAllowed(
                "a rematch is played in online games between two players".into(),
            ));
        }
        if live.game.ending().is_none() {
            return Err(ApiError::NotAllowed(
                "a rematch is offered once the game is over".into(),
            ));
        }
        // A guest acting with its seat's token gets a token in the new game.
        let held_by_token = who.token.filter(|t| {
            live.seats[side.index()]
                .token_hash
                .as_deref()
                .is_some_and(|h| constant_time_eq(h, &token_hash(t)))
        });
        let next_token = held_by_token.map(|t| util::rematch_token(t, id));
        let mut seat = None;
        for _ in 0..3 {
            live.rematch = self.storage.rematch(id).await?;
            let current = live.rematch.clone();
            let changed = match (action, current) {
                (
                    _,
                    Some(Rematch {
                        new_game: Some(game),
                        ..
                    }),
                ) => {
                    if action == RematchAction::Decline {
                        return Err(ApiError::NotAllowed(
                            "the rematch was accepted already".into(),
                        ));
                    }
                    seat = Some(RematchSeat {
                        game,
                        color: side.other(),
                        token: next_token.clone(),
                    });
                    break;
                }
                (RematchAction::Offer, None) => {
                    let change = RematchChange::Offer {
                        side: side.index(),
                        next_token_hash: next_token.as_deref().map(token_hash),
                    };
                    self.storage.change_rematch(id, change).await?
                }
                (RematchAction::Offer, Some(r)) if r.offered_by == side.index() => break,
                (RematchAction::Offer, Some(r)) if !r.accepted => {
                    let claim = RematchChange::Claim {
                        offered_by: r.offered_by,
                    };
                    if !self.storage.change_rematch(id, claim).await? {
                        continue;
                    }
                    let player = |old: Color| {
                        let s = &live.seats[old.index()];
                        PairedPlayer {
                            account: s.account,
                            name: s.name.clone(),
                            token_hash: if old.index() == r.offered_by {
                                r.next_token_hash.clone()
                            } else {
                                next_token.as_deref().map(token_hash)
                            },
                        }
                    };
                    let rules = live.game.rules_text();
                    let pairing = Pairing {
                        game: LiveGame::create(live.game.game_type(), Some(&rules), None, None)?,
                        control: live.clock.map_or(TimeControl::Untimed, |c| c.clock.control),
                        rated: live.rated,
                        players: [player(Color::Black), player(Color::White)],
                    };
                    let created = self.create_paired(pairing).await;
                    let game = match created {
                        Ok((game, _)) => game,
                        Err(e) => {
                            // The offer stands again.
                            let undo = self.storage.change_rematch(id, RematchChange::Withdraw);
                            let _ = undo.await;
                            return Err(e);
                        }
                    };
                    self.storage
                        .change_rematch(id, RematchChange::Created(game))
                        .await?;
                    true
                }
                (RematchAction::Offer, Some(_)) => {
                    return Err(ApiError::NotAllowed(
                        "the rematch is being set up; try again in a moment".into(),
                    ));
                }
                (RematchAction::Decline, Some(r)) if !r.accepted => {
                    self.storage
                        .change_rematch(id, RematchChange::Withdraw)
                        .await?
                }
                (RematchAction::Decline, _) => {
                    return Err(ApiError::NotAllowed("there is no rematch offer".into()));
                }
            };
            if changed {
                live.rematch = self.storage.rematch(id).await?;
                Self::broadcast(&entry, live);
                if action == RematchAction::Decline {
                    break;
                }
            }
        }
        if seat.is_none()
            && action == RematchAction::Offer
            && let Some(game) = live.rematch.as_ref().and_then(|r| r.new_game)
        {
            seat = Some(RematchSeat {
                game,
                color: side.other(),
                token: next_token,
            });
        }
        Ok((live.state(id), seat))
    }

    /// A socket on game `entry` that holds no seat: it counts as a
    /// spectator's until the guard is dropped. The count goes out with the
    /// game's next state.
    pub fn spectate(self: &Arc<Self>, entry: &Arc<Entry>) -> SpectatorGuard {
        let n = entry.presence.watching(true);
        self.tell_sockets(entry.id, 2, n);
        SpectatorGuard {
            registry: self.clone(),
            entry: entry.clone(),
        }
    }

    /// Send the state of `entry`'s game, as it is in memory, to its
    /// sockets (soon, not under the caller's lock).
    fn rebroadcast(self: &Arc<Self>, entry: Arc<Entry>) {
        if tokio::runtime::Handle::try_current().is_ok() && !self.is_closing() {
            tokio::spawn(async move {
                let guard = entry.state.lock().await;
                if let Some(live) = guard.as_ref() {
                    GameRegistry::broadcast(&entry, live);
                }
            });
        }
    }

    /// The online games being played, newest first: the archive's lines
    /// with the players' ratings in the game's pool.
    pub async fn games_in_play(&self, limit: u32) -> Result<Vec<Value>, ApiError> {
        let games = self.storage.live_games(limit).await?;
        let mut ratings: HashMap<i64, Vec<crate::storage::PoolRating>> = HashMap::new();
        let mut out = Vec::with_capacity(games.len());
        for g in &games {
            let mut line = summary_json(g);
            let pool = rating::pool_of(g.game, &g.rules);
            for (i, side) in ["white_rating", "black_rating"].into_iter().enumerate() {
                let (Some(account), Some(pool)) = (g.seats[i].account, pool.as_deref()) else {
                    continue;
                };
                if let std::collections::hash_map::Entry::Vacant(e) = ratings.entry(account) {
                    e.insert(self.storage.account_ratings(account).await?);
                }
                if let Some(r) = ratings[&account].iter().find(|r| r.pool == pool) {
                    line[side] = json!({
                        "rating": r.rating.rating.round() as i64,
                        "provisional": r.rating.provisional(),
                    });
                }
            }
            out.push(line);
        }
        Ok(out)
    }

    /// Import a game record as an archived game.
    pub async fn import(&self, game: Option<Variant>, record: &str) -> Result<i64, ApiError> {
        let game = LiveGame::from_record(game, record)?;
        if game.last_move().is_none() {
            return Err(ApiError::BadRequest(
                "the record holds no moves; there is nothing to import".to_string(),
            ));
        }
        if game.ply() > MAX_GAME_PLIES {
            return Err(ApiError::BadRequest(format!(
                "the record holds {} moves; brett keeps games of at most {MAX_GAME_PLIES}",
                game.ply()
            )));
        }
        let tags = game.tags();
        let tag = |k: &str| {
            tags.iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        let seat = |k: &str| Seat {
            token_hash: None,
            name: import_name(tag(k)),
            joined: false,
            level: None,
            account: None,
        };
        let seats = [seat("White"), seat("Black")];
        let now = self.now_text();
        let id = self
            .storage
            .create_game(NewGame {
                game: game.game_type(),
                kind: Kind::Imported.name().to_string(),
                rules: game.rules_text(),
                start_position: game.start_position(),
                moves: game.stored_moves(),
                move_clocks: Vec::new(),
                meta: meta_of(&game, &now),
                seats,
                tags,
                created_at: now,
            })
            .await?;
        Ok(id)
    }

    /// The state of game `id`.
    pub async fn state(self: &Arc<Self>, id: i64) -> Result<GameState, ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        Ok(live.state(id))
    }

    /// Game `id` as it stands now.
    pub async fn game(self: &Arc<Self>, id: i64) -> Result<LiveGame, ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        Ok(live.game.clone())
    }

    /// The seat `token` holds in game `id` (`None`: none).
    pub async fn seat(self: &Arc<Self>, id: i64, token: &str) -> Result<Option<Color>, ApiError> {
        self.seat_as(id, Credentials::of_token(Some(token))).await
    }

    /// The seat `who` may act for in game `id` (`None`: none).
    pub async fn seat_as(
        self: &Arc<Self>,
        id: i64,
        who: Credentials<'_>,
    ) -> Result<Option<Color>, ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        Ok(live.seat_for(who).ok())
    }

    /// Who `who` is in game `id`'s chat (crate::chat).
    pub(crate) async fn chat_seat(
        self: &Arc<Self>,
        id: i64,
        who: Credentials<'_>,
    ) -> Result<crate::chat::ChatSeat, ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        let seat = live.seat_for(who).ok();
        let held = seat.map(|side| &live.seats[side.index()]);
        Ok(crate::chat::ChatSeat {
            online: live.kind == Kind::Online,
            seat,
            over: live.game.ending().is_some(),
            account: held.and_then(|s| s.account),
            name: held.and_then(|s| s.name.clone()),
        })
    }

    /// The entry of game `id` if it is in memory here.
    pub(crate) fn live_entry(&self, id: i64) -> Option<Arc<Entry>> {
        let map = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&id).and_then(Weak::upgrade)
    }

    /// Subscribe to game `id`: its entry (to keep it alive), a receiver of
    /// its changes and the state now (taken after subscribing, so no change
    /// is missed).
    pub async fn watch(
        self: &Arc<Self>,
        id: i64,
    ) -> Result<(Arc<Entry>, broadcast::Receiver<Utf8Bytes>, GameState), ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        let rx = entry.tx.subscribe();
        let state = live.state(id);
        drop(guard);
        Ok((entry, rx, state))
    }

    /// The state now of a watched game (after a socket fell behind).
    pub async fn current_state(
        self: &Arc<Self>,
        entry: &Arc<Entry>,
    ) -> Result<GameState, ApiError> {
        let mut guard = entry.state.lock().await;
        let live = self.load(entry, &mut guard).await?;
        Ok(live.state(entry.id))
    }

    /// Carry out `action` for the seat of `token` in game `id`: the one
    /// path of every change a player makes (docs/API.md). The action is
    /// checked in the order the API documents (token, both players there,
    /// then the action's own checks), made on a copy of the game, stored
    /// against the stored game's version, and only then taken over and
    /// broadcast.
    pub async fn apply(
        self: &Arc<Self>,
        id: i64,
        token: Option<&str>,
        action: Action,
    ) -> Result<(Color, GameState), ApiError> {
        self.apply_with_lag(id, token, action, 0).await
    }

    /// [`GameRegistry::apply`] for a move whose client measured `lag_ms`
    /// of network delay (credited to its clock up to
    /// [`clocks::LAG_CREDIT_CAP_MS`]).
    pub async fn apply_with_lag(
        self: &Arc<Self>,
        id: i64,
        token: Option<&str>,
        action: Action,
        lag_ms: u64,
    ) -> Result<(Color, GameState), ApiError> {
        self.apply_as(id, Credentials::of_token(token), action, lag_ms)
            .await
    }

    /// [`GameRegistry::apply_with_lag`] for the seat `who` may act for (its
    /// token's, else its account's). A join by an account takes the seat
    /// for the account, unless another account holds it.
    pub async fn apply_as(
        self: &Arc<Self>,
        id: i64,
        who: Credentials<'_>,
        action: Action,
        lag_ms: u64,
    ) -> Result<(Color, GameState), ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        if let Some(ply) = action.ply()
            && ply > live.game.ply() as u64
            && self.storage.cluster().is_some()
        {
            // Moves stored by another instance, not heard of yet.
            live.stale = true;
        }
        if matches!(action, Action::Claim { .. }) {
            // Who is connected elsewhere, as of now.
            self.read_presence(&entry).await;
        }
        let live = self.load(&entry, &mut guard).await?;
        let side = live.seat_for(who)?;
        let change = prepare(live, side, action, lag_ms)?;
        let state = match change {
            Change::Game(step) => self.commit(&entry, live, *step).await?,
            Change::Seat { name } => {
                if live.rated {
                    check_rated_join(live, side, who.account)?;
                }
                let account = who
                    .account
                    .filter(|_| live.seats[side.index()].account.is_none());
                self.commit_seat(&entry, live, side, name, account).await?
            }
        };
        Ok((side, state))
    }

    /// Store a seat's join (with its name) and take it over; then
    /// broadcast. Returns the new state.
    async fn commit_seat(
        self: &Arc<Self>,
        entry: &Arc<Entry>,
        live: &mut Live,
        side: Color,
        name: Option<String>,
        account: Option<i64>,
    ) -> Result<GameState, ApiError> {
        let now = self.now_text();
        // The clock starts when both players are there.
        let mut clock = live.clock;
        if let Some(c) = &mut clock
            && c.turn_started_at.is_none()
            && live.game.ending().is_none()
        {
            c.turn_started_at = Some(self.time.now_ms());
        }
        let stored = self
            .storage
            .update_seat(SeatChange {
                game: entry.id,
                version: live.stored_version,
                seat: side.index(),
                name: name.clone(),
                joined: true,
                account,
                updated_at: now.clone(),
                clock: clock.map(|c| c.to_meta(live.clock_view(&live.game))),
            })
            .await;
        live.take_stored(stored)?;
        let seat = &mut live.seats[side.index()];
        seat.name = name;
        seat.joined = true;
        if account.is_some() {
            seat.account = account;
        }
        live.clock = clock;
        live.updated_at = now;
        self.schedule(entry.id, live);
        let state = live.state(entry.id);
        Self::broadcast_state(entry, &state);
        Ok(state)
    }

    /// The game record of game `id` and the game it is of.
    pub async fn record(self: &Arc<Self>, id: i64) -> Result<(String, Variant), ApiError> {
        let entry = self.entry(id);
        let mut guard = entry.state.lock().await;
        let live = self.load(&entry, &mut guard).await?;
        let record = match live.record_clock() {
            Some((control, clocks)) => {
                live.game
                    .record_with_clock(&live.record_tags(), control, &clocks)
            }
            None => live.game.record(&live.record_tags()),
        };
        Ok((record, live.game.game_type()))
    }

    /// A page of the games `filter` lets through, newest first: the
    /// archive's lines; with `you` (`white`, `black`, or `both`) when the
    /// filter names an account.
    pub async fn games_list(
        &self,
        filter: GameFilter,
        limit: u32,
        offset: u32,
    ) -> Result<Value, ApiError> {
        let account = filter.account;
        let (games, total) = self.storage.find_games(filter, limit, offset).await?;
        let games: Vec<Value> = games
            .iter()
            .map(|g| {
                let mut line = summary_json(g);
                if let Some(account) = account {
                    let holds = |i: usize| g.seats[i].account == Some(account);
                    line["you"] = match (holds(0), holds(1)) {
                        (true, true) => json!("both"),
                        (true, false) => json!("white"),
                        (false, true) => json!("black"),
                        (false, false) => Value::Null,
                    };
                }
                line
            })
            .collect();
        Ok(json!({"games": games, "total": total}))
    }

    /// Now by the server's clock, as stored (RFC 3339): a game's times
    /// and the expiry of its invitation go by the same clock.
    fn now_text(&self) -> String {
        util::rfc3339(self.time.now_ms().div_euclid(1000))
    }

    /// End the online games whose invitation nobody answered in time
    /// ([`INVITATION_HOURS`], [`CORRESPONDENCE_INVITATION_DAYS`] by the
    /// server's clock): they are aborted, and leave the archive.
    pub async fn expire_invitations(self: &Arc<Self>) -> Result<usize, ApiError> {
        let now_s = self.time.now_ms() / 1000;
        let before = util::rfc3339(now_s - INVITATION_HOURS * 3600);
        let before_corr = util::rfc3339(now_s - CORRESPONDENCE_INVITATION_DAYS * 86_400);
        let ids = self
            .storage
            .unanswered_invitations(before, before_corr)
            .await?;
        let mut ended = 0;
        for id in ids {
            let entry = self.entry(id);
            let mut guard = entry.state.lock().await;
            let live = self.load(&entry, &mut guard).await?;
            let waiting = live.seats.iter().any(|s| !s.joined);
            if live.game.ending().is_some() || !waiting {
                continue;
            }
            let mut next = live.game.clone();
            next.abort()?;
            match self
                .commit(&entry, live, Step::new(next, MoveChange::Keep))
                .await
            {
                Ok(_) => ended += 1,
                // Another instance or the joining player came first.
                Err(e) => tracing::debug!(game = id, error = %e, "expiring an invitation"),
            }
        }
        Ok(ended)
    }

    /// Account `account` was deleted: its games, changed in storage, are
    /// read anew and sent to their sockets.
    pub async fn games_changed(self: &Arc<Self>, ids: &[i64]) {
        for &id in ids {
            self.refresh(id, false).await;
        }
    }

    /// Ids of ongoing computer games: on startup each is loaded, so the
    /// computer moves where it is its turn.
    pub async fn resume_computer_games(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.storage.ongoing_computer_games().await?;
        let mut resumed = 0;
        for id in ids {
            let entry = self.entry(id);
            let mut guard = entry.state.lock().await;
            match self.load(&entry, &mut guard).await {
                Ok(live) if live.thinking.is_some() => resumed += 1,
                Ok(_) => {}
                Err(e) => tracing::warn!(game = id, error = %e, "could not resume game"),
            }
        }
        Ok(resumed)
    }
}

fn summary_json(g: &GameSummary) -> Value {
    let name = |i: usize| match g.seats[i].level {
        Some(level) => Some(computer_name(level)),
        None => g.seats[i].name.clone(),
    };
    let mut line = json!({
        "id": g.id,
        "game": g.game.name(),
        "kind": g.kind,
        "rules": g.rules,
        "white": name(0),
        "black": name(1),
        "status": g.meta.status,
        "time_control": g.meta.clock.as_ref().map(|c| c.control.clone()),
        "result": g.meta.result,
        "reason": g.meta.reason,
        "ply": g.ply,
        "created_at": g.created_at,
        "updated_at": g.meta.updated_at,
    });
    if g.rated {
        line["rated"] = json!(true);
    }
    // Which names are accounts' (their profile pages): as the state's
    // `players.*.account`, written only when true.
    for (i, side) in ["white_account", "black_account"].into_iter().enumerate() {
        if g.seats[i].account.is_some() {
            line[side] = json!(true);
        }
    }
    line
}

/// A rated game must be an online game created by an account, by the
/// rules of a rating pool.
fn check_rated(req: &CreateGame) -> Result<(), ApiError> {
    if req.kind != Kind::Online {
        return Err(ApiError::BadRequest(
            "only online games are rated (not games against the computer or on one device)".into(),
        ));
    }
    if req.account.is_none() {
        return Err(ApiError::BadRequest(
            "only games between accounts are rated: log in to create a rated game".into(),
        ));
    }
    if rating::pool_of(req.game.game_type(), &req.game.rules_text()).is_none() {
        return Err(ApiError::BadRequest(format!(
            "rated games are played by a preset's rules as they are; '{}' is none",
            req.game.rules_text()
        )));
    }
    Ok(())
}

/// The invited player of a rated game joins it with an account, not the
/// creator's.
fn check_rated_join(live: &Live, side: Color, account: Option<i64>) -> Result<(), ApiError> {
    let Some(account) = account.or(live.seats[side.index()].account) else {
        return Err(ApiError::NotAllowed(
            "this game is rated: log in to an account to join it".into(),
        ));
    };
    if live.seats[side.other().index()].account == Some(account) {
        return Err(ApiError::NotAllowed(
            "this game is rated: you cannot play it against yourself".into(),
        ));
    }
    Ok(())
}

/// A seat's socket is open (crate::ws): dropped when it closes, which the
/// players are sent.
pub struct PresenceGuard {
    registry: Arc<GameRegistry>,
    entry: Arc<Entry>,
    side: Color,
}

impl PresenceGuard {
    /// The seat that is present.
    pub fn side(&self) -> Color {
        self.side
    }
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        let now = self.registry.time.now_ms();
        let sockets = self.entry.presence.disconnect(self.side, now);
        self.registry
            .tell_presence(self.entry.id, self.side, sockets);
        self.registry.rebroadcast(self.entry.clone());
    }
}

/// A spectator's socket is open (crate::ws): dropped when it closes or
/// becomes a seat's.
pub struct SpectatorGuard {
    registry: Arc<GameRegistry>,
    entry: Arc<Entry>,
}

impl Drop for SpectatorGuard {
    fn drop(&mut self) {
        let n = self.entry.presence.watching(false);
        self.registry.tell_sockets(self.entry.id, 2, n);
    }
}
