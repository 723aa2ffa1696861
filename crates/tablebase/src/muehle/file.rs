//! The database file of one sector.
//!
//! ```text
//! 0    8  magic "BRETTMTB"
//! 8    4  format version (1)
//! 12   4  rule fingerprint (Variant::fingerprint)
//! 16   1  stones of the side to move    17  1  stones of the opponent
//! 18   1  value width (1, 2 or 3)       19  1  encoding (0 or 1)
//! 20   4  positions per block
//! 24   8  indices in the sector
//! 32   8  blocks
//! 40   8  positions (all placements)    48  8  of them wins for the side to move
//! 56   8  draws                         64  8  losses
//! 72   8  symmetry classes
//! 80   2  longest win (plies)           82  2  longest loss (plies)
//! 88   8  index of a longest win        96  8  index of a longest loss
//! 104  8  bytes after the header
//! 112  4  CRC-32 of bytes 0..112 and everything after the header
//! 116 12  0
//! 128     block offsets ((blocks + 1) × 8, from the file start), then the
//!         zstd-compressed blocks of values
//! ```
//!
//! All numbers little-endian. Values are build codes (loss in d = 2d, win
//! in d = 2d − 1). Width 1: one byte each, 254 a draw, 255 an index without
//! a position. Width 3 (sectors with codes above 253): one byte each below
//! 250, 250 a draw, 251 no position, 252 followed by the code in two bytes.
//! Width 2 (written by earlier builds): two bytes each, the codes of
//! `value.rs`.
//!
//! Encoding 1 (the current one): blocks of [`BLOCK`] values at zstd level
//! 15, and an index without a position (the other members of a symmetric
//! position's class) repeats the value before it in its block — never read
//! by a probe, it costs next to nothing to compress. [`SectorFile::all_codes`]
//! marks those indices unused again. Encoding 0 (earlier builds): blocks of
//! 4096 at level 9 or lower, unused indices stored as such. Both are read;
//! [`repack`] turns a file of encoding 0 into encoding 1.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use crate::budget::MemoryBudget;
use std::sync::{Mutex, OnceLock};

use memmap2::Mmap;
use rayon::prelude::*;

use crate::value::{DRAW, NONE};
use crate::{Sector, TablebaseError, Value, Variant, Wdl};

const MAGIC: &[u8; 8] = b"BRETTMTB";
/// zstd level of the blocks. Measured on sector 6-7 (279 M values, 2
/// cores): level 15 with blocks of 16384 writes 81.5 MB in 18 s, level 19
/// 81.3 MB in 35 s, level 9 with blocks of 4096 (encoding 0) 94.1 MB.
const LEVEL: i32 = 15;
/// The encoding this brett writes (header byte 19).
pub const ENCODING: u8 = 1;
/// Value width 3: one byte per value, longer codes escaped — a byte below
/// 250 is the code, 250 a draw, 251 no position, 252 is followed by the
/// code in two bytes. (Width 1: the code, 254 draw, 255 no position;
/// width 2: every code in two bytes.)
const ESCAPED: usize = 3;
const ESC_DRAW: u8 = 250;
const ESC_NONE: u8 = 251;
const ESC_LONG: u8 = 252;
/// The file format's version.
pub const FORMAT_VERSION: u32 = 1;
const HEADER: usize = 128;
/// Positions per compressed block: 16384 (a block decompresses in about
/// 27 µs; blocks of 4096 take 14 µs but the file is 8 % larger).
pub const BLOCK: usize = 16384;

/// What the builder found in a sector, counted over all placements (every
/// symmetry class counts as many positions as it has members).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SectorStats {
    /// Positions, all placements.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Symmetry classes (stored positions).
    pub classes: u64,
    /// The longest win in plies (0 if none).
    pub longest_win: u16,
    /// The longest loss in plies.
    pub longest_loss: u16,
    /// Index of a position with the longest win.
    pub longest_win_index: u64,
    /// Index of a position with the longest loss.
    pub longest_loss_index: u64,
}

fn io_err(path: &Path, e: std::io::Error) -> TablebaseError {
    TablebaseError::Io {
        path: path.to_path_buf(),
        source: e,
    }
}

/// Write a sector's values (build codes, one per index) to `path`.
pub(crate) fn write_sector(
    path: &Path,
    variant: Variant,
    sector: Sector,
    codes: &[u16],
    stats: &SectorStats,
) -> Result<(), TablebaseError> {
    write_encoded(path, variant, sector, codes, stats, ENCODING)
}

/// [`write_sector`] in encoding 0 or 1 (0 only for the tests of [`repack`]).
fn write_encoded(
    path: &Path,
    variant: Variant,
    sector: Sector,
    codes: &[u16],
    stats: &SectorStats,
    encoding: u8,
) -> Result<(), TablebaseError> {
    let (block_len, level) = if encoding == 0 {
        (4096, 9)
    } else {
        (BLOCK, LEVEL)
    };
    let max_code = codes
        .iter()
        .copied()
        .filter(|&c| c != DRAW && c != NONE)
        .max()
        .unwrap_or(0);
    let width: usize = if max_code < 254 { 1 } else { ESCAPED };
    let blocks: Vec<Vec<u8>> = codes
        .par_chunks(block_len)
        .map(|chunk| {
            let mut raw = Vec::with_capacity(chunk.len() + chunk.len() / 8);
            let mut before = NONE;
            for &c in chunk {
                // An unused index repeats the value before it.
                let c = if c == NONE && encoding > 0 { before } else { c };
                before = c;
                if width == 1 {
                    raw.push(match c {
                        DRAW => 254,
                        NONE => 255,
                        c => c as u8,
                    });
                } else {
                    match c {
                        DRAW => raw.push(ESC_DRAW),
                        NONE => raw.push(ESC_NONE),
                        c if c < u16::from(ESC_DRAW) => raw.push(c as u8),
                        c => {
                            raw.push(ESC_LONG);
                            raw.extend_from_slice(&c.to_le_bytes());
                        }
                    }
                }
            }
            zstd::bulk::compress(&raw, level).unwrap_or_default()
        })
        .collect();
    let mut offsets = Vec::with_capacity(blocks.len() + 1);
    let mut at = (HEADER + 8 * (blocks.len() + 1)) as u64;
    for b in &blocks {
        offsets.push(at);
        at += b.len() as u64;
    }
    offsets.push(at);
    let mut header = [0u8; HEADER];
    header[0..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&variant.fingerprint().to_le_bytes());
    header[16] = sector.mover;
    header[17] = sector.other;
    header[18] = width as u8;
    header[19] = encoding;
    header[20..24].copy_from_slice(&(block_len as u32).to_le_bytes());
    header[24..32].copy_from_slice(&(codes.len() as u64).to_le_bytes());
    header[32..40].copy_from_slice(&(blocks.len() as u64).to_le_bytes());
    for (i, v) in [
        stats.positions,
        stats.wins,
        stats.draws,
        stats.losses,
        stats.classes,
    ]
    .iter()
    .enumerate()
    {
        header[40 + 8 * i..48 + 8 * i].copy_from_slice(&v.to_le_bytes());
    }
    header[80..82].copy_from_slice(&stats.longest_win.to_le_bytes());
    header[82..84].copy_from_slice(&stats.longest_loss.to_le_bytes());
    header[88..96].copy_from_slice(&stats.longest_win_index.to_le_bytes());
    header[96..104].copy_from_slice(&stats.longest_loss_index.to_le_bytes());
    header[104..112].copy_from_slice(&(at - HEADER as u64).to_le_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header[0..112]);
    let offset_bytes: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    crc.update(&offset_bytes);
    for b in &blocks {
        crc.update(b);
    }
    header[112..116].copy_from_slice(&crc.finalize().to_le_bytes());
    let file = File::create(path).map_err(|e| io_err(path, e))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    w.write_all(&header).map_err(|e| io_err(path, e))?;
    w.write_all(&offset_bytes).map_err(|e| io_err(path, e))?;
    for b in &blocks {
        w.write_all(b).map_err(|e| io_err(path, e))?;
    }
    let file = w.into_inner().map_err(|e| io_err(path, e.into_error()))?;
    file.sync_all().map_err(|e| io_err(path, e))?;
    Ok(())
}

/// An opened, checked sector file. Values are read block by block; the
/// last blocks read are kept decompressed.
pub struct SectorFile {
    path: PathBuf,
    map: Mmap,
    sector: Sector,
    width: usize,
    encoding: u8,
    block_len: usize,
    size: u64,
    blocks: u64,
    stats: SectorStats,
    cache: Vec<Mutex<Option<CachedBlock>>>,
    /// Every block as win/draw/loss, 2 bits a value, kept once read (while
    /// the memory limit of [`set_wdl_cache_limit`] allows).
    wdl_cache: OnceLock<Vec<OnceLock<Box<[u8]>>>>,
}

/// The bytes the win/draw/loss caches of all files hold, and their limit.
static WDL_BUDGET: MemoryBudget = MemoryBudget::new(DEFAULT_WDL_CACHE);

/// The default limit of the win/draw/loss caches: 2.5 GiB, enough for every
/// sector of the standard rules (2.3 GB at 2 bits a position).
pub const DEFAULT_WDL_CACHE: usize = 2560 << 20;

/// Limit the memory the win/draw/loss caches of all sector files may hold
/// together (blocks read beyond it are not kept). Blocks already kept stay.
pub fn set_wdl_cache_limit(bytes: usize) {
    WDL_BUDGET.set_limit(bytes);
}

/// Bytes the win/draw/loss caches hold now.
pub fn wdl_cache_bytes() -> usize {
    WDL_BUDGET.held()
}

/// Decompressed blocks kept per file (64 blocks of 16384 values: 2 MiB).
const CACHE_SLOTS: usize = 64;

thread_local! {
    /// One decompression context per thread (making one costs more than
    /// decompressing a block).
    pub(crate) static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        std::cell::RefCell::new(zstd::bulk::Decompressor::new().ok());
}

/// A decompressed block and its number.
type CachedBlock = (u64, Box<[u16]>);

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

impl SectorFile {
    /// Open and check the file of `sector` for `variant`: a missing,
    /// foreign (other rules, sector or format) or corrupt (bad checksum,
    /// truncated) file is refused with a message saying so.
    pub fn open(
        path: &Path,
        variant: Variant,
        sector: Sector,
    ) -> Result<SectorFile, TablebaseError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(TablebaseError::Missing {
                    path: path.to_path_buf(),
                    sector,
                    variant,
                });
            }
            Err(e) => return Err(io_err(path, e)),
        };
        // SAFETY: the file is opened read-only; the database files are
        // written once (to a temporary name, then renamed) and not changed
        // in place while they are read.
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
            return Err(foreign("not a brett Mühle database file".to_string()));
        }
        let version = u32_at(&map, 8);
        if version != FORMAT_VERSION {
            return Err(foreign(format!(
                "format version {version}, this brett reads version {FORMAT_VERSION}: build the database again"
            )));
        }
        let fp = u32_at(&map, 12);
        if fp != variant.fingerprint() {
            return Err(foreign(format!(
                "made for other rules (fingerprint {fp:#x}), not for '{variant}' ({:#x})",
                variant.fingerprint()
            )));
        }
        let found = Sector {
            mover: map[16],
            other: map[17],
        };
        if found != sector {
            return Err(foreign(format!("holds sector {found}, not {sector}")));
        }
        let width = usize::from(map[18]);
        let encoding = map[19];
        let block_len = u32_at(&map, 20) as usize;
        let size = u64_at(&map, 24);
        let blocks = u64_at(&map, 32);
        let payload = u64_at(&map, 104);
        let expected_size =
            crate::SectorIndex::new(u32::from(sector.mover), u32::from(sector.other)).size();
        if !(1..=3).contains(&width)
            || encoding > ENCODING
            || block_len == 0
            || size != expected_size
            || blocks != size.div_ceil(block_len as u64)
        {
            return Err(corrupt("the header does not fit the sector".to_string()));
        }
        if map.len() as u64 != HEADER as u64 + payload {
            return Err(corrupt(format!(
                "the file has {} bytes, its header says {} (truncated or extended)",
                map.len(),
                HEADER as u64 + payload
            )));
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&map[0..112]);
        crc.update(&map[HEADER..]);
        if crc.finalize() != u32_at(&map, 112) {
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
        let stats = SectorStats {
            positions: u64_at(&map, 40),
            wins: u64_at(&map, 48),
            draws: u64_at(&map, 56),
            losses: u64_at(&map, 64),
            classes: u64_at(&map, 72),
            longest_win: u16_at(&map, 80),
            longest_loss: u16_at(&map, 82),
            longest_win_index: u64_at(&map, 88),
            longest_loss_index: u64_at(&map, 96),
        };
        Ok(SectorFile {
            path: path.to_path_buf(),
            map,
            sector,
            width,
            encoding,
            block_len,
            size,
            blocks,
            stats,
            cache: (0..CACHE_SLOTS).map(|_| Mutex::new(None)).collect(),
            wdl_cache: OnceLock::new(),
        })
    }

    /// The sector.
    pub fn sector(&self) -> Sector {
        self.sector
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The number of indices.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The statistics written by the builder.
    pub fn stats(&self) -> SectorStats {
        self.stats
    }

    /// Bytes on disk.
    pub fn bytes(&self) -> u64 {
        self.map.len() as u64
    }

    fn block(&self, b: u64) -> Result<Box<[u16]>, TablebaseError> {
        let start = u64_at(&self.map, HEADER + 8 * b as usize) as usize;
        let end = u64_at(&self.map, HEADER + 8 * (b as usize + 1)) as usize;
        let n = (self.size - b * self.block_len as u64).min(self.block_len as u64) as usize;
        let corrupt = |why: String| TablebaseError::Corrupt {
            path: self.path.clone(),
            why,
        };
        if start > end || end > self.map.len() {
            return Err(corrupt(format!("block {b} lies outside the file")));
        }
        let capacity = n * self.width.min(2) + if self.width == ESCAPED { 2 * n } else { 0 };
        let raw = DECOMPRESSOR
            .with(|d| match d.borrow_mut().as_mut() {
                Some(d) => d.decompress(&self.map[start..end], capacity),
                None => zstd::bulk::decompress(&self.map[start..end], capacity),
            })
            .map_err(|e| corrupt(format!("block {b} cannot be decompressed: {e}")))?;
        if self.width == ESCAPED {
            let mut out = Vec::with_capacity(n);
            let mut i = 0;
            while i < raw.len() {
                let x = raw[i];
                i += 1;
                out.push(match x {
                    ESC_DRAW => DRAW,
                    ESC_NONE => NONE,
                    ESC_LONG if i + 2 <= raw.len() => {
                        i += 2;
                        u16::from_le_bytes([raw[i - 2], raw[i - 1]])
                    }
                    c if c < ESC_DRAW => u16::from(c),
                    _ => return Err(corrupt(format!("block {b} holds a bad value byte"))),
                });
            }
            if out.len() != n {
                return Err(corrupt(format!("block {b} has the wrong length")));
            }
            return Ok(out.into_boxed_slice());
        }
        if raw.len() != n * self.width {
            return Err(corrupt(format!("block {b} has the wrong length")));
        }
        Ok(if self.width == 1 {
            raw.iter()
                .map(|&x| match x {
                    254 => DRAW,
                    255 => NONE,
                    c => u16::from(c),
                })
                .collect()
        } else {
            raw.chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]))
                .collect()
        })
    }

    fn check_index(&self, index: u64) -> Result<(), TablebaseError> {
        if index >= self.size {
            return Err(TablebaseError::Corrupt {
                path: self.path.clone(),
                why: format!("index {index} beyond the sector's {}", self.size),
            });
        }
        Ok(())
    }

    /// The build code at `index` (`NONE` for an unused index).
    pub(crate) fn code(&self, index: u64) -> Result<u16, TablebaseError> {
        self.check_index(index)?;
        let b = index / self.block_len as u64;
        let within = (index % self.block_len as u64) as usize;
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
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some((b, data));
        Ok(code)
    }

    /// Win, draw or loss at `index`, read through the file's win/draw/loss
    /// cache (a block is decompressed once, then kept at 2 bits a value).
    pub fn wdl(&self, index: u64) -> Result<Wdl, TablebaseError> {
        self.check_index(index)?;
        let b = index / self.block_len as u64;
        let within = (index % self.block_len as u64) as usize;
        let bits = |data: &[u8]| (data[within / 4] >> (2 * (within % 4))) & 3;
        let code = match self.wdl_slot(b).get() {
            Some(data) => bits(data),
            None => bits(&self.keep_wdl_block(b)?),
        };
        Wdl::from_bits(code).ok_or_else(|| TablebaseError::Corrupt {
            path: self.path.clone(),
            why: format!("index {index} holds no position"),
        })
    }

    fn wdl_slot(&self, b: u64) -> &OnceLock<Box<[u8]>> {
        &self
            .wdl_cache
            .get_or_init(|| (0..self.blocks).map(|_| OnceLock::new()).collect())[b as usize]
    }

    /// Block `b` as win/draw/loss, kept in the cache if the limit allows.
    fn keep_wdl_block(&self, b: u64) -> Result<std::borrow::Cow<'_, [u8]>, TablebaseError> {
        let data = self.block(b)?;
        let mut packed = vec![0u8; data.len().div_ceil(4)].into_boxed_slice();
        for (i, &c) in data.iter().enumerate() {
            packed[i / 4] |= Wdl::bits_of_code(c) << (2 * (i % 4));
        }
        let len = packed.len();
        let slot = self.wdl_slot(b);
        if let Err(packed) = WDL_BUDGET.keep(slot, packed, len) {
            return Ok(std::borrow::Cow::Owned(packed.into_vec()));
        }
        Ok(std::borrow::Cow::Borrowed(slot.get().expect("just set")))
    }

    /// Read every block into the win/draw/loss cache (while the limit
    /// allows); `stop` ends it early. Returns the blocks read.
    pub fn warm_wdl(&self, stop: &std::sync::atomic::AtomicBool) -> Result<u64, TablebaseError> {
        let mut read = 0;
        for b in 0..self.blocks {
            if stop.load(Ordering::Relaxed) || !WDL_BUDGET.has_room(self.block_len / 4) {
                break;
            }
            if self.wdl_slot(b).get().is_none() {
                self.keep_wdl_block(b)?;
                read += 1;
            }
        }
        Ok(read)
    }

    /// The value at `index`.
    pub fn value(&self, index: u64) -> Result<Value, TablebaseError> {
        let c = self.code(index)?;
        if c == NONE {
            return Err(TablebaseError::Corrupt {
                path: self.path.clone(),
                why: format!("index {index} holds no position"),
            });
        }
        Ok(Value::from_code(c))
    }

    /// The encoding of the file (0: written by an earlier brett, see
    /// [`repack`]).
    pub fn encoding(&self) -> u8 {
        self.encoding
    }

    /// All values decompressed (build codes, [`NONE`] at every unused
    /// index), for the builder, `verify` and [`repack`].
    pub(crate) fn all_codes(&self) -> Result<Vec<u16>, TablebaseError> {
        let parts: Result<Vec<Box<[u16]>>, TablebaseError> = (0..self.blocks)
            .into_par_iter()
            .map(|b| self.block(b))
            .collect();
        let mut out = Vec::with_capacity(self.size as usize);
        for p in parts? {
            out.extend_from_slice(&p);
        }
        if self.encoding >= 1 {
            let index =
                crate::SectorIndex::new(u32::from(self.sector.mover), u32::from(self.sector.other));
            let per = index.block_of(0).1 as usize;
            out.par_chunks_mut(per).enumerate().for_each(|(r, chunk)| {
                let first = (r * per) as u64;
                if !index.mover_symmetric(first) {
                    return;
                }
                for (j, c) in chunk.iter_mut().enumerate() {
                    if !index.is_canonical(first + j as u64) {
                        *c = NONE;
                    }
                }
            });
        }
        Ok(out)
    }
}

/// What [`repack`] did to one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepackReport {
    /// Bytes before.
    pub before: u64,
    /// Bytes after (the same when nothing was done).
    pub after: u64,
    /// Whether the file was written again (it had an older encoding).
    pub repacked: bool,
}

/// Write the file of `sector` again in the current encoding if an earlier
/// brett wrote it: the values are read, written to a temporary file, read
/// back and compared, and only then does the new file replace the old one.
pub fn repack(
    dir: &Path,
    variant: Variant,
    sector: Sector,
) -> Result<RepackReport, TablebaseError> {
    let path = crate::sector_path(dir, variant, sector);
    let old = SectorFile::open(&path, variant, sector)?;
    let before = old.bytes();
    if old.encoding() == ENCODING {
        return Ok(RepackReport {
            before,
            after: before,
            repacked: false,
        });
    }
    let codes = old.all_codes()?;
    let stats = old.stats();
    drop(old);
    let tmp = path.with_extension("tb.tmp");
    write_sector(&tmp, variant, sector, &codes, &stats)?;
    let new = SectorFile::open(&tmp, variant, sector)?;
    if new.all_codes()? != codes {
        let _ = std::fs::remove_file(&tmp);
        return Err(TablebaseError::Corrupt {
            path: tmp,
            why: "the re-encoded values differ from the old file's; the old file is kept"
                .to_string(),
        });
    }
    let after = new.bytes();
    drop(new);
    std::fs::rename(&tmp, &path).map_err(|e| io_err(&path, e))?;
    Ok(RepackReport {
        before,
        after,
        repacked: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes for every index of sector 3-3: unused indices marked, the
    /// others a mix of draws and short and (for `top` above 253) long
    /// codes.
    fn sample_codes(top: u16) -> Vec<u16> {
        let index = crate::SectorIndex::new(3, 3);
        (0..index.size())
            .map(|i| {
                if !index.is_canonical(i) {
                    NONE
                } else if i % 7 == 0 {
                    DRAW
                } else {
                    (i as u16).wrapping_mul(31) % top
                }
            })
            .collect()
    }

    /// Every value width reads back what was written, long codes included;
    /// unused indices come back as unused.
    #[test]
    fn values_read_back_in_both_widths() {
        let dir = tempfile::tempdir().unwrap();
        let sector = Sector::new(3, 3).unwrap();
        let index = crate::SectorIndex::new(3, 3);
        for top in [200u16, 2000] {
            let codes = sample_codes(top);
            assert!(codes.contains(&NONE));
            let path = dir.path().join(format!("{top}.tb"));
            write_sector(
                &path,
                Variant::STANDARD,
                sector,
                &codes,
                &SectorStats::default(),
            )
            .unwrap();
            let f = SectorFile::open(&path, Variant::STANDARD, sector).unwrap();
            assert_eq!(f.width, if top < 254 { 1 } else { ESCAPED });
            assert_eq!(f.encoding(), ENCODING);
            assert_eq!(f.all_codes().unwrap(), codes);
            let size = codes.len();
            for i in [0, 1, 2, 4095, 4096, 16383, 16384, size - 1] {
                if index.is_canonical(i as u64) {
                    assert_eq!(f.code(i as u64).unwrap(), codes[i]);
                }
            }
        }
    }

    /// A file of the earlier encoding is read as it is, and `repack`
    /// writes it again smaller with the same values; a second repack does
    /// nothing.
    #[test]
    fn repack_turns_encoding_0_into_1() {
        let dir = tempfile::tempdir().unwrap();
        let sector = Sector::new(3, 3).unwrap();
        let codes: Vec<u16> = sample_codes(2000)
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                if c == NONE {
                    c
                } else if i % 1000 < 900 {
                    DRAW
                } else {
                    c
                }
            })
            .collect();
        let stats = SectorStats {
            positions: 12345,
            longest_win: 17,
            ..SectorStats::default()
        };
        let path = crate::sector_path(dir.path(), Variant::STANDARD, sector);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        write_encoded(&path, Variant::STANDARD, sector, &codes, &stats, 0).unwrap();
        let old = SectorFile::open(&path, Variant::STANDARD, sector).unwrap();
        assert_eq!(old.encoding(), 0);
        assert_eq!(old.block_len, 4096);
        assert_eq!(old.all_codes().unwrap(), codes);
        drop(old);
        let r = repack(dir.path(), Variant::STANDARD, sector).unwrap();
        assert!(r.repacked);
        assert!(r.after < r.before, "{r:?}");
        let new = SectorFile::open(&path, Variant::STANDARD, sector).unwrap();
        assert_eq!(new.encoding(), ENCODING);
        assert_eq!(new.block_len, BLOCK);
        assert_eq!(new.all_codes().unwrap(), codes);
        assert_eq!(new.stats(), stats);
        assert_eq!(new.bytes(), r.after);
        let again = repack(dir.path(), Variant::STANDARD, sector).unwrap();
        assert!(!again.repacked);
        assert_eq!(again.after, r.after);
    }

    /// The codes of the stored files in tests/data/muehle/synthetic: long
    /// codes (width 3), draws, and unused indices.
    fn synthetic_codes() -> Vec<u16> {
        let index = crate::SectorIndex::new(3, 3);
        (0..index.size())
            .map(|i| {
                if !index.is_canonical(i) {
                    NONE
                } else if i % 11 == 0 {
                    DRAW
                } else {
                    300 + (i / 5000 % 9) as u16 * 41
                }
            })
            .collect()
    }

    /// Files written by an earlier brett in both encodings (the first with
    /// long codes) read back their values, are written again byte for byte,
    /// and repacking the older one gives the newer one.
    #[test]
    fn stored_files_of_both_encodings_read_back_and_write_the_same_bytes() {
        let stored =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/muehle/synthetic");
        let sector = Sector::new(3, 3).unwrap();
        let codes = synthetic_codes();
        let stats = SectorStats {
            positions: 7,
            wins: 3,
            draws: 2,
            losses: 2,
            classes: 5,
            longest_win: 301,
            longest_loss: 302,
            longest_win_index: 11,
            longest_loss_index: 12,
        };
        let dir = tempfile::tempdir().unwrap();
        for (name, encoding) in [("escaped-3-3.tb", 1), ("encoding0-3-3.tb", 0)] {
            let old = SectorFile::open(&stored.join(name), Variant::STANDARD, sector).unwrap();
            assert_eq!(old.encoding(), encoding);
            assert_eq!(old.width, ESCAPED);
            assert_eq!(old.stats(), stats);
            assert_eq!(old.all_codes().unwrap(), codes, "{name}");
            assert_eq!(old.value(1).unwrap(), Value::from_code(codes[1]));
            let again = dir.path().join(name);
            write_encoded(&again, Variant::STANDARD, sector, &codes, &stats, encoding).unwrap();
            assert_eq!(
                std::fs::read(&again).unwrap(),
                std::fs::read(stored.join(name)).unwrap(),
                "{name}"
            );
        }
        let path = crate::sector_path(dir.path(), Variant::STANDARD, sector);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(stored.join("encoding0-3-3.tb"), &path).unwrap();
        assert!(
            repack(dir.path(), Variant::STANDARD, sector)
                .unwrap()
                .repacked
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(stored.join("escaped-3-3.tb")).unwrap()
        );
    }
}
