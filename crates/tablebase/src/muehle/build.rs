//! Retrograde analysis of the moving phase, sector group by sector group.
//!
//! A group is a sector and its swap (`a-b` and `b-a`): a move without
//! removal leads from one to the other, a move with a removal leads out of
//! the group into `(b−1)-a`, which has fewer stones and is solved before.
//!
//! 1. **Start.** For every position: blocked → loss in 0. Moves out of the
//!    group are looked up in the solved sectors: one to a loss in `k` makes
//!    the position a win in at most `k + 1` (kept as a pending win), moves to
//!    a win in `k` only raise the loser's distance (`floor`), a move to a draw
//!    means the position can never be lost. The counter holds the number of
//!    distinct successor positions inside the group (symmetry classes), plus
//!    one for a drawing move out.
//! 2. **Settle by distance.** Codes order the values by distance (loss in d
//!    = 2d, win in d = 2d − 1). For code c = 0, 1, 2, … every position
//!    holding c takes back its moves: a loss in d makes every predecessor a
//!    win in d + 1 (if it is unknown or a pending win that is longer); a
//!    win in d counts down every unknown predecessor's counter, and at zero
//!    the predecessor is a loss in max(d + 1, floor). Wins are found
//!    shortest first, losses longest-resisting, so distances are exact.
//! 3. **Draws.** What is left unknown is a draw.
//!
//! Predecessors and successors are counted once per symmetry class, so the
//! counters match even for symmetric positions. Every step runs in
//! parallel (rayon) over the blocks of positions sharing the mover's stones.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;
use rayon::prelude::*;

use super::file::{SectorFile, SectorStats, write_sector};
use super::index::{FULL, SectorIndex, next_combination, pdep};
use super::moves::{for_each_move, for_each_unmove};
use crate::value::{DRAW, MAX_CODE, NONE, UNKNOWN};
use crate::{Sector, TablebaseError, Value, Variant};

/// What to build and where.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The database folder (the variant's files go into a subfolder).
    pub dir: PathBuf,
    /// The rules.
    pub variant: Variant,
}

/// Reports from a build, e.g. for progress bars. Every method has an empty
/// default.
pub trait Progress: Sync {
    /// The build starts: `work` units in all (two per position to solve).
    fn start(&self, _work: u64) {}
    /// A sector is already built and checked: kept.
    fn kept(&self, _sector: Sector) {}
    /// A group starts: its sectors and its work units.
    fn group_started(&self, _sectors: &[Sector], _work: u64) {}
    /// `units` more work done in the current group.
    fn advance(&self, _units: u64) {}
    /// A group is written.
    fn group_done(&self, _report: &GroupReport) {}
}

/// No progress reports.
pub struct NoProgress;
impl Progress for NoProgress {}

/// One built group.
#[derive(Clone, Debug)]
pub struct GroupReport {
    /// Its sectors.
    pub sectors: Vec<Sector>,
    /// Indices (stored positions, including unused ones).
    pub indices: u64,
    /// Symmetry classes.
    pub classes: u64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Bytes written.
    pub bytes: u64,
    /// Distance levels settled.
    pub levels: u32,
}

/// A whole build.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Groups built now.
    pub built: Vec<GroupReport>,
    /// Sectors found built already.
    pub kept: Vec<Sector>,
}

impl BuildReport {
    /// Symmetry classes solved now.
    pub fn classes(&self) -> u64 {
        self.built.iter().map(|g| g.classes).sum()
    }
    /// Seconds spent building.
    pub fn seconds(&self) -> f64 {
        self.built.iter().map(|g| g.seconds).sum()
    }
}

/// [`build`] the sectors named in `sectors` (such as `3-4` or `3-3,4-3`)
/// and everything they need, for `variant` in `dir`, without progress
/// reports.
pub fn build_sectors(
    dir: &Path,
    variant: Variant,
    sectors: &str,
) -> Result<BuildReport, TablebaseError> {
    let options = BuildOptions {
        dir: dir.to_path_buf(),
        variant,
    };
    build(&options, &super::parse_sectors(sectors)?, &NoProgress)
}

/// The file of `sector` for `variant` under `dir`.
pub fn sector_path(dir: &Path, variant: Variant, sector: Sector) -> PathBuf {
    dir.join(variant.name()).join(sector.file_name())
}

fn index_of(s: Sector) -> SectorIndex {
    SectorIndex::new(u32::from(s.mover), u32::from(s.other))
}

/// Build `targets` and everything they need, keeping sectors already built
/// (a file that opens and passes its checksum). A group is written only
/// when it is complete (to temporary names, then renamed), so an
/// interrupted build resumes with the group it was working on.
pub fn build(
    options: &BuildOptions,
    targets: &[Sector],
    progress: &dyn Progress,
) -> Result<BuildReport, TablebaseError> {
    let folder = options.dir.join(options.variant.name());
    std::fs::create_dir_all(&folder).map_err(|e| TablebaseError::Io {
        path: folder.clone(),
        source: e,
    })?;
    let all = super::sector::closure(targets);
    let mut groups: Vec<Vec<Sector>> = Vec::new();
    for s in all {
        let g = s.group();
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    let mut report = BuildReport::default();
    let mut todo = Vec::new();
    for g in groups {
        let done = g.iter().all(|&s| {
            SectorFile::open(
                &sector_path(&options.dir, options.variant, s),
                options.variant,
                s,
            )
            .is_ok()
        });
        if done {
            for &s in &g {
                progress.kept(s);
                report.kept.push(s);
            }
        } else {
            todo.push(g);
        }
    }
    let work: u64 = todo.iter().flatten().map(|&s| 2 * index_of(s).size()).sum();
    progress.start(work);
    for g in todo {
        let r = build_group(options, &g, progress)?;
        progress.group_done(&r);
        report.built.push(r);
    }
    Ok(report)
}

/// The values of a solved sector, all in memory (build codes).
fn load_codes(options: &BuildOptions, s: Sector) -> Result<Vec<u16>, TablebaseError> {
    SectorFile::open(
        &sector_path(&options.dir, options.variant, s),
        options.variant,
        s,
    )?
    .all_codes()
}

/// View plain numbers as atomics.
fn atomic16(v: &mut [u16]) -> &[AtomicU16] {
    // SAFETY: AtomicU16 has the size and bit validity of u16 and the same
    // alignment (2) on every platform Rust supports atomics of this size on;
    // the exclusive borrow guarantees no other access while the view lives.
    unsafe { &*(v as *mut [u16] as *const [AtomicU16]) }
}

fn atomic8(v: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: as in `atomic16`; AtomicU8 has the layout of u8.
    unsafe { &*(v as *mut [u8] as *const [AtomicU8]) }
}

struct Part {
    sector: Sector,
    index: SectorIndex,
    offset: usize,
    /// Part number of the swapped sector (successors and predecessors).
    swap: usize,
    /// The solved sector a removal leads to (`None`: the opponent is left
    /// with two stones and has lost).
    lower: Option<(SectorIndex, Vec<u16>)>,
}

fn build_group(
    options: &BuildOptions,
    group: &[Sector],
    progress: &dyn Progress,
) -> Result<GroupReport, TablebaseError> {
    let started = Instant::now();
    let variant = options.variant;
    let mut parts = Vec::new();
    let mut offset = 0usize;
    for &s in group {
        let index = index_of(s);
        let lower = match s.after_removal() {
            Some(l) => Some((index_of(l), load_codes(options, l)?)),
            None => None,
        };
        let swap = group.iter().position(|&g| g == s.swapped()).unwrap_or(0);
        parts.push(Part {
            sector: s,
            index,
            offset,
            swap,
            lower,
        });
        offset += index.size() as usize;
    }
    let total = offset;
    progress.group_started(group, 2 * total as u64);

    let mut values = vec![UNKNOWN; total];
    let mut counters = vec![0u8; total];
    let mut floors = vec![0u16; total];

    // 1. Start.
    for p in &parts {
        let per = p.index.block_of(0).1 as usize;
        let range = p.offset..p.offset + p.index.size() as usize;
        let swap_index = parts[p.swap].index;
        values[range.clone()]
            .par_chunks_mut(per)
            .zip(counters[range.clone()].par_chunks_mut(per))
            .zip(floors[range].par_chunks_mut(per))
            .enumerate()
            .for_each(|(r, ((vals, cnts), flrs))| {
                start_block(variant, p, &swap_index, r, vals, cnts, flrs);
                progress.advance(vals.len() as u64);
            });
    }

    // 2. Settle by distance.
    let floors = floors;
    let vals = atomic16(&mut values);
    let cnts = atomic8(&mut counters);
    let top = AtomicU16::new(
        vals.par_iter()
            .map(|v| v.load(Ordering::Relaxed))
            .filter(|&c| c <= MAX_CODE)
            .max()
            .unwrap_or(0),
    );
    let settled = AtomicU64::new(0);
    // Per block of positions (those sharing the mover's stones): the
    // smallest code still to be taken back there, so a level's pass skips
    // the blocks with nothing at that level (most, once the distances grow
    // long). `next` gathers the codes written during a pass.
    let mut block_base = Vec::with_capacity(parts.len());
    let mut blocks_total = 0usize;
    for p in &parts {
        block_base.push(blocks_total);
        blocks_total += (p.index.size() / p.index.block_of(0).1) as usize;
    }
    let block_min: Vec<AtomicU16> = (0..blocks_total).map(|_| AtomicU16::new(UNKNOWN)).collect();
    let next: Vec<AtomicU16> = (0..blocks_total).map(|_| AtomicU16::new(UNKNOWN)).collect();
    for (k, p) in parts.iter().enumerate() {
        let per = p.index.block_of(0).1 as usize;
        block_min[block_base[k]..block_base[k] + p.index.size() as usize / per]
            .par_iter()
            .enumerate()
            .for_each(|(r, m)| {
                let base = p.offset + r * per;
                let low = vals[base..base + per]
                    .iter()
                    .map(|v| v.load(Ordering::Relaxed))
                    .filter(|&c| c <= MAX_CODE)
                    .min()
                    .unwrap_or(UNKNOWN);
                m.store(low, Ordering::Relaxed);
            });
    }
    let mut code: u16 = 0;
    while code <= top.load(Ordering::Relaxed) && code < MAX_CODE {
        for (k, p) in parts.iter().enumerate() {
            let per = p.index.block_of(0).1 as usize;
            let pred = &parts[p.swap];
            let pred_per = pred.index.block_of(0).1 as usize;
            let pred_blocks = block_base[p.swap];
            let blocks = p.index.size() as usize / per;
            (0..blocks).into_par_iter().for_each(|r| {
                let hint = &block_min[block_base[k] + r];
                if hint.load(Ordering::Relaxed) > code {
                    return;
                }
                let mut n = 0u64;
                let mut low = UNKNOWN;
                let base = p.offset + r * per;
                for j in 0..per {
                    let c = vals[base + j].load(Ordering::Relaxed);
                    if c != code {
                        if c > code && c <= MAX_CODE {
                            low = low.min(c);
                        }
                        continue;
                    }
                    n += 1;
                    let (mover, other) = p.index.position((r * per + j) as u64);
                    let mut preds: ArrayVec<u64, 256> = ArrayVec::new();
                    for_each_unmove(variant, mover, other, |prev| {
                        let _ = preds.try_push(pred.index.index(prev, mover));
                    });
                    preds.sort_unstable();
                    let mut last = u64::MAX;
                    for &q in &preds {
                        if q == last {
                            continue;
                        }
                        last = q;
                        let g = pred.offset + q as usize;
                        let written = if code.is_multiple_of(2) {
                            settle_win(&vals[g], code + 1).then_some(code + 1)
                        } else if vals[g].load(Ordering::Relaxed) == UNKNOWN
                            && cnts[g].fetch_sub(1, Ordering::Relaxed) == 1
                        {
                            let d = code / 2 + 1; // the successor's win distance
                            let loss = Value::Loss((d + 1).max(floors[g])).code();
                            vals[g]
                                .compare_exchange(
                                    UNKNOWN,
                                    loss,
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok()
                                .then_some(loss)
                        } else {
                            None
                        };
                        if let Some(w) = written {
                            top.fetch_max(w, Ordering::Relaxed);
                            next[pred_blocks + q as usize / pred_per]
                                .fetch_min(w, Ordering::Relaxed);
                        }
                    }
                }
                // Everything at this level here is taken back; what is left
                // (and what is written meanwhile, in `next`) comes later.
                hint.store(low, Ordering::Relaxed);
                if n > 0 {
                    settled.fetch_add(n, Ordering::Relaxed);
                    progress.advance(n);
                }
            });
        }
        // The pass is over (rayon joined): fold in the codes written.
        block_min
            .par_iter()
            .zip(next.par_iter())
            .for_each(|(m, w)| {
                let written = w.swap(UNKNOWN, Ordering::Relaxed);
                m.fetch_min(written, Ordering::Relaxed);
            });
        code += 1;
    }
    let levels = u32::from(code);
    // 3. Draws.
    values.par_iter_mut().for_each(|v| {
        if *v == UNKNOWN {
            *v = DRAW;
        }
    });
    progress.advance((total as u64).saturating_sub(settled.load(Ordering::Relaxed)));

    // Statistics and files.
    let mut bytes = 0;
    let mut classes = 0;
    let mut temps = Vec::new();
    for p in &parts {
        let codes = &values[p.offset..p.offset + p.index.size() as usize];
        let stats = sector_stats(&p.index, codes);
        classes += stats.classes;
        let path = sector_path(&options.dir, variant, p.sector);
        let tmp = path.with_extension("tb.tmp");
        write_sector(&tmp, variant, p.sector, codes, &stats)?;
        bytes += std::fs::metadata(&tmp).map(|m| m.len()).unwrap_or(0);
        temps.push((tmp, path));
    }
    for (tmp, path) in temps {
        std::fs::rename(&tmp, &path).map_err(|e| TablebaseError::Io { path, source: e })?;
    }
    Ok(GroupReport {
        sectors: group.to_vec(),
        indices: total as u64,
        classes,
        seconds: started.elapsed().as_secs_f64(),
        bytes,
        levels,
    })
}

/// Make `v` a win of code `win` if it is unknown or a longer pending win;
/// whether it was written.
#[inline]
fn settle_win(v: &AtomicU16, win: u16) -> bool {
    let mut cur = v.load(Ordering::Relaxed);
    loop {
        let better = cur == UNKNOWN || (cur <= MAX_CODE && cur % 2 == 1 && cur > win);
        if !better {
            return false;
        }
        match v.compare_exchange_weak(cur, win, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return true,
            Err(now) => cur = now,
        }
    }
}

/// Step 1 for the block of positions whose mover's stones are
/// representative number `r`.
fn start_block(
    variant: Variant,
    p: &Part,
    swap_index: &SectorIndex,
    r: usize,
    vals: &mut [u16],
    cnts: &mut [u8],
    flrs: &mut [u16],
) {
    let per = vals.len() as u64;
    let first = r as u64 * per;
    let (mover, _) = p.index.position(first);
    let free = !mover & FULL;
    let mut sub: u32 = (1u32 << p.index.other_stones()) - 1;
    for j in 0..vals.len() {
        let other = pdep(sub, free);
        sub = next_combination(sub);
        if p.index.index(mover, other) != first + j as u64 {
            vals[j] = NONE;
            continue;
        }
        let mut succ: ArrayVec<u64, 128> = ArrayVec::new();
        let mut win = u16::MAX;
        let mut floor = 0u16;
        let mut draw_out = false;
        // Every move without a removal leaves the opponent (the next
        // mover) with the same stones.
        let next = swap_index.mover_part(other);
        let moves = for_each_move(variant, mover, other, |next_mover, next_other, removed| {
            if !removed {
                debug_assert_eq!(next_mover, other);
                let _ = succ.try_push(swap_index.index_with(&next, next_other));
                return;
            }
            let v = match &p.lower {
                None => Value::Loss(0),
                Some((li, codes)) => {
                    Value::from_code(codes[li.index(next_mover, next_other) as usize])
                }
            };
            match v.back() {
                Value::Win(d) => win = win.min(d),
                Value::Loss(d) => floor = floor.max(d),
                Value::Draw => draw_out = true,
            }
        });
        if moves == 0 {
            vals[j] = Value::Loss(0).code();
            continue;
        }
        succ.sort_unstable();
        let mut distinct = 0;
        let mut last = u64::MAX;
        for &s in &succ {
            if s != last {
                distinct += 1;
                last = s;
            }
        }
        let count = distinct + usize::from(draw_out);
        if win != u16::MAX {
            vals[j] = Value::Win(win).code();
        } else if count == 0 {
            vals[j] = Value::Loss(floor).code();
        } else {
            vals[j] = UNKNOWN;
            cnts[j] = count as u8;
            flrs[j] = floor;
        }
    }
}

/// Counts over all placements, and the longest win and loss.
pub(crate) fn sector_stats(index: &SectorIndex, codes: &[u16]) -> SectorStats {
    let per = index.block_of(0).1 as usize;
    codes
        .par_chunks(per)
        .enumerate()
        .map(|(r, chunk)| {
            let mut s = SectorStats::default();
            for (j, &c) in chunk.iter().enumerate() {
                if c == NONE {
                    continue;
                }
                let i = (r * per + j) as u64;
                let n = index.class_size_at(i);
                s.classes += 1;
                s.positions += n;
                match Value::from_code(c) {
                    Value::Win(d) => {
                        s.wins += n;
                        if d > s.longest_win {
                            s.longest_win = d;
                            s.longest_win_index = i;
                        }
                    }
                    Value::Draw => s.draws += n,
                    Value::Loss(d) => {
                        if s.losses == 0 || d > s.longest_loss {
                            s.longest_loss = d;
                            s.longest_loss_index = i;
                        }
                        s.losses += n;
                    }
                }
            }
            s
        })
        .reduce(SectorStats::default, merge_stats)
}

fn merge_stats(a: SectorStats, b: SectorStats) -> SectorStats {
    // Ties go to the lower index (a comes first in index order).
    let (longest_win, longest_win_index) = if b.longest_win > a.longest_win {
        (b.longest_win, b.longest_win_index)
    } else {
        (a.longest_win, a.longest_win_index)
    };
    let a_has_loss = a.losses > 0;
    let (longest_loss, longest_loss_index) =
        if b.losses > 0 && (!a_has_loss || b.longest_loss > a.longest_loss) {
            (b.longest_loss, b.longest_loss_index)
        } else {
            (a.longest_loss, a.longest_loss_index)
        };
    SectorStats {
        positions: a.positions + b.positions,
        wins: a.wins + b.wins,
        draws: a.draws + b.draws,
        losses: a.losses + b.losses,
        classes: a.classes + b.classes,
        longest_win,
        longest_loss,
        longest_win_index,
        longest_loss_index,
    }
}
