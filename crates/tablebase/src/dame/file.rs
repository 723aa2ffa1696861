//! The file of one Dame table.
//!
//! ```text
//! 0    8  magic "BRETTDTB"
//! 8    4  format version (1)
//! 16   8  rule fingerprint (rules_fingerprint)
//! 24   1  board side (8 or 10)
//! 25   4  material: mover's men, mover's kings, opponent's men, kings
//! 30   2  layers (1, or the ending limit + 1 for a counted ending)
//! 32   8  indices            40  4  values per block
//! 48   8  blocks             56  8  positions (indices with a position)
//! 64   8  wins (ending counter 0)   72  8  draws      80  8  losses
//! 88   2  longest win (plies)       90  2  longest loss
//! 96   8  bytes after the header
//! 104  4  CRC-32 of bytes 0..104 and everything after the header
//! 128     block offsets ((blocks + 1) × 8, from the file start), then the
//!         zstd-compressed blocks of values
//! ```
//!
//! All numbers little-endian; unnamed bytes are 0. The values follow one
//! another index by index, and within an index layer by layer (ending
//! counter 0, 1, …), two bytes each: the build codes of the Mühle files
//! (loss in d = 2d, win in d = 2d − 1, 65533 a draw); an index without a
//! position repeats the value before it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use memmap2::Mmap;
use rayon::prelude::*;

use super::{Layout, Material, layers, rules_fingerprint};
use crate::budget::MemoryBudget;
use crate::value::{DRAW, NONE};
use crate::{TablebaseError, Value};
use dame::RuleSet;

const MAGIC: &[u8; 8] = b"BRETTDTB";
/// The Dame file format's version.
pub const DAME_FORMAT_VERSION: u32 = 1;
const HEADER: usize = 128;
const BLOCK: usize = 16384;
const LEVEL: i32 = 15;
const CACHE_SLOTS: usize = 32;

/// What the builder found in a table (ending counter 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DameStats {
    /// Positions (indices that stand for one).
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// The longest win in plies.
    pub longest_win: u16,
    /// The longest loss in plies.
    pub longest_loss: u16,
}

impl DameStats {
    pub(crate) fn count(codes: &[u16], layers: usize) -> DameStats {
        let mut s = DameStats::default();
        for &c in codes.iter().step_by(layers) {
            if c == NONE {
                continue;
            }
            s.positions += 1;
            match Value::from_code(c) {
                Value::Win(n) => {
                    s.wins += 1;
                    s.longest_win = s.longest_win.max(n);
                }
                Value::Draw => s.draws += 1,
                Value::Loss(n) => {
                    s.losses += 1;
                    s.longest_loss = s.longest_loss.max(n);
                }
            }
        }
        s
    }
}

fn io_err(path: &Path, e: std::io::Error) -> TablebaseError {
    TablebaseError::Io {
        path: path.to_path_buf(),
        source: e,
    }
}

/// Write a table (codes index by index, layer by layer) to `path`, through
/// a temporary file renamed at the end.
pub(crate) fn write_table(
    path: &Path,
    rules: &RuleSet,
    material: Material,
    codes: &[u16],
    stats: &DameStats,
) -> Result<u64, TablebaseError> {
    let nlayers = layers(rules, material);
    let blocks: Vec<Vec<u8>> = codes
        .par_chunks(BLOCK)
        .map(|chunk| {
            let mut raw = Vec::with_capacity(2 * chunk.len());
            let mut before = DRAW;
            for &c in chunk {
                // An index without a position repeats the value before it
                // (all its layers are NONE).
                let c = if c == NONE { before } else { c };
                before = c;
                raw.extend_from_slice(&c.to_le_bytes());
            }
            zstd::bulk::compress(&raw, LEVEL).unwrap_or_default()
        })
        .collect();
    let mut offsets = Vec::with_capacity(blocks.len() + 1);
    let mut at = (HEADER + 8 * (blocks.len() + 1)) as u64;
    for b in &blocks {
        offsets.push(at);
        at += b.len() as u64;
    }
    offsets.push(at);
    let mut h = [0u8; HEADER];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&DAME_FORMAT_VERSION.to_le_bytes());
    h[16..24].copy_from_slice(&rules_fingerprint(rules).to_le_bytes());
    h[24] = rules.board.side();
    h[25..29].copy_from_slice(&[material.wm, material.wk, material.bm, material.bk]);
    h[30..32].copy_from_slice(&(nlayers as u16).to_le_bytes());
    h[32..40].copy_from_slice(&((codes.len() / nlayers) as u64).to_le_bytes());
    h[40..44].copy_from_slice(&(BLOCK as u32).to_le_bytes());
    h[48..56].copy_from_slice(&(blocks.len() as u64).to_le_bytes());
    for (i, v) in [stats.positions, stats.wins, stats.draws, stats.losses]
        .iter()
        .enumerate()
    {
        h[56 + 8 * i..64 + 8 * i].copy_from_slice(&v.to_le_bytes());
    }
    h[88..90].copy_from_slice(&stats.longest_win.to_le_bytes());
    h[90..92].copy_from_slice(&stats.longest_loss.to_le_bytes());
    h[96..104].copy_from_slice(&(at - HEADER as u64).to_le_bytes());
    let offset_bytes: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h[0..104]);
    crc.update(&offset_bytes);
    for b in &blocks {
        crc.update(b);
    }
    h[104..108].copy_from_slice(&crc.finalize().to_le_bytes());
    let tmp = path.with_extension("part");
    let file = File::create(&tmp).map_err(|e| io_err(&tmp, e))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    w.write_all(&h).map_err(|e| io_err(&tmp, e))?;
    w.write_all(&offset_bytes).map_err(|e| io_err(&tmp, e))?;
    for b in &blocks {
        w.write_all(b).map_err(|e| io_err(&tmp, e))?;
    }
    let file = w.into_inner().map_err(|e| io_err(&tmp, e.into_error()))?;
    file.sync_all().map_err(|e| io_err(&tmp, e))?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(|e| io_err(path, e))?;
    Ok(at)
}

type CachedBlock = (u64, Box<[u16]>);

/// An opened, checked Dame table file; values are read block by block
/// (memory-mapped), the last blocks read kept decompressed.
pub struct DameFile {
    path: PathBuf,
    map: Mmap,
    material: Material,
    layers: usize,
    size: u64,
    blocks: u64,
    stats: DameStats,
    cache: Vec<Mutex<Option<CachedBlock>>>,
    /// Every block once read, decompressed, kept while the memory limit
    /// of [`set_dame_cache_limit`] allows: a search probes the same
    /// blocks again and again, and decompressing one costs a hundred
    /// search nodes.
    kept: OnceLock<Vec<OnceLock<Box<[u16]>>>>,
}

/// The bytes the kept blocks of all Dame files hold, and their limit.
static KEPT: MemoryBudget = MemoryBudget::new(DEFAULT_DAME_CACHE);

/// The default limit of the Dame block cache: 1 GiB, three and a half times
/// what every table up to 5 pieces of one 8×8 rule set needs decompressed
/// (146 million values, 292 MB); the rest holds the blocks of larger
/// tables a game reaches.
pub const DEFAULT_DAME_CACHE: usize = 1024 << 20;

/// Limit the memory the decompressed blocks kept by all Dame files may
/// hold together (blocks read beyond it are not kept, only the last few
/// of each file). Blocks already kept stay.
pub fn set_dame_cache_limit(bytes: usize) {
    KEPT.set_limit(bytes);
}

/// Bytes the Dame block cache holds now.
pub fn dame_cache_bytes() -> usize {
    KEPT.held()
}

impl Drop for DameFile {
    /// The kept blocks leave the cache's count with the file.
    fn drop(&mut self) {
        if let Some(kept) = self.kept.get() {
            let bytes: usize = kept
                .iter()
                .filter_map(|k| k.get())
                .map(|d| 2 * d.len())
                .sum();
            KEPT.release(bytes);
        }
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(x)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

impl DameFile {
    /// Open and check the table of `material` under `rules`: a foreign
    /// (other rules, material or format) or damaged (checksum, length)
    /// file is refused with a message saying so.
    pub fn open(
        path: &Path,
        rules: &RuleSet,
        material: Material,
    ) -> Result<DameFile, TablebaseError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(TablebaseError::NotCovered(format!(
                    "the {material} table for '{}' is not built (no file {}); build it with: brett tablebase build --game {}",
                    super::rules_tag(rules),
                    path.display(),
                    super::rules_tag(rules)
                )));
            }
            Err(e) => return Err(io_err(path, e)),
        };
        // SAFETY: opened read-only; the files are written under a
        // temporary name and renamed, never changed in place.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| io_err(path, e))?;
        let corrupt = |why: String| TablebaseError::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        let foreign = |why: String| TablebaseError::Foreign {
            path: path.to_path_buf(),
            why,
        };
        if map.len() < HEADER {
            return Err(corrupt(format!(
                "the file has {} bytes, less than its header",
                map.len()
            )));
        }
        if &map[0..8] != MAGIC {
            return Err(foreign("not a brett Dame database file".to_string()));
        }
        let version = u32_at(&map, 8);
        if version != DAME_FORMAT_VERSION {
            return Err(foreign(format!(
                "format version {version}, this brett reads version {DAME_FORMAT_VERSION}: build the database again"
            )));
        }
        let fp = u64_at(&map, 16);
        if fp != rules_fingerprint(rules) || map[24] != rules.board.side() {
            return Err(foreign(format!(
                "made for other rules (fingerprint {fp:#x}), not for '{}'",
                super::rules_tag(rules)
            )));
        }
        let found = Material::new(map[25], map[26], map[27], map[28]);
        if found != material {
            return Err(foreign(format!("holds {found}, not {material}")));
        }
        let nlayers = usize::from(u16_at(&map, 30));
        let size = u64_at(&map, 32);
        let block_len = u32_at(&map, 40) as usize;
        let blocks = u64_at(&map, 48);
        let payload = u64_at(&map, 96);
        let values = size * nlayers as u64;
        if nlayers != layers(rules, material)
            || block_len != BLOCK
            || size != Layout::new(rules.board, material).size()
            || blocks != values.div_ceil(BLOCK as u64)
        {
            return Err(corrupt("the header does not fit the table".to_string()));
        }
        if map.len() as u64 != HEADER as u64 + payload {
            return Err(corrupt(format!(
                "the file has {} bytes, its header says {} (truncated or extended)",
                map.len(),
                HEADER as u64 + payload
            )));
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&map[0..104]);
        crc.update(&map[HEADER..]);
        if crc.finalize() != u32_at(&map, 104) {
            return Err(corrupt(
                "the checksum does not match: the file is damaged".to_string(),
            ));
        }
        let offsets_end = HEADER as u64 + 8 * (blocks + 1);
        if offsets_end > map.len() as u64 {
            return Err(corrupt("the block table is cut off".to_string()));
        }
        for i in 0..=blocks as usize {
            let o = u64_at(&map, HEADER + 8 * i);
            if o < offsets_end || o > map.len() as u64 {
                return Err(corrupt(
                    "a block offset points outside the file".to_string(),
                ));
            }
        }
        let stats = DameStats {
            positions: u64_at(&map, 56),
            wins: u64_at(&map, 64),
            draws: u64_at(&map, 72),
            losses: u64_at(&map, 80),
            longest_win: u16_at(&map, 88),
            longest_loss: u16_at(&map, 90),
        };
        Ok(DameFile {
            path: path.to_path_buf(),
            map,
            material,
            layers: nlayers,
            size,
            blocks,
            stats,
            cache: (0..CACHE_SLOTS).map(|_| Mutex::new(None)).collect(),
            kept: OnceLock::new(),
        })
    }

    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Indices.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Value layers per index.
    pub fn layers(&self) -> usize {
        self.layers
    }

    /// The builder's statistics.
    pub fn stats(&self) -> DameStats {
        self.stats
    }

    /// Bytes on disk.
    pub fn bytes(&self) -> u64 {
        self.map.len() as u64
    }

    fn block(&self, b: u64) -> Result<Box<[u16]>, TablebaseError> {
        let start = u64_at(&self.map, HEADER + 8 * b as usize) as usize;
        let end = u64_at(&self.map, HEADER + 8 * (b as usize + 1)) as usize;
        let values = self.size * self.layers as u64;
        let n = (values - b * BLOCK as u64).min(BLOCK as u64) as usize;
        let corrupt = |why: String| TablebaseError::Corrupt {
            path: self.path.clone(),
            why,
        };
        if start > end || end > self.map.len() {
            return Err(corrupt(format!("block {b} lies outside the file")));
        }
        let raw = crate::muehle::file::DECOMPRESSOR
            .with(|d| match d.borrow_mut().as_mut() {
                Some(d) => d.decompress(&self.map[start..end], 2 * n),
                None => zstd::bulk::decompress(&self.map[start..end], 2 * n),
            })
            .map_err(|e| corrupt(format!("block {b} cannot be decompressed: {e}")))?;
        if raw.len() != 2 * n {
            return Err(corrupt(format!("block {b} has the wrong length")));
        }
        Ok(raw
            .chunks_exact(2)
            .map(|p| u16::from_le_bytes([p[0], p[1]]))
            .collect())
    }

    /// The build code of `index` at ending counter `layer` (clamped to the
    /// last layer).
    pub(crate) fn code(&self, index: u64, layer: usize) -> Result<u16, TablebaseError> {
        if index >= self.size {
            return Err(TablebaseError::Corrupt {
                path: self.path.clone(),
                why: format!("index {index} beyond the table's {}", self.size),
            });
        }
        let at = index * self.layers as u64 + layer.min(self.layers - 1) as u64;
        let b = at / BLOCK as u64;
        let within = (at % BLOCK as u64) as usize;
        let kept = self.kept_slot(b);
        if let Some(data) = kept.get() {
            return Ok(data[within]);
        }
        let slot = &self.cache[(b as usize) % CACHE_SLOTS];
        {
            let guard = slot.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((cached, data)) = guard.as_ref()
                && *cached == b
            {
                return Ok(data[within]);
            }
        }
        let data = self.block(b)?;
        let code = data[within];
        let len = 2 * data.len();
        if let Err(data) = KEPT.keep(kept, data, len) {
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some((b, data));
        }
        Ok(code)
    }

    fn kept_slot(&self, b: u64) -> &OnceLock<Box<[u16]>> {
        &self
            .kept
            .get_or_init(|| (0..self.blocks).map(|_| OnceLock::new()).collect())[b as usize]
    }

    /// All codes (index by index, layer by layer), indices without a
    /// position marked as such.
    pub(crate) fn all_codes(&self, board: dame::BoardSize) -> Result<Vec<u16>, TablebaseError> {
        let parts: Result<Vec<Box<[u16]>>, TablebaseError> = (0..self.blocks)
            .into_par_iter()
            .map(|b| self.block(b))
            .collect();
        let mut out = Vec::with_capacity((self.size * self.layers as u64) as usize);
        for p in parts? {
            out.extend_from_slice(&p);
        }
        let layout = Layout::new(board, self.material);
        out.par_chunks_mut(self.layers)
            .enumerate()
            .for_each(|(i, c)| {
                if layout.groups(i as u64).is_none() {
                    c.fill(NONE);
                }
            });
        Ok(out)
    }
}
