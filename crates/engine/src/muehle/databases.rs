//! Mühle's perfect-play databases in play: where they are, and what the
//! search asks of them.
//!
//! The app and the command line [`install`] a folder once; every Mühle
//! search at level 10 (and every analysis) then scores positions of the
//! moving phase exactly ([`search::Game::probe`]) and, when the root is in
//! the databases, plays from them ([`search::Game::probe_moves`]):
//!
//! - a won position is won by the fastest line;
//! - in a drawn or lost position, among the moves that keep the value (for a
//!   loss: every move), the move is preferred that leaves the opponent the
//!   largest share of replies that are mistakes (a reply that gives away
//!   the opponent's value: a win thrown to a draw or loss, a draw thrown to
//!   a loss) — the idea of Malom's "ultra-strong" play: perfect against
//!   perfect play, and the most chances against a fallible opponent. Ties
//!   go to the longer loss, then to the order of the moves.
//!
//! Values the no-mill counter could change (a win or loss longer than the
//! plies left before the no-mill draw) are not used: the search decides.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, Ordering};

use muehle::{Color, Move, Position, RemovalRule, RuleSet};
use search::Exact;
use tablebase::dame::DameTablebase;
use tablebase::{Tablebase, Value, Variant};

/// The databases of one folder, one [`Tablebase`] per variant, and the
/// Dame endgame databases of the same folder.
pub struct Databases {
    dir: PathBuf,
    tables: [Tablebase; 4],
    dame: DameTablebase,
}

static INSTALLED: AtomicPtr<Databases> = AtomicPtr::new(std::ptr::null_mut());

fn slot(v: Variant) -> usize {
    usize::from(v.flying) * 2 + usize::from(v.removal == RemovalRule::Never)
}

/// Use the databases in `dir` from now on (`None`: use none). Files are
/// opened on first use; sectors built later are picked up.
pub fn install(dir: Option<&Path>) {
    let new = match dir {
        None => std::ptr::null_mut(),
        Some(d) => {
            let tables = [false, true].map(|flying| {
                [RemovalRule::UnlessAllInMills, RemovalRule::Never]
                    .map(|removal| Tablebase::new(d, Variant { removal, flying }))
            });
            let [[a, b], [c, e]] = tables;
            Box::into_raw(Box::new(Databases {
                dir: d.to_path_buf(),
                tables: [a, b, c, e],
                dame: DameTablebase::new(d),
            }))
        }
    };
    // The old set is left in place (not freed): searches running now may
    // still hold it. Installing happens once or twice per process.
    INSTALLED.store(new, Ordering::Release);
}

/// The sectors the placing phase ends in most often: 15 stones or more.
pub const WARM_STONES: u8 = 15;

/// Read the installed databases' sectors that end the placing phase
/// ([`WARM_STONES`]) into the win/draw/loss cache on a thread of its own, so
/// that the placing solver ([`crate::muehle::placing`]) finds its values in memory
/// (about 1.3 GB for the standard rules; bounded by
/// [`tablebase::set_wdl_cache_limit`]).
pub fn warm_in_background() {
    let Some(d) = installed() else {
        return;
    };
    static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    *WARMING.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
    let spawned = std::thread::Builder::new()
        .name("tablebase-warm".into())
        .spawn(move || {
            for tb in &d.tables {
                tb.warm_wdl(WARM_STONES, &STOP);
            }
            *WARMING.0.lock().unwrap_or_else(|e| e.into_inner()) = false;
            WARMING.1.notify_all();
        });
    if spawned.is_err() {
        *WARMING.0.lock().unwrap_or_else(|e| e.into_inner()) = false;
    }
}

/// Whether a warm-up ([`warm_in_background`]) is running, and its signal.
static WARMING: (std::sync::Mutex<bool>, std::sync::Condvar) =
    (std::sync::Mutex::new(false), std::sync::Condvar::new());

/// Wait until a warm-up started by [`warm_in_background`] has ended (at once
/// when none runs): `brett match` before its first game, the engine
/// protocol's `isready`.
pub fn wait_warm() {
    let mut warming = WARMING.0.lock().unwrap_or_else(|e| e.into_inner());
    while *warming {
        warming = WARMING.1.wait(warming).unwrap_or_else(|e| e.into_inner());
    }
}

/// The installed databases, if any.
pub fn installed() -> Option<&'static Databases> {
    let p = INSTALLED.load(Ordering::Acquire);
    // SAFETY: a non-null pointer comes from `Box::into_raw` in `install` and
    // is never freed, so it is valid for the rest of the process.
    unsafe { p.as_ref() }
}

impl Databases {
    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The databases for a rule set.
    pub fn for_rules(&self, rules: &RuleSet) -> &Tablebase {
        &self.tables[slot(Variant::of(rules))]
    }

    /// The Dame endgame databases of the folder.
    pub fn dame(&self) -> &DameTablebase {
        &self.dame
    }
}

/// The tablebase for `rules` if databases are installed.
pub fn for_rules(rules: &RuleSet) -> Option<&'static Tablebase> {
    installed().map(|d| d.for_rules(rules))
}

/// The value from the databases as the search's exact value, if the
/// no-mill counter cannot change it.
pub fn exact(pos: &Position, v: Value) -> Option<Exact> {
    let left = pos
        .rules()
        .no_mill_draw
        .map(|limit| u32::from(limit.saturating_sub(pos.plies_since_mill())));
    crate::exact_within(v, left)
}

/// The exact value of a position of the moving phase, if the databases
/// hold it.
pub fn probe(pos: &Position) -> Option<Exact> {
    if pos.in_hand(Color::White) > 0 || pos.in_hand(Color::Black) > 0 {
        return None;
    }
    let v = for_rules(pos.rules())?.probe_value(pos)?;
    exact(pos, v)
}

/// The exact value of `pos` for the side to move from `tb`: probed once
/// placing has ended, else found by a search through at most `plies`
/// remaining placements down to the databases (`None` when they do not
/// reach). For labelling positions (`brett tune --make-labels`, the
/// blockade suite), not for play.
pub fn exact_value(tb: &Tablebase, pos: &Position, plies: u32) -> Option<Value> {
    if let Some(o) = pos.outcome() {
        return Some(if o.winner.is_none() {
            Value::Draw
        } else {
            Value::Loss(0)
        });
    }
    if pos.in_hand(Color::White) == 0 && pos.in_hand(Color::Black) == 0 {
        return tb.probe_value(pos);
    }
    if plies == 0 {
        return None;
    }
    let mut best: Option<Value> = None;
    for m in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(m);
        let v = exact_value(tb, &child, plies - 1)?.back();
        if best.is_none_or(|b| v.rank() > b.rank()) {
            best = Some(v);
        }
    }
    best
}

/// Every legal move with its value, and the preference of the rule above
/// (per mille of the opponent's replies that are mistakes), if the
/// databases hold the position and all its moves.
pub fn probe_moves(pos: &Position) -> Option<Vec<(Move, Exact, i32)>> {
    if pos.in_hand(Color::White) > 0 || pos.in_hand(Color::Black) > 0 {
        return None;
    }
    let tb = for_rules(pos.rules())?;
    tb.probe_value(pos)?;
    let list = tb.probe_moves(pos).ok()??;
    let mut out = Vec::with_capacity(list.len());
    for (m, v) in list {
        let e = exact(pos, v)?;
        let pref = match v {
            Value::Win(_) => 0,
            _ => {
                let mut child = *pos;
                child.play_unchecked(m);
                mistakes_per_mille(tb, &child).unwrap_or(0)
            }
        };
        out.push((m, e, pref));
    }
    Some(out)
}

/// Of the replies in `pos` (the opponent to move), the share in per mille
/// that give away the opponent's value.
fn mistakes_per_mille(tb: &Tablebase, pos: &Position) -> Option<i32> {
    let replies = tb.probe_moves(pos).ok()??;
    let best = replies.first()?.1;
    let wrong = replies.iter().filter(|(_, v)| !v.same_result(best)).count();
    Some((wrong * 1000 / replies.len()) as i32)
}

/// The value in words for `mover` to move: "White wins in 23 plies
/// (database)", "Black wins in 4 plies (database)", "draw (database)".
pub fn verdict(mover: Color, v: Value) -> String {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let plies = |n: u16| {
        if n == 1 {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    match v {
        Value::Win(n) => format!("{} wins in {} (database)", name(mover), plies(n)),
        Value::Loss(n) => format!("{} wins in {} (database)", name(mover.other()), plies(n)),
        Value::Draw => "draw (database)".to_string(),
    }
}

/// A move that changed the game's value, found by the databases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueChange {
    /// The ply of the move (0 = the first move of the record).
    pub ply: usize,
    /// Who moved.
    pub mover: Color,
    /// The value for the mover before the move.
    pub before: Value,
    /// The value for the mover after the move.
    pub after: Value,
}

/// The moves of a game whose value the databases know before and after,
/// and that turned a win into a draw or loss, or a draw into a loss, for the
/// player who made them (`positions[i]` is the position before move `i`,
/// `positions[i + 1]` after it).
pub fn value_changes(positions: &[Position]) -> Vec<ValueChange> {
    let value = |p: &Position| -> Option<Value> {
        if p.in_hand(Color::White) > 0 || p.in_hand(Color::Black) > 0 {
            return None;
        }
        if p.material(p.turn()) < 3 || p.is_blocked() {
            return Some(Value::Loss(0));
        }
        for_rules(p.rules())?.probe_value(p)
    };
    let mut out = Vec::new();
    for (ply, pair) in positions.windows(2).enumerate() {
        let (Some(before), Some(after)) = (value(&pair[0]), value(&pair[1])) else {
            continue;
        };
        let after = after.back();
        let worse = match before {
            Value::Win(_) => !matches!(after, Value::Win(_)),
            Value::Draw => matches!(after, Value::Loss(_)),
            Value::Loss(_) => false,
        };
        if worse {
            out.push(ValueChange {
                ply,
                mover: pair[0].turn(),
                before,
                after,
            });
        }
    }
    out
}
