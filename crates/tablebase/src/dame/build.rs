//! Solving Dame tables.
//!
//! Tables are built in pairs (a material and its mirror: the same pieces
//! with the other side to move), in an order where every capture and
//! promotion leads to a table built before ([`Material::closure`]).
//!
//! - A material outside the counted endings is solved by retrograde
//!   analysis. One pass over all positions plays every move with the rules
//!   crate's move generator: moves that capture or crown lead to finished
//!   tables (their best value is kept), the others (a king's slide, a
//!   man's step) stay in the pair and are counted. Then, level by level
//!   (distance 0, 1, …), the positions settled at that distance take back
//!   the quiet moves that led to them (the predecessors are in the partner
//!   table): a predecessor of a loss is a win one ply longer, a
//!   predecessor all of whose quiet moves lead to wins is a loss (at least
//!   as long as its best capture or promotion). A position with a capture
//!   has only captures, so it is settled by the first pass and never
//!   reached by taking a move back: every quiet move taken back is legal.
//!   What is left unsettled is a draw.
//! - A counted ending (FMJD's 16- and 5-move rules) has no cycles once
//!   the ending counter is part of the position: every move raises the
//!   counter (or leaves the ending). Its table is solved layer by layer,
//!   from the counter at the limit (a draw unless the side to move is
//!   blocked) down to 0, each position from its moves.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use dame::{Position, RuleSet};
use rayon::prelude::*;

use super::file::{DameStats, write_table};
use super::{
    DameFile, Geometry, Layout, Material, NO, dame_path, layers, locate_groups, position_of_groups,
};
use crate::value::{DRAW, NONE, UNKNOWN};
use crate::{TablebaseError, Value};

/// What the builder did with one table.
#[derive(Clone, Debug)]
pub struct TableReport {
    /// The table.
    pub material: Material,
    /// Its statistics.
    pub stats: DameStats,
    /// Bytes of its file.
    pub bytes: u64,
    /// Seconds spent on its pair (0 when skipped).
    pub seconds: f64,
    /// Whether the file was there already (not built again).
    pub skipped: bool,
}

/// The whole build.
#[derive(Clone, Debug, Default)]
pub struct DameBuildReport {
    /// Every table of the closure, in build order.
    pub tables: Vec<TableReport>,
    /// Seconds in all.
    pub seconds: f64,
}

/// Progress of a build.
#[derive(Clone, Debug)]
pub enum DameBuildEvent<'a> {
    /// A pair is being solved (its tables, their indices).
    Solving(&'a [Material], u64),
    /// A table is done (or found).
    Done(&'a TableReport),
}

/// A finished table in memory.
pub(crate) struct Table {
    pub(crate) layout: Layout,
    pub(crate) layers: usize,
    pub(crate) codes: Vec<u16>,
}

type Tables = HashMap<Material, Table>;

/// The value of `pos` from finished tables (a side without pieces has
/// lost). `None` if its table is not there.
fn value_in(tables: &Tables, pos: &Position) -> Option<Value> {
    let Some((m, g)) = locate_groups(pos) else {
        return Some(Value::Loss(0));
    };
    let t = tables.get(&m)?;
    let e = usize::from(pos.ending_plies()).min(t.layers - 1);
    let c = t.codes[t.layout.index(g) as usize * t.layers + e];
    (c != NONE && c != UNKNOWN).then(|| Value::from_code(c))
}

fn better(a: Option<Value>, b: Value) -> Option<Value> {
    match a {
        Some(a) if a.rank() >= b.rank() => Some(a),
        _ => Some(b),
    }
}

/// Build (or find) every table the targets need, under `rules`, in `dir`.
/// Finished files are kept, so an interrupted build resumes.
pub fn build_dame(
    dir: &Path,
    rules: &RuleSet,
    targets: &[Material],
    progress: &mut dyn FnMut(DameBuildEvent<'_>),
) -> Result<DameBuildReport, TablebaseError> {
    if !super::covered(rules) {
        return Err(TablebaseError::NotCovered(
            "the Dame databases do not cover huffing (a skipped capture changes every value)"
                .to_string(),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| TablebaseError::Io {
        path: dir.to_path_buf(),
        source: e,
    })?;
    let start = Instant::now();
    let mut report = DameBuildReport::default();
    // Only the tables the pair being solved leads to are held; the others
    // are on disk, read back when a later pair needs them.
    let mut tables: Tables = HashMap::new();
    for pair in pairs_in_order(targets) {
        // Resume: a pair whose files all open is done.
        let found: Option<Vec<(Material, DameFile)>> = pair
            .iter()
            .map(|&x| {
                DameFile::open(&dame_path(dir, rules, x), rules, x)
                    .ok()
                    .map(|f| (x, f))
            })
            .collect();
        if let Some(files) = found {
            for (x, f) in files {
                let r = TableReport {
                    material: x,
                    stats: f.stats(),
                    bytes: f.bytes(),
                    seconds: 0.0,
                    skipped: true,
                };
                progress(DameBuildEvent::Done(&r));
                report.tables.push(r);
            }
            continue;
        }
        let needs = needs_of(&pair);
        tables.retain(|m, _| needs.contains(m));
        for &x in &needs {
            if let std::collections::hash_map::Entry::Vacant(slot) = tables.entry(x) {
                let f = DameFile::open(&dame_path(dir, rules, x), rules, x)?;
                slot.insert(Table {
                    layout: Layout::new(rules.board, x),
                    layers: f.layers(),
                    codes: f.raw_codes()?,
                });
            }
        }
        let t0 = Instant::now();
        let size: u64 = pair
            .iter()
            .map(|&x| Layout::new(rules.board, x).size())
            .sum();
        progress(DameBuildEvent::Solving(&pair, size));
        let solved = if layers(rules, pair[0]) > 1 {
            solve_layered(rules, &pair, &tables)?
        } else {
            solve_retrograde(rules, &pair, &tables)?
        };
        let seconds = t0.elapsed().as_secs_f64();
        for (x, codes) in pair.iter().copied().zip(solved) {
            let nl = layers(rules, x);
            let stats = DameStats::count(&codes, nl);
            let bytes = write_table(&dame_path(dir, rules, x), rules, x, &codes, &stats)?;
            let r = TableReport {
                material: x,
                stats,
                bytes,
                seconds,
                skipped: false,
            };
            progress(DameBuildEvent::Done(&r));
            report.tables.push(r);
            // Kept while the next pairs may need it (read back otherwise).
            tables.insert(
                x,
                Table {
                    layout: Layout::new(rules.board, x),
                    layers: nl,
                    codes,
                },
            );
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// One table of a [`DamePlan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedTable {
    /// The table.
    pub material: Material,
    /// Its indices (positions and unused numbers).
    pub indices: u64,
    /// Its value layers (the ending counter of FMJD's counted endings).
    pub layers: usize,
}

/// What [`build_dame`] needs for some targets: every table in build
/// order, and the memory it holds at its peak. While it solves a pair the
/// builder holds the finished tables the pair's captures and promotions
/// lead to (2 bytes an index and layer); the others stay on disk, read
/// back when a later pair needs them. A pair solved by retrograde analysis
/// takes 3 bytes an index besides (the value, or what the exits are worth
/// while it is not settled, and a move count) and the positions of one
/// block of 4 M indices settled at the distance being taken back. A
/// counted ending's pair takes 2 bytes an index and layer and 1 besides,
/// and 6 an index of one table while a layer is solved. A tenth is added
/// for the allocator and the file writer. The model was checked against
/// the resident memory of builds (docs/TABLEBASE.md).
#[derive(Clone, Debug, Default)]
pub struct DamePlan {
    /// Every table of the closure of the targets, in build order.
    pub tables: Vec<PlannedTable>,
    /// The most bytes the build holds at once.
    pub peak_bytes: u64,
    /// The pair solved at that moment (its first table).
    pub peak_at: Option<Material>,
}

impl DamePlan {
    /// The indices of all tables.
    pub fn indices(&self) -> u64 {
        self.tables.iter().map(|t| t.indices).sum()
    }

    /// The largest table.
    pub fn largest(&self) -> Option<PlannedTable> {
        self.tables.iter().copied().max_by_key(|t| t.indices)
    }
}

/// The plan of building `targets` under `rules` (nothing is built or
/// read).
pub fn plan_dame(rules: &RuleSet, targets: &[Material]) -> DamePlan {
    let mut plan = DamePlan::default();
    let bytes_of = |x: Material| Layout::new(rules.board, x).size() * layers(rules, x) as u64 * 2;
    for pair in pairs_in_order(targets) {
        let nl = layers(rules, pair[0]) as u64;
        let sizes: Vec<u64> = pair
            .iter()
            .map(|&x| Layout::new(rules.board, x).size())
            .collect();
        let all: u64 = sizes.iter().sum();
        let largest = sizes.iter().copied().max().unwrap_or(0);
        let working = if nl > 1 {
            all * (2 * nl + 1) + largest * 6
        } else {
            all * 3 + SCAN_BLOCK as u64 * 4
        };
        let held: u64 = needs_of(&pair).into_iter().map(bytes_of).sum();
        if held + working > plan.peak_bytes {
            plan.peak_bytes = held + working;
            plan.peak_at = Some(pair[0]);
        }
        for (&x, &n) in pair.iter().zip(&sizes) {
            plan.tables.push(PlannedTable {
                material: x,
                indices: n,
                layers: nl as usize,
            });
        }
    }
    plan.peak_bytes += plan.peak_bytes / 10;
    plan
}

/// The tables solved together: a material and its mirror (one table when
/// it is its own mirror).
fn pair_of(m: Material) -> Vec<Material> {
    if m.symmetric() {
        vec![m]
    } else {
        vec![m, m.mirror()]
    }
}

/// The pairs `targets` need, in build order: every capture and promotion
/// leads to a pair before.
fn pairs_in_order(targets: &[Material]) -> Vec<Vec<Material>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for m in Material::closure(targets) {
        if seen.insert(m) {
            let pair = pair_of(m);
            seen.extend(pair.iter().copied());
            out.push(pair);
        }
    }
    out
}

/// The finished tables a pair's captures and promotions can lead to
/// ([`Material::successors`]): what the builder holds while it solves the
/// pair.
fn needs_of(pair: &[Material]) -> Vec<Material> {
    let mut out = Vec::new();
    for m in pair {
        for x in m.successors() {
            if !pair.contains(&x) && !out.contains(&x) {
                out.push(x);
            }
        }
    }
    out
}

fn missing(m: Material) -> TablebaseError {
    TablebaseError::NotCovered(format!(
        "internal: the table {m} was needed before it was built"
    ))
}

/// The best value over the moves that leave the pair (captures,
/// promotions) and the number of moves that stay, or the value of a
/// finished position.
enum Init {
    Nothing,
    Done(Value),
    Open { count: u8, exit: Option<Value> },
}

fn init(rules: &RuleSet, layout: &Layout, idx: u64, tables: &Tables) -> Result<Init, Material> {
    let Some(g) = layout.groups(idx) else {
        return Ok(Init::Nothing);
    };
    let Some(pos) = position_of_groups(rules, g, 0) else {
        return Ok(Init::Nothing);
    };
    if let Some(o) = pos.outcome() {
        return Ok(Init::Done(match o.winner {
            None => Value::Draw,
            Some(w) if w == pos.turn() => Value::Win(0),
            Some(_) => Value::Loss(0),
        }));
    }
    let mut count = 0u8;
    let mut exit = None;
    for m in pos.strict_moves().iter() {
        if m.is_capture() || pos.promotes(m) {
            let mut child = pos;
            child.play_unchecked(m);
            let v = value_in(tables, &child)
                .ok_or_else(|| locate_groups(&child).map_or(layout.material(), |(x, _)| x))?;
            exit = better(exit, v.back());
        } else {
            count += 1;
        }
    }
    Ok(if count == 0 {
        Init::Done(exit.unwrap_or(Value::Loss(0)))
    } else {
        Init::Open { count, exit }
    })
}

/// Positions whose quiet moves taken back lead to `g` (the opponent of
/// the side to move in `g` moved last), as groups of the partner table.
fn unmoves(geo: &Geometry, g: [u64; 4], out: &mut Vec<[u64; 4]>) {
    out.clear();
    let occ = g[0] | g[1] | g[2] | g[3];
    let f = |x| geo.flip(x);
    let mut kings = g[3];
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        for dir in 0..4 {
            let mut t = geo.nb[s][dir];
            while t != NO && occ & (1 << t) == 0 {
                let bk = g[3] ^ (1 << s) ^ (1u64 << t);
                out.push([f(g[2]), f(bk), f(g[0]), f(g[1])]);
                t = geo.nb[usize::from(t)][dir];
            }
        }
    }
    // The opponent's men move down the board: they came from above.
    let mut men = g[2];
    while men != 0 {
        let s = men.trailing_zeros() as usize;
        men &= men - 1;
        for dir in 0..2 {
            let t = geo.nb[s][dir];
            if t != NO && occ & (1 << t) == 0 {
                let bm = g[2] ^ (1 << s) ^ (1u64 << t);
                out.push([f(bm), f(g[3]), f(g[0]), f(g[1])]);
            }
        }
    }
}

const CANNOT_LOSE: u8 = 0x80;
/// Indices a worker takes at a time in the first pass.
const INIT_CHUNK: usize = 1 << 14;
/// Indices scanned at once for the positions settled at a distance, in
/// pieces of `SCAN_PIECE`.
const SCAN_BLOCK: usize = 1 << 22;
const SCAN_PIECE: usize = 1 << 12;
/// While a pair is solved, a position not settled yet keeps what its exits
/// (captures, promotions) are worth in its value's place: `EXIT_WINS | d`,
/// an exit wins in `d` (settled then, unless a quiet move wins sooner);
/// `EXITS_LOSE + d`, its exits lose, the slowest in `d` (its loss takes at
/// least as long); [`UNKNOWN`], neither. Settled values are below both.
const EXIT_WINS: u16 = 0x8000;
const EXITS_LOSE: u16 = 0xC000;
/// The longest distance the solver holds (plies).
const MAX_DISTANCE: u16 = 0x3FF0;

/// Whether a position of a pair being solved is not settled yet.
#[inline]
fn open(c: u16) -> bool {
    c >= EXIT_WINS && c != NONE && c != DRAW
}

/// Positions settled, and positions whose exit wins, at each distance.
type Counts = (Vec<u64>, Vec<u64>);

/// One more position settled at `level`.
fn count_at(levels: &mut Vec<u64>, level: usize) {
    if levels.len() <= level {
        levels.resize(level + 1, 0);
    }
    levels[level] += 1;
}

fn too_long(m: Material) -> TablebaseError {
    TablebaseError::NotCovered(format!(
        "the table {m} has a win longer than {MAX_DISTANCE} plies"
    ))
}

/// Retrograde analysis of a pair in 3 bytes an index: the value (or, not
/// settled yet, what its exits are worth) and the count of quiet moves not
/// yet known to lose. The positions settled at a distance are found by
/// scanning the values a block at a time: no list of positions waiting is
/// kept.
fn solve_retrograde(
    rules: &RuleSet,
    pair: &[Material],
    tables: &Tables,
) -> Result<Vec<Vec<u16>>, TablebaseError> {
    let geo = Geometry::of(rules.board);
    let layouts: Vec<Layout> = pair.iter().map(|&m| Layout::new(rules.board, m)).collect();
    let partner = |s: usize| if pair.len() == 1 { 0 } else { 1 - s };
    let mut codes: Vec<Vec<u16>> = Vec::new();
    let mut count: Vec<Vec<u8>> = Vec::new();
    // Positions settled at each distance, and positions whose exit wins
    // at each distance.
    let mut settled: Vec<u64> = Vec::new();
    let mut exit_wins: Vec<u64> = Vec::new();
    for layout in &layouts {
        if layout.size() >= u64::from(u32::MAX) {
            return Err(TablebaseError::NotCovered(format!(
                "the table {} has too many indices",
                layout.material()
            )));
        }
        // Each chunk of indices fills its part of the arrays in place and
        // counts what it settled.
        let n = layout.size() as usize;
        let mut c = vec![UNKNOWN; n];
        let mut k = vec![0u8; n];
        let counted: Result<Vec<Counts>, TablebaseError> = c
            .par_chunks_mut(INIT_CHUNK)
            .zip(k.par_chunks_mut(INIT_CHUNK))
            .enumerate()
            .map(|(chunk, (c, k))| {
                let (mut done, mut exits) = (Vec::new(), Vec::new());
                for j in 0..c.len() {
                    let i = chunk * INIT_CHUNK + j;
                    let too_far = |d: u16| {
                        if d > MAX_DISTANCE {
                            Err(too_long(layout.material()))
                        } else {
                            Ok(usize::from(d))
                        }
                    };
                    match init(rules, layout, i as u64, tables).map_err(missing)? {
                        Init::Nothing => c[j] = NONE,
                        Init::Done(Value::Draw) => c[j] = DRAW,
                        Init::Done(v @ (Value::Win(d) | Value::Loss(d))) => {
                            count_at(&mut done, too_far(d)?);
                            c[j] = v.code();
                        }
                        Init::Open { count, exit } => {
                            k[j] = count;
                            match exit {
                                Some(Value::Win(d)) => {
                                    count_at(&mut exits, too_far(d)?);
                                    k[j] |= CANNOT_LOSE;
                                    c[j] = EXIT_WINS | d;
                                }
                                Some(Value::Draw) => k[j] |= CANNOT_LOSE,
                                Some(Value::Loss(d)) => c[j] = EXITS_LOSE + too_far(d)? as u16,
                                None => {}
                            }
                        }
                    }
                }
                Ok((done, exits))
            })
            .collect();
        for (done, exits) in counted? {
            for (into, from) in [(&mut settled, done), (&mut exit_wins, exits)] {
                if into.len() < from.len() {
                    into.resize(from.len(), 0);
                }
                for (a, b) in into.iter_mut().zip(from) {
                    *a += b;
                }
            }
        }
        codes.push(c);
        count.push(k);
    }
    let mut preds = Vec::with_capacity(64);
    let mut frontier: Vec<u32> = Vec::new();
    let mut level = 0;
    while level < settled.len().max(exit_wins.len()) {
        if level + 1 > usize::from(MAX_DISTANCE) {
            return Err(too_long(pair[0]));
        }
        // Exits that win at this distance, where no quiet move won sooner.
        if exit_wins.get(level).is_some_and(|&n| n > 0) {
            let win = Value::Win(level as u16).code();
            let due = EXIT_WINS | level as u16;
            let newly: u64 = codes
                .iter_mut()
                .map(|c| {
                    c.par_iter_mut()
                        .map(|c| {
                            if *c == due {
                                *c = win;
                                1
                            } else {
                                0
                            }
                        })
                        .sum::<u64>()
                })
                .sum();
            if settled.len() <= level {
                settled.resize(level + 1, 0);
            }
            settled[level] += newly;
        }
        if settled.get(level).is_some_and(|&n| n > 0) {
            for s in 0..layouts.len() {
                let ps = partner(s);
                let n = codes[s].len();
                let mut start = 0;
                while start < n {
                    let end = (start + SCAN_BLOCK).min(n);
                    // The block's positions settled at this distance. Taking
                    // their moves back settles positions farther away only,
                    // so the block is scanned once.
                    // (A settled code of distance d is 2d − 1 or 2d; each
                    // piece is first tested as a whole, which the compiler
                    // does many codes at a time.)
                    let (lo, hi) = ((2 * level).saturating_sub(1) as u16, (2 * level) as u16);
                    frontier.clear();
                    frontier.par_extend(
                        codes[s][start..end]
                            .par_chunks(SCAN_PIECE)
                            .enumerate()
                            .flat_map_iter(|(k, piece)| {
                                let hits: u32 = piece
                                    .iter()
                                    .map(|&c| u32::from((c == lo) | (c == hi)))
                                    .sum();
                                let piece = if hits > 0 { piece } else { &piece[..0] };
                                let base = start + k * SCAN_PIECE;
                                piece
                                    .iter()
                                    .enumerate()
                                    .filter(move |&(_, &c)| c == lo || c == hi)
                                    .map(move |(j, _)| (base + j) as u32)
                            }),
                    );
                    for &idx in &frontier {
                        let v = Value::from_code(codes[s][idx as usize]);
                        let Some(g) = layouts[s].groups(u64::from(idx)) else {
                            continue;
                        };
                        unmoves(geo, g, &mut preds);
                        for &pg in &preds {
                            let p = layouts[ps].index(pg) as usize;
                            let c = codes[ps][p];
                            if !open(c) {
                                continue;
                            }
                            match v {
                                Value::Loss(_) => {
                                    codes[ps][p] = Value::Win(level as u16 + 1).code();
                                    count_at(&mut settled, level + 1);
                                }
                                Value::Win(_) => {
                                    count[ps][p] -= 1;
                                    if count[ps][p] == 0 {
                                        let floor = if c >= EXITS_LOSE && c != UNKNOWN {
                                            usize::from(c - EXITS_LOSE)
                                        } else {
                                            0
                                        };
                                        let d = (level + 1).max(floor);
                                        codes[ps][p] = Value::Loss(d as u16).code();
                                        count_at(&mut settled, d);
                                    }
                                }
                                Value::Draw => {}
                            }
                        }
                    }
                    start = end;
                }
            }
        }
        level += 1;
    }
    for c in &mut codes {
        c.par_iter_mut().for_each(|x| {
            if open(*x) {
                *x = DRAW;
            }
        });
    }
    Ok(codes)
}

fn solve_layered(
    rules: &RuleSet,
    pair: &[Material],
    tables: &Tables,
) -> Result<Vec<Vec<u16>>, TablebaseError> {
    let geo = Geometry::of(rules.board);
    let nl = layers(rules, pair[0]);
    let layouts: Vec<Layout> = pair.iter().map(|&m| Layout::new(rules.board, m)).collect();
    let partner = |s: usize| if pair.len() == 1 { 0 } else { 1 - s };
    let mut codes: Vec<Vec<u16>> = layouts
        .iter()
        .map(|l| vec![NONE; l.size() as usize * nl])
        .collect();
    // Positions with a capture or promotion into a counted ending: their
    // values can change with the counter through that move, so they are
    // solved on every layer.
    let mut always: Vec<Vec<bool>> = layouts
        .iter()
        .map(|l| vec![false; l.size() as usize])
        .collect();
    let mut preds = Vec::with_capacity(64);
    for e in (0..nl).rev() {
        for s in 0..pair.len() {
            // Below the two top layers only positions with a quiet move to
            // a position whose value changed between the two layers above
            // (or with a move into a counted ending) can change: the others
            // keep the value of the layer above.
            let dirty: Option<Vec<bool>> = (e + 2 < nl).then(|| {
                let mut d = always[s].clone();
                let ps = partner(s);
                let oc = &codes[ps];
                for q in 0..layouts[ps].size() as usize {
                    if oc[q * nl + e + 1] == oc[q * nl + e + 2] {
                        continue;
                    }
                    let Some(g) = layouts[ps].groups(q as u64) else {
                        continue;
                    };
                    unmoves(geo, g, &mut preds);
                    for &pg in &preds {
                        d[layouts[s].index(pg) as usize] = true;
                    }
                }
                d
            });
            let layout = &layouts[s];
            let own = &codes[s];
            let other = &codes[partner(s)];
            let olayout = &layouts[partner(s)];
            let layer: Result<Vec<(u16, bool)>, Material> = (0..layout.size())
                .into_par_iter()
                .map(|i| {
                    if let Some(d) = &dirty
                        && !d[i as usize]
                    {
                        return Ok((own[i as usize * nl + e + 1], false));
                    }
                    let Some(g) = layout.groups(i) else {
                        return Ok((NONE, false));
                    };
                    let Some(pos) = position_of_groups(rules, g, e as u16) else {
                        return Ok((NONE, false));
                    };
                    if let Some(o) = pos.outcome() {
                        return Ok((
                            match o.winner {
                                None => DRAW,
                                Some(w) if w == pos.turn() => Value::Win(0).code(),
                                Some(_) => Value::Loss(0).code(),
                            },
                            false,
                        ));
                    }
                    let mut best: Option<Value> = None;
                    let mut counted_exit = false;
                    for m in pos.strict_moves().iter() {
                        let mut child = pos;
                        child.play_unchecked(m);
                        let v = if m.is_capture() || pos.promotes(m) {
                            counted_exit |= child.counted_ending().is_some();
                            value_in(tables, &child).ok_or_else(|| {
                                locate_groups(&child).map_or(layout.material(), |(x, _)| x)
                            })?
                        } else {
                            let (_, cg) = locate_groups(&child).ok_or(layout.material())?;
                            let ce = usize::from(child.ending_plies()).min(nl - 1);
                            Value::from_code(other[olayout.index(cg) as usize * nl + ce])
                        };
                        best = better(best, v.back());
                    }
                    Ok((best.unwrap_or(Value::Loss(0)).code(), counted_exit))
                })
                .collect();
            let layer = layer.map_err(missing)?;
            let c = &mut codes[s];
            for (i, (x, flag)) in layer.into_iter().enumerate() {
                c[i * nl + e] = x;
                always[s][i] |= flag;
            }
        }
    }
    Ok(codes)
}
