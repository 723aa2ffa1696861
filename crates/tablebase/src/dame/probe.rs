//! Probing and checking the Dame tables.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use dame::{Move, Position, RuleSet};
use rayon::prelude::*;

use super::{DameFile, Material, covered, locate, position_at, rules_fingerprint, rules_tag};
use crate::value::NONE;
use crate::{TablebaseError, Value};

/// The file of `material`'s table under `rules` in `dir`:
/// `dame-<rules>-<material>.dtb`, e.g. `dame-international-KKK-K.dtb`.
pub fn dame_path(dir: &Path, rules: &RuleSet, material: Material) -> PathBuf {
    dir.join(format!("dame-{}-{material}.dtb", rules_tag(rules)))
}

enum Slot {
    Open(Arc<DameFile>),
    /// Missing or refused at this time; tried again after [`RETRY`].
    /// `asked` counts the lookups since, so that only one in
    /// [`CLOCK_EVERY`] reads the clock (a search asks for a missing
    /// table at every node with its material).
    Unusable(Instant, AtomicU32),
}

/// How many lookups of an unusable table read the clock once.
const CLOCK_EVERY: u32 = 1024;

impl Slot {
    /// Whether an unusable table is not to be tried again yet.
    fn wait(at: &Instant, asked: &AtomicU32) -> bool {
        !asked
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(CLOCK_EVERY)
            || at.elapsed() < RETRY
    }
}

const RETRY: Duration = Duration::from_secs(5);

/// The Dame tables of one folder, for any rule set. Files are opened and
/// checked on first use; a missing one is looked for again after a few
/// seconds (so tables built meanwhile are picked up): by
/// [`DameTablebase::value`] and [`DameTablebase::file`] at once, by the
/// search's [`DameTablebase::probe_value`] within its next 1024 lookups
/// of that table.
pub struct DameTablebase {
    dir: PathBuf,
    files: RwLock<HashMap<(u64, Material), Slot, foldhash::fast::FixedState>>,
}

impl DameTablebase {
    /// The tables under `dir` (nothing is read yet).
    pub fn new(dir: impl Into<PathBuf>) -> DameTablebase {
        DameTablebase {
            dir: dir.into(),
            files: RwLock::new(HashMap::default()),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The table's file, opened and checked.
    pub fn file(
        &self,
        rules: &RuleSet,
        material: Material,
    ) -> Result<Arc<DameFile>, TablebaseError> {
        let key = (rules_fingerprint(rules), material);
        let path = dame_path(&self.dir, rules, material);
        {
            let files = self.files.read().unwrap_or_else(|e| e.into_inner());
            match files.get(&key) {
                Some(Slot::Open(f)) => return Ok(f.clone()),
                Some(Slot::Unusable(at, _)) if at.elapsed() < RETRY => {
                    return DameFile::open(&path, rules, material).map(Arc::new);
                }
                _ => {}
            }
        }
        let mut files = self.files.write().unwrap_or_else(|e| e.into_inner());
        match DameFile::open(&path, rules, material) {
            Ok(f) => {
                let f = Arc::new(f);
                files.insert(key, Slot::Open(f.clone()));
                Ok(f)
            }
            Err(e) => {
                files.insert(key, Slot::Unusable(Instant::now(), AtomicU32::new(1)));
                Err(e)
            }
        }
    }

    /// The table's file if it can be used now; cheap when it cannot.
    pub fn try_file(&self, rules: &RuleSet, material: Material) -> Option<Arc<DameFile>> {
        self.with_file(rules, material, Arc::clone)
    }

    /// `read` applied to the table's file if it can be used now; cheap
    /// when it cannot. An open file is read under the lock without taking
    /// a share of it: no shared counter changes on the search's hot path.
    fn with_file<R>(
        &self,
        rules: &RuleSet,
        material: Material,
        read: impl FnOnce(&Arc<DameFile>) -> R,
    ) -> Option<R> {
        let key = (rules_fingerprint(rules), material);
        {
            let files = self.files.read().unwrap_or_else(|e| e.into_inner());
            match files.get(&key) {
                Some(Slot::Open(f)) => return Some(read(f)),
                Some(Slot::Unusable(at, asked)) if Slot::wait(at, asked) => return None,
                _ => {}
            }
        }
        self.file(rules, material).ok().map(|f| read(&f))
    }

    /// The value of `pos` for the side to move (the king-move counter not
    /// counted, see the module documentation), with a message when the
    /// tables do not hold it.
    pub fn value(&self, pos: &Position) -> Result<Value, TablebaseError> {
        let rules = pos.rules();
        if !covered(rules) {
            return Err(TablebaseError::NotCovered(
                "the Dame databases do not cover huffing".to_string(),
            ));
        }
        if let Some(o) = pos.outcome() {
            return Ok(match o.winner {
                None => Value::Draw,
                Some(w) if w == pos.turn() => Value::Win(0),
                Some(_) => Value::Loss(0),
            });
        }
        let (m, idx) = locate(pos).ok_or_else(|| {
            TablebaseError::NotCovered("a side without pieces has lost".to_string())
        })?;
        let f = self.file(rules, m)?;
        let c = f.code(idx, usize::from(pos.ending_plies()))?;
        if c == NONE {
            return Err(TablebaseError::Corrupt {
                path: f.path().to_path_buf(),
                why: format!("index {idx} holds no position"),
            });
        }
        Ok(Value::from_code(c))
    }

    /// [`DameTablebase::value`], or `None` when the tables do not hold the
    /// position (cheap: for probing inside a search).
    pub fn probe_value(&self, pos: &Position) -> Option<Value> {
        let rules = pos.rules();
        if !covered(rules) {
            return None;
        }
        if pos.occupied().count() > 12 {
            return None;
        }
        if pos.outcome().is_some() {
            return self.value(pos).ok();
        }
        let (m, idx) = locate(pos)?;
        let layer = usize::from(pos.ending_plies());
        let c = self.with_file(rules, m, |f| f.code(idx, layer).ok())??;
        (c != NONE).then(|| Value::from_code(c))
    }

    /// Every legal move with the value it leaves for the side to move,
    /// best first (fastest win, draws, longest loss); an error if some
    /// child is not held.
    pub fn probe_moves(&self, pos: &Position) -> Result<Vec<(Move, Value)>, TablebaseError> {
        let mut out = Vec::new();
        for m in pos.strict_moves().iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            let v = match locate(&child) {
                None => Value::Win(1),
                Some(_) => self.value(&child)?.back(),
            };
            out.push((*m, v));
        }
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v.rank()));
        Ok(out)
    }
}

/// What [`verify_dame`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DameVerifyReport {
    /// Positions checked (all ending-counter layers).
    pub checked: u64,
    /// Positions whose stored value does not follow from their moves.
    pub wrong: u64,
}

/// Check a built table: every stored value (every layer of the ending
/// counter) equals the best value over the position's moves, read from
/// the tables. Fails when a needed table is missing or damaged.
pub fn verify_dame(
    tb: &DameTablebase,
    rules: &RuleSet,
    material: Material,
) -> Result<DameVerifyReport, TablebaseError> {
    let f = tb.file(rules, material)?;
    let codes = f.all_codes(rules.board)?;
    let nl = f.layers();
    let results: Result<Vec<(u64, u64)>, TablebaseError> = codes
        .par_chunks(nl)
        .enumerate()
        .map(|(i, cs)| {
            let mut checked = 0;
            let mut wrong = 0;
            for (e, &c) in cs.iter().enumerate() {
                if c == NONE {
                    continue;
                }
                let Some(pos) = position_at(rules, material, i as u64, e as u16) else {
                    wrong += 1;
                    continue;
                };
                checked += 1;
                let stored = Value::from_code(c);
                let expected = if let Some(o) = pos.outcome() {
                    match o.winner {
                        None => Value::Draw,
                        Some(w) if w == pos.turn() => Value::Win(0),
                        Some(_) => Value::Loss(0),
                    }
                } else {
                    tb.probe_moves(&pos)?
                        .first()
                        .map_or(Value::Loss(0), |&(_, v)| v)
                };
                if expected != stored {
                    wrong += 1;
                }
            }
            Ok((checked, wrong))
        })
        .collect();
    let mut r = DameVerifyReport::default();
    for (c, w) in results? {
        r.checked += c;
        r.wrong += w;
    }
    Ok(r)
}
