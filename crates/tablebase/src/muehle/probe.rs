//! Probing the databases.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use muehle::{Bitboard, Color, Move, Position, Setup};

use crate::{Sector, SectorFile, TablebaseError, Value, Variant, Wdl, sector_path};

enum Slot {
    Open(Arc<SectorFile>),
    /// Not usable when last looked at (missing or refused); looked at again
    /// after a while, so files built meanwhile are picked up.
    Unusable(Instant),
}

/// The databases of one variant in one folder. Files are opened (and
/// checked) on first use and kept open; a missing sector is looked for
/// again after a few seconds.
pub struct Tablebase {
    dir: PathBuf,
    variant: Variant,
    files: RwLock<HashMap<Sector, Slot>>,
}

const RETRY: Duration = Duration::from_secs(5);

impl Tablebase {
    /// The databases for `variant` under `dir` (nothing is read yet).
    pub fn new(dir: impl Into<PathBuf>, variant: Variant) -> Tablebase {
        Tablebase {
            dir: dir.into(),
            variant,
            files: RwLock::new(HashMap::new()),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The sector's file, opened and checked.
    pub fn file(&self, sector: Sector) -> Result<Arc<SectorFile>, TablebaseError> {
        {
            let files = self.files.read().unwrap_or_else(|e| e.into_inner());
            match files.get(&sector) {
                Some(Slot::Open(f)) => return Ok(f.clone()),
                Some(Slot::Unusable(at)) if at.elapsed() < RETRY => {
                    return Err(self.missing(sector));
                }
                _ => {}
            }
        }
        let path = sector_path(&self.dir, self.variant, sector);
        let mut files = self.files.write().unwrap_or_else(|e| e.into_inner());
        match SectorFile::open(&path, self.variant, sector) {
            Ok(f) => {
                let f = Arc::new(f);
                files.insert(sector, Slot::Open(f.clone()));
                Ok(f)
            }
            Err(e) => {
                files.insert(sector, Slot::Unusable(Instant::now()));
                Err(e)
            }
        }
    }

    /// The sector's file if it can be used now; cheap when it cannot (no
    /// message is made): for probing inside a search.
    pub fn try_file(&self, sector: Sector) -> Option<Arc<SectorFile>> {
        {
            let files = self.files.read().unwrap_or_else(|e| e.into_inner());
            match files.get(&sector) {
                Some(Slot::Open(f)) => return Some(f.clone()),
                Some(Slot::Unusable(at)) if at.elapsed() < RETRY => return None,
                _ => {}
            }
        }
        self.file(sector).ok()
    }

    /// Where a moving-phase position's value is.
    fn locate(&self, pos: &Position) -> Located {
        if pos.in_hand(Color::White) > 0
            || pos.in_hand(Color::Black) > 0
            || Variant::for_rules(pos.rules()) != Some(self.variant)
        {
            return Located::Unknown;
        }
        let us = pos.turn();
        let (mover, other) = (pos.stones(us), pos.stones(us.other()));
        if mover.count() < 3 {
            return Located::Lost;
        }
        let Some(sector) = Sector::new(mover.count() as u8, other.count() as u8) else {
            return Located::Unknown;
        };
        let Some(file) = self.try_file(sector) else {
            return Located::Unknown;
        };
        let index = crate::SectorIndex::new(u32::from(sector.mover), u32::from(sector.other))
            .index(mover.0, other.0);
        Located::At(file, index)
    }

    /// The value of a moving-phase position for the side to move, or `None`
    /// when the databases cannot tell (placing phase, other rules, sector
    /// not built or refused). Makes no error messages: for searches.
    pub fn probe_value(&self, pos: &Position) -> Option<Value> {
        match self.locate(pos) {
            Located::Lost => Some(Value::Loss(0)),
            Located::Unknown => None,
            Located::At(file, index) => file.value(index).ok(),
        }
    }

    /// Win, draw or loss of a moving-phase position for the side to move,
    /// as [`Tablebase::probe_value`] but through the win/draw/loss cache.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        match self.locate(pos) {
            Located::Lost => Some(Wdl::Loss),
            Located::Unknown => None,
            Located::At(file, index) => file.wdl(index).ok(),
        }
    }

    /// Read the built sectors with at least `min_stones` stones (both
    /// sides) into the win/draw/loss cache, biggest first, until the cache
    /// is full or `stop` is set. Returns the blocks read.
    pub fn warm_wdl(&self, min_stones: u8, stop: &std::sync::atomic::AtomicBool) -> u64 {
        let mut sectors: Vec<Sector> = self
            .installed()
            .into_iter()
            .filter(|s| s.mover + s.other >= min_stones)
            .collect();
        sectors.sort_by_key(|s| std::cmp::Reverse((s.mover + s.other, s.mover.min(s.other))));
        let mut read = 0;
        for s in sectors {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            if let Some(file) = self.try_file(s) {
                read += file.warm_wdl(stop).unwrap_or(0);
            }
        }
        read
    }

    fn missing(&self, sector: Sector) -> TablebaseError {
        TablebaseError::Missing {
            path: sector_path(&self.dir, self.variant, sector),
            sector,
            variant: self.variant,
        }
    }

    /// The sectors whose files are present (not yet checked).
    pub fn installed(&self) -> Vec<Sector> {
        Sector::all_up_to(9)
            .into_iter()
            .filter(|&s| sector_path(&self.dir, self.variant, s).is_file())
            .collect()
    }

    /// The value with `mover`'s points to move against `other`'s points.
    pub fn probe_stones(&self, mover: Bitboard, other: Bitboard) -> Result<Value, TablebaseError> {
        if mover.count() < 3 {
            return Ok(Value::Loss(0));
        }
        let sector = Sector::new(mover.count() as u8, other.count() as u8).ok_or_else(|| {
            TablebaseError::NotCovered(format!(
                "{} stones against {}: the databases hold 3 to 9 stones a side",
                mover.count(),
                other.count()
            ))
        })?;
        if (mover & other).any() || (mover | other).0 & !Bitboard::FULL.0 != 0 {
            return Err(TablebaseError::NotCovered(
                "stones overlap or lie off the board".into(),
            ));
        }
        let file = self.file(sector)?;
        let index = crate::SectorIndex::new(u32::from(sector.mover), u32::from(sector.other))
            .index(mover.0, other.0);
        file.value(index)
    }

    /// The value of a position for the side to move: `Ok(None)` when the
    /// databases do not hold it (stones in hand, or other rules), an error
    /// when its sector is not built or its file is refused.
    pub fn probe(&self, pos: &Position) -> Result<Option<Value>, TablebaseError> {
        if pos.in_hand(Color::White) > 0
            || pos.in_hand(Color::Black) > 0
            || Variant::for_rules(pos.rules()) != Some(self.variant)
        {
            return Ok(None);
        }
        let us = pos.turn();
        if pos.stones(us.other()).count() < 3 {
            return Ok(None);
        }
        self.probe_stones(pos.stones(us), pos.stones(us.other()))
            .map(Some)
    }

    /// Every legal move with its value for the side to move (the value of
    /// the position after it, seen back), best first; `Ok(None)` when the
    /// databases do not hold the position.
    pub fn probe_moves(
        &self,
        pos: &Position,
    ) -> Result<Option<Vec<(Move, Value)>>, TablebaseError> {
        if self.probe(pos)?.is_none() {
            return Ok(None);
        }
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(m);
            let child = match self.probe(&next)? {
                Some(v) => v,
                None => Value::Loss(0), // the opponent has two stones left
            };
            out.push((m, child.back()));
        }
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v.rank()));
        Ok(Some(out))
    }
}

/// Where [`Tablebase::locate`] finds a position's value.
enum Located {
    /// The side to move has fewer than three stones: lost already.
    Lost,
    /// Placing phase, other rules, or a sector not built or refused.
    Unknown,
    /// In this file at this index.
    At(Arc<SectorFile>, u64),
}

/// The position (moving phase) with `mover`'s points for `color` to move
/// against `other`'s points, under `rules`.
pub fn position_of(
    mover: u32,
    other: u32,
    color: Color,
    rules: muehle::RuleSet,
) -> Result<Position, muehle::PositionError> {
    let mut stones = [Bitboard::EMPTY; 2];
    stones[color.index()] = Bitboard(mover);
    stones[color.other().index()] = Bitboard(other);
    Position::from_setup(
        Setup {
            stones,
            in_hand: [0, 0],
            turn: color,
            plies_since_mill: 0,
            move_number: 1,
        },
        rules,
    )
}
