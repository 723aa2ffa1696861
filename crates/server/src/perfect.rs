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

/// A game's databases of one rule set, as the "Perfect play" page lists
/// them (`GET /api/perfect`).
#[derive(Clone, Debug)]
pub struct DbSet {
    /// The game and its rules.
    pub family: Family,
    /// The rule set's name (`standard`, `dame-fr`, …).
    pub rules: String,
}

/// The game of a [`DbSet`].
#[derive(Clone, Debug)]
pub enum Family {
    /// Mühle: one file per sector, `W-B` stones, 3 to 9 a side.
    Muehle(Variant),
    /// Dame: one file per material, up to a number of pieces.
    Dame(dame::RuleSet),
}

impl Family {
    /// `muehle` or `dame`.
    pub fn game(&self) -> &'static str {
        match self {
            Family::Muehle(_) => "muehle",
            Family::Dame(_) => "dame",
        }
    }
}

/// A figure measured on the project's 2-core machine (docs/RESULTS.md,
/// "Databases"): a build from nothing of a rule set up to a size.
struct Measured {
    rules: &'static str,
    size: u32,
    seconds: f64,
    bytes: u64,
    memory: Option<u64>,
    date: &'static str,
}

const MEASURED: [Measured; 8] = [
    Measured {
        rules: "standard",
        size: 6,
        seconds: 88.9,
        bytes: 68_900_000,
        memory: Some(1_180_000_000),
        date: "2026-11-23",
    },
    Measured {
        rules: "standard",
        size: 9,
        seconds: 5_700.7,
        bytes: 2_967_894_381,
        memory: Some(8_600_000_000),
        date: "2026-11-25",
    },
    Measured {
        rules: "dame",
        size: 5,
        seconds: 103.4,
        bytes: 49_700_000,
        memory: None,
        date: "2026-11-26",
    },
    Measured {
        rules: "dame",
        size: 6,
        seconds: 2_006.4,
        bytes: 1_042_200_000,
        memory: None,
        date: "2026-11-27",
    },
    Measured {
        rules: "dame-fr",
        size: 5,
        seconds: 211.0,
        bytes: 52_000_000,
        memory: Some(500_000_000),
        date: "2026-11-24",
    },
    Measured {
        rules: "dame-100",
        size: 4,
        seconds: 49.0,
        bytes: 10_300_000,
        memory: Some(200_000_000),
        date: "2026-11-24",
    },
    Measured {
        rules: "dame-100",
        size: 5,
        seconds: 862.0,
        bytes: 488_500_000,
        memory: None,
        date: "2026-11-26",
    },
    Measured {
        rules: "international",
        size: 5,
        seconds: 792.0,
        bytes: 346_500_000,
        memory: None,
        date: "2026-11-26",
    },
];

/// Every rule set that has databases: Mühle's four variants, then the
/// Dame presets.
pub fn sets() -> Vec<DbSet> {
    let mut out = Vec::new();
    for flying in [true, false] {
        for removal in [
            muehle::RemovalRule::UnlessAllInMills,
            muehle::RemovalRule::Never,
        ] {
            let v = Variant { removal, flying };
            out.push(DbSet {
                family: Family::Muehle(v),
                rules: v.name().to_string(),
            });
        }
    }
    for name in ["dame", "dame-fr", "dame-100", "international"] {
        if let Some(r) = dame::RuleSet::preset(name) {
            out.push(DbSet {
                family: Family::Dame(r),
                rules: name.to_string(),
            });
        }
    }
    out
}

/// The set of `game` (`muehle`, `dame`) and `rules`, if it has databases.
pub fn find_set(game: &str, rules: &str) -> Option<DbSet> {
    sets()
        .into_iter()
        .find(|s| s.family.game() == game && s.rules == rules)
}

/// Positions (indices, all counter layers) of a Dame table.
pub fn dame_positions(rules: &dame::RuleSet, m: tablebase::dame::Material) -> u64 {
    tablebase::dame::Layout::new(rules.board, m).size() * tablebase::dame::layers(rules, m) as u64
}

fn sector_positions(s: Sector) -> u64 {
    tablebase::SectorIndex::new(u32::from(s.mover), u32::from(s.other)).size()
}

/// One file of a set: its name, path and positions.
struct DbFile {
    path: std::path::PathBuf,
    positions: u64,
}

impl DbSet {
    /// The sizes a build can go up to (stones a side, pieces).
    pub fn sizes(&self) -> std::ops::RangeInclusive<u32> {
        match &self.family {
            Family::Muehle(_) => 3..=9,
            Family::Dame(r) if r.board == dame::BoardSize::Eight => 2..=6,
            Family::Dame(_) => 2..=5,
        }
    }

    /// The size a player is offered first: the whole set for Mühle, what
    /// `brett tablebase build` builds for Dame.
    fn default_size(&self) -> u32 {
        match &self.family {
            Family::Muehle(_) => 9,
            Family::Dame(r) if r.board == dame::BoardSize::Eight => 5,
            Family::Dame(_) => 4,
        }
    }

    /// Positions solved a second (docs/RESULTS.md).
    pub fn speed(&self) -> f64 {
        match &self.family {
            Family::Muehle(_) => 1.56e6,
            Family::Dame(r) if r.board == dame::BoardSize::Eight => 1.27e6,
            Family::Dame(_) => 1.9e6,
        }
    }

    /// Bytes on disk a position (docs/RESULTS.md).
    fn bytes_per_position(&self) -> f64 {
        match self.rules.as_str() {
            "international" => 0.215,
            "dame-100" => 0.303,
            "dame" | "dame-fr" => 0.405,
            _ => 0.3333,
        }
    }

    fn files(&self, dir: &std::path::Path, size: u32) -> Vec<DbFile> {
        match &self.family {
            Family::Muehle(v) => Sector::all_up_to(size as u8)
                .into_iter()
                .map(|s| DbFile {
                    path: tablebase::sector_path(dir, *v, s),
                    positions: sector_positions(s),
                })
                .collect(),
            Family::Dame(r) => tablebase::dame::Material::all_up_to(size)
                .into_iter()
                .map(|m| DbFile {
                    path: tablebase::dame::dame_path(dir, r, m),
                    positions: dame_positions(r, m),
                })
                .collect(),
        }
    }

    /// The peak memory of a build up to `size`, estimated: Mühle 5 bytes a
    /// position of the largest group and 2 of the sectors its removals
    /// lead to; Dame 2 bytes a position of every table (kept while the
    /// build runs) and 6 of the largest.
    fn memory(&self, size: u32) -> u64 {
        match &self.family {
            Family::Muehle(_) => Sector::all_up_to(size as u8)
                .into_iter()
                .map(|s| {
                    let group: u64 = s.group().into_iter().map(sector_positions).sum();
                    let needs: u64 = s.needs().into_iter().map(sector_positions).sum();
                    5 * group + 2 * needs
                })
                .max()
                .unwrap_or(0),
            Family::Dame(r) => {
                let all: Vec<u64> = tablebase::dame::Material::all_up_to(size)
                    .into_iter()
                    .map(|m| dame_positions(r, m))
                    .collect();
                2 * all.iter().sum::<u64>() + 6 * all.iter().max().copied().unwrap_or(0)
            }
        }
    }

    /// What a build up to `size` into `dir` has to do; `None` for a size
    /// the set does not have.
    pub(crate) fn plan(
        &self,
        dir: &std::path::Path,
        size: u32,
    ) -> Option<crate::perfect_build::Plan> {
        if !self.sizes().contains(&size) {
            return None;
        }
        let files = self.files(dir, size);
        let missing: Vec<&DbFile> = files.iter().filter(|f| !f.path.is_file()).collect();
        let positions_missing: u64 = missing.iter().map(|f| f.positions).sum();
        Some(crate::perfect_build::Plan {
            files_total: files.len(),
            files_found: files.len() - missing.len(),
            positions_missing,
            bytes_missing: (positions_missing as f64 * self.bytes_per_position()) as u64,
            memory: self.memory(size),
        })
    }

    /// The files of the set in `dir` (any size) and their bytes.
    fn installed(&self, dir: &std::path::Path) -> (usize, u64) {
        let (folder, prefix, suffix) = match &self.family {
            Family::Muehle(v) => (dir.join(v.name()), String::new(), ".tb"),
            Family::Dame(r) => (
                dir.to_path_buf(),
                format!("dame-{}-", tablebase::dame::rules_tag(r)),
                ".dtb",
            ),
        };
        let Ok(entries) = std::fs::read_dir(folder) else {
            return (0, 0);
        };
        entries
            .flatten()
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with(&prefix) && name.ends_with(suffix)
            })
            .filter_map(|e| e.metadata().ok().filter(|m| m.is_file()))
            .fold((0, 0), |(n, b), m| (n + 1, b + m.len()))
    }

    /// The set as `GET /api/perfect` lists it.
    fn json(&self, dir: Option<&std::path::Path>) -> Json {
        let (installed_files, installed_bytes) = dir.map_or((0, 0), |d| self.installed(d));
        let fallback = std::path::PathBuf::new();
        let d = dir.unwrap_or(&fallback);
        let sizes: Vec<Json> = self
            .sizes()
            .map(|size| {
                let files = self.files(d, size);
                let positions: u64 = files.iter().map(|f| f.positions).sum();
                let present = if dir.is_some() {
                    files.iter().filter(|f| f.path.is_file()).count()
                } else {
                    0
                };
                let bytes_on_disk: u64 = if dir.is_some() {
                    files
                        .iter()
                        .filter_map(|f| std::fs::metadata(&f.path).ok())
                        .map(|m| m.len())
                        .sum()
                } else {
                    0
                };
                let measured = MEASURED
                    .iter()
                    .find(|m| m.rules == self.rules && m.size == size)
                    .map(|m| {
                        json!({"seconds": m.seconds, "bytes": m.bytes, "memory": m.memory, "date": m.date})
                    });
                json!({
                    "size": size,
                    "files": files.len(),
                    "installed": present,
                    "bytes_on_disk": bytes_on_disk,
                    "positions": positions,
                    "estimate": {
                        "seconds": (positions as f64 / self.speed()).round(),
                        "bytes": (positions as f64 * self.bytes_per_position()) as u64,
                        "memory": self.memory(size),
                    },
                    "measured": measured,
                })
            })
            .collect();
        let last = sizes.last().cloned().unwrap_or(Json::Null);
        json!({
            "game": self.family.game(),
            "rules": self.rules,
            "unit": match self.family { Family::Muehle(_) => "stones", Family::Dame(_) => "pieces" },
            "installed_files": installed_files,
            "installed_bytes": installed_bytes,
            "complete": last["files"] == last["installed"],
            "default_size": self.default_size(),
            "sizes": sizes,
        })
    }
}

/// `GET /api/perfect`: every rule set with databases, what of it is
/// installed (files, bytes on disk), what each size of a build costs, and
/// the build running. Blocking (reads the folder).
pub fn overview(builds: &crate::perfect_build::Builds, may_build: bool) -> Json {
    let dir = crate::perfect_build::database_dir();
    // The build's state is read before the folder: a build that finishes
    // while the folder is read is then still shown running, never "done"
    // beside a listing without its last files.
    let build = builds.status();
    let sets: Vec<Json> = sets().iter().map(|s| s.json(dir.as_deref())).collect();
    json!({
        "enabled": dir.is_some(),
        "dir": dir.as_ref().map(|d| d.display().to_string()),
        "may_build": may_build && dir.is_some(),
        "build": build,
        "sets": sets,
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
