//! Mühle's perfect-play databases in the app (docs/API.md): whether they are
//! installed for a game's rules, the exact value of an analysed position
//! and of each of its moves, and the moves of a game that changed its
//! value (blunders the databases find).
//!
//! The databases are the process's ([`engine::muehle::databases::install`]: the
//! `brett` binary installs its data folder, or `--tablebase-dir`). Sectors
//! built while the server runs are found: the list of sectors is read from
//! the folder on every request, and a missing file is looked for again
//! after a few seconds.

use engine::muehle::databases;
use muehle::{Color, Position, RuleSet};
use serde_json::{Value as Json, json};
use tablebase::{Sector, Value, Variant};

use crate::game::LiveGame;

/// How many sectors the databases of one rule variant have (3 to 9 stones
/// a side, 3-3 … 9-9).
pub const ALL_SECTORS: usize = 49;

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A value as JSON fields: `value` (`win 23`, `draw`, `loss 4`), `result`
/// (`win`, `draw`, `loss`) and `plies` (to the end; 0 for a draw).
pub fn value_fields(v: Value) -> serde_json::Map<String, Json> {
    let (result, plies) = match v {
        Value::Win(n) => ("win", n),
        Value::Draw => ("draw", 0),
        Value::Loss(n) => ("loss", n),
    };
    let mut m = serde_json::Map::new();
    m.insert("value".into(), json!(v.to_string()));
    m.insert("result".into(), json!(result));
    m.insert("plies".into(), json!(plies));
    m
}

/// Quote a path for a shell command line when it needs it.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=@,".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `GET /api/tablebase`: whether the databases of `rules` are installed,
/// which sectors, and the command that builds them.
pub fn status(rules: &RuleSet) -> Json {
    let Some(variant) = Variant::for_rules(rules) else {
        return json!({
            "rules": rules.to_string(),
            "available": false,
            "enabled": false,
            "sectors": [],
            "missing": [],
            "total": ALL_SECTORS,
            "complete": false,
            "reason": "the databases hold the standard board with nine stones a side; they are not available for this variant",
        });
    };
    let installed = databases::installed();
    let sectors: Vec<Sector> = installed
        .map(|d| d.for_rules(rules).installed())
        .unwrap_or_default();
    let missing: Vec<String> = Sector::all_up_to(9)
        .into_iter()
        .filter(|s| !sectors.contains(s))
        .map(|s| s.to_string())
        .collect();
    let default_dir = tablebase::default_dir();
    let dir = installed.map(|d| d.dir().to_path_buf());
    let mut command = format!("brett tablebase build --rules {}", variant.rules());
    if let Some(d) = &dir
        && *d != default_dir
    {
        command.push_str(" --dir ");
        command.push_str(&shell_word(&d.display().to_string()));
    }
    json!({
        "rules": rules.to_string(),
        "available": true,
        "variant": variant.name(),
        "enabled": installed.is_some(),
        "dir": dir.map(|d| d.display().to_string()),
        "sectors": sectors.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        "missing": missing,
        "total": ALL_SECTORS,
        "complete": installed.is_some() && sectors.len() == ALL_SECTORS,
        "build_command": command,
    })
}

/// The `database` field of an analysis (`POST /api/analyze`): the value of
/// the position for the side to move and every legal move with its value
/// (for the side to move, best first), when the databases hold the
/// position; `None` otherwise (stones in hand, sector not built, Dame, no
/// databases, game over). Blocking: the first probe of a sector opens and
/// checks its file.
pub fn analysis(game: &LiveGame) -> Option<Json> {
    let g = game.as_muehle()?;
    if g.is_over() {
        return None;
    }
    let pos = g.position();
    let tb = databases::for_rules(pos.rules())?;
    let value = tb.probe(pos).ok()??;
    let moves = tb.probe_moves(pos).ok()??;
    let mut out = value_fields(value);
    out.insert("turn".into(), json!(color_name(pos.turn())));
    out.insert(
        "exact".into(),
        json!(databases::exact(pos, value).is_some()),
    );
    out.insert(
        "moves".into(),
        Json::Array(
            moves
                .into_iter()
                .map(|(m, v)| {
                    let mut o = serde_json::Map::new();
                    o.insert("move".into(), json!(m.to_string()));
                    o.extend(value_fields(v));
                    Json::Object(o)
                })
                .collect(),
        ),
    );
    Some(Json::Object(out))
}

/// Whether the databases know the value of `p` (the way
/// [`databases::value_changes`] asks).
fn known(p: &Position) -> bool {
    if p.in_hand(Color::White) > 0 || p.in_hand(Color::Black) > 0 {
        return false;
    }
    if p.material(p.turn()) < 3 || p.is_blocked() {
        return true;
    }
    databases::for_rules(p.rules()).is_some_and(|tb| matches!(tb.probe(p), Ok(Some(_))))
}

/// `GET /api/games/{id}/review`: the moves that threw away a win or a draw,
/// by the databases. Blocking (probes).
pub fn review(game: &LiveGame) -> Json {
    let Some(g) = game.as_muehle() else {
        return json!({"database": false, "judged": 0, "changes": []});
    };
    let status = status(g.rules());
    let database = status["sectors"].as_array().is_some_and(|s| !s.is_empty());
    let positions: Vec<Position> = (0..=g.ply())
        .filter_map(|i| g.position_at(i).copied())
        .collect();
    let (changes, judged) = if database {
        let known: Vec<bool> = positions.iter().map(known).collect();
        let judged = known.windows(2).filter(|w| w[0] && w[1]).count();
        (databases::value_changes(&positions), judged)
    } else {
        (Vec::new(), 0)
    };
    let changes: Vec<Json> = changes
        .iter()
        .map(|c| {
            let field = |v: Value| Json::Object(value_fields(v));
            json!({
                "ply": c.ply,
                "move": g.moves().get(c.ply).map(|m| m.to_string()),
                "mover": color_name(c.mover),
                "before": c.before.to_string(),
                "after": c.after.to_string(),
                "before_value": field(c.before),
                "after_value": field(c.after),
            })
        })
        .collect();
    json!({
        "database": database,
        "judged": judged,
        "changes": changes,
        "tablebase": status,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        let f = value_fields(Value::Win(23));
        assert_eq!(f["value"], "win 23");
        assert_eq!(f["result"], "win");
        assert_eq!(f["plies"], 23);
        let f = value_fields(Value::Draw);
        assert_eq!(f["value"], "draw");
        assert_eq!(f["plies"], 0);
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_word("/tmp/tb"), "/tmp/tb");
        assert_eq!(shell_word("/tmp/my tb"), "'/tmp/my tb'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }
}
