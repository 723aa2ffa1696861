//! The file container of both games' databases.
//!
//! ```text
//! 0    8  magic (one per game)
//! 8    4  format version
//! …       the game's own fields, among them (at places the game's
//!         [`Format`] names) the values per block (4 bytes), the blocks
//!         (8), the bytes after the header (8) and a CRC-32 (4) of the
//!         header bytes before it and of everything after the header
//! 128     block offsets ((blocks + 1) × 8, from the file start), then the
//!         zstd-compressed blocks of values
//! ```
//!
//! All numbers little-endian, unnamed header bytes 0. The values are build
//! codes ([`crate::value`]), stored in one of three [`Width`]s. A file is
//! checked when it is opened (header, length, checksum, block offsets) and
//! then read block by block from a memory map; the last blocks read are
//! kept decompressed, and a format may keep every block read under a
//! process-wide [`MemoryBudget`].

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use memmap2::Mmap;
use rayon::prelude::*;

use crate::TablebaseError;
use crate::budget::{Kept, MemoryBudget};
use crate::value::{DRAW, NONE};

/// Bytes of the header.
pub(crate) const HEADER: usize = 128;

/// A game's file format: its magic and version, where its header holds
/// the container's fields, and how its blocks are cached.
pub(crate) struct Format {
    /// The first eight bytes.
    pub(crate) magic: &'static [u8; 8],
    /// The version (bytes 8..12).
    pub(crate) version: u32,
    /// The game, for the message about a file of something else.
    pub(crate) game: &'static str,
    /// Where the values per block are (4 bytes).
    pub(crate) block_len_at: usize,
    /// Where the number of blocks is (8 bytes).
    pub(crate) blocks_at: usize,
    /// Where the bytes after the header are counted (8 bytes).
    pub(crate) payload_at: usize,
    /// Where the CRC-32 is (4 bytes); it covers the header before it.
    pub(crate) crc_at: usize,
    /// Decompressed blocks kept per file, the last ones read.
    pub(crate) recent: usize,
    /// Every block read kept decompressed while this budget allows.
    pub(crate) keep: Option<&'static MemoryBudget>,
}

/// How a block stores its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// One byte each: the code, 254 a draw, 255 no position.
    Byte = 1,
    /// Two bytes each: the code.
    Pair = 2,
    /// One byte each below 250, 250 a draw, 251 no position, 252 followed
    /// by the code in two bytes.
    Escaped = 3,
}

const ESC_DRAW: u8 = 250;
const ESC_NONE: u8 = 251;
const ESC_LONG: u8 = 252;
const WRONG_LENGTH: &str = "has the wrong length";

impl Width {
    /// The width of header byte `b`.
    pub(crate) fn of_byte(b: u8) -> Option<Width> {
        [Width::Byte, Width::Pair, Width::Escaped]
            .into_iter()
            .find(|&w| w as u8 == b)
    }

    /// The narrower of [`Width::Byte`] and [`Width::Escaped`] that holds
    /// `codes`.
    pub(crate) fn narrowest(codes: &[u16]) -> Width {
        let max_code = codes
            .iter()
            .copied()
            .filter(|&c| c != DRAW && c != NONE)
            .max()
            .unwrap_or(0);
        if max_code < 254 {
            Width::Byte
        } else {
            Width::Escaped
        }
    }

    fn encode(self, c: u16, raw: &mut Vec<u8>) {
        match (self, c) {
            (Width::Byte, DRAW) => raw.push(254),
            (Width::Byte, NONE) => raw.push(255),
            (Width::Byte, c) => raw.push(c as u8),
            (Width::Pair, c) => raw.extend_from_slice(&c.to_le_bytes()),
            (Width::Escaped, DRAW) => raw.push(ESC_DRAW),
            (Width::Escaped, NONE) => raw.push(ESC_NONE),
            (Width::Escaped, c) if c < u16::from(ESC_DRAW) => raw.push(c as u8),
            (Width::Escaped, c) => {
                raw.push(ESC_LONG);
                raw.extend_from_slice(&c.to_le_bytes());
            }
        }
    }

    /// The largest size of `n` values.
    fn capacity(self, n: usize) -> usize {
        match self {
            Width::Byte => n,
            Width::Pair => 2 * n,
            Width::Escaped => 3 * n,
        }
    }

    /// `n` values from a block's bytes, or what is wrong with them.
    fn decode(self, raw: &[u8], n: usize) -> Result<Box<[u16]>, &'static str> {
        let out: Box<[u16]> = match self {
            Width::Byte => raw
                .iter()
                .map(|&x| match x {
                    254 => DRAW,
                    255 => NONE,
                    c => u16::from(c),
                })
                .collect(),
            Width::Pair if raw.len().is_multiple_of(2) => raw
                .chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]))
                .collect(),
            Width::Pair => return Err(WRONG_LENGTH),
            Width::Escaped => {
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
                        _ => return Err("holds a bad value byte"),
                    });
                }
                out.into_boxed_slice()
            }
        };
        if out.len() != n {
            return Err(WRONG_LENGTH);
        }
        Ok(out)
    }
}

/// How a file's values are written.
pub(crate) struct Packing {
    /// Values per block.
    pub(crate) block_len: usize,
    /// zstd level.
    pub(crate) level: i32,
    /// The width.
    pub(crate) width: Width,
    /// Whether an index without a position (a [`NONE`] value) repeats the
    /// value before it in its block (`Some` of what stands before the
    /// first) — never read, it costs next to nothing to compress — or is
    /// stored as such (`None`).
    pub(crate) fill: Option<u16>,
}

/// A header being written: the game's fields are put in, the container's
/// are added by [`write`].
pub(crate) struct NewHeader([u8; HEADER]);

impl NewHeader {
    /// All zero.
    pub(crate) fn new() -> NewHeader {
        NewHeader([0; HEADER])
    }

    /// `bytes` at `at`.
    pub(crate) fn put(&mut self, at: usize, bytes: &[u8]) -> &mut NewHeader {
        self.0[at..at + bytes.len()].copy_from_slice(bytes);
        self
    }

    /// 64-bit numbers one after another from `at`.
    pub(crate) fn put_u64s(&mut self, at: usize, values: &[u64]) -> &mut NewHeader {
        for (i, v) in values.iter().enumerate() {
            self.put(at + 8 * i, &v.to_le_bytes());
        }
        self
    }
}

/// Reading or writing `path` failed.
pub(crate) fn io_err(path: &Path, e: std::io::Error) -> TablebaseError {
    TablebaseError::Io {
        path: path.to_path_buf(),
        source: e,
    }
}

/// Write `codes` in `format` to `path` with the game's `header` fields.
/// Returns the bytes written.
pub(crate) fn write(
    path: &Path,
    format: &Format,
    mut header: NewHeader,
    codes: &[u16],
    packing: &Packing,
) -> Result<u64, TablebaseError> {
    let blocks: Result<Vec<Vec<u8>>, std::io::Error> = codes
        .par_chunks(packing.block_len)
        .map(|chunk| {
            let mut raw = Vec::with_capacity(chunk.len() + chunk.len() / 8);
            let mut before = packing.fill.unwrap_or(NONE);
            for &c in chunk {
                let c = match packing.fill {
                    Some(_) if c == NONE => before,
                    _ => c,
                };
                before = c;
                packing.width.encode(c, &mut raw);
            }
            zstd::bulk::compress(&raw, packing.level)
        })
        .collect();
    let blocks = blocks.map_err(|e| io_err(path, e))?;
    let mut offsets = Vec::with_capacity(blocks.len() + 1);
    let mut at = (HEADER + 8 * (blocks.len() + 1)) as u64;
    for b in &blocks {
        offsets.push(at);
        at += b.len() as u64;
    }
    offsets.push(at);
    header
        .put(0, format.magic)
        .put(8, &format.version.to_le_bytes())
        .put(
            format.block_len_at,
            &(packing.block_len as u32).to_le_bytes(),
        )
        .put_u64s(format.blocks_at, &[blocks.len() as u64])
        .put_u64s(format.payload_at, &[at - HEADER as u64]);
    let offset_bytes: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header.0[..format.crc_at]);
    crc.update(&offset_bytes);
    for b in &blocks {
        crc.update(b);
    }
    header.put(format.crc_at, &crc.finalize().to_le_bytes());
    let file = File::create(path).map_err(|e| io_err(path, e))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    w.write_all(&header.0).map_err(|e| io_err(path, e))?;
    w.write_all(&offset_bytes).map_err(|e| io_err(path, e))?;
    for b in &blocks {
        w.write_all(b).map_err(|e| io_err(path, e))?;
    }
    let file = w.into_inner().map_err(|e| io_err(path, e.into_error()))?;
    file.sync_all().map_err(|e| io_err(path, e))?;
    Ok(at)
}

/// Why a header is refused.
pub(crate) enum Refusal {
    /// Another game's, rules', table's or format's file.
    Foreign(String),
    /// A damaged file.
    Corrupt(String),
}

/// The header of a file being opened, its magic and version checked.
pub(crate) struct Header<'a> {
    bytes: &'a [u8],
    format: &'a Format,
}

impl Header<'_> {
    /// The byte at `at`.
    pub(crate) fn u8(&self, at: usize) -> u8 {
        self.bytes[at]
    }

    /// The 16-bit number at `at`.
    pub(crate) fn u16(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])
    }

    /// The 32-bit number at `at`.
    pub(crate) fn u32(&self, at: usize) -> u32 {
        u32_at(self.bytes, at)
    }

    /// The 64-bit number at `at`.
    pub(crate) fn u64(&self, at: usize) -> u64 {
        u64_at(self.bytes, at)
    }

    /// Values per block.
    pub(crate) fn block_len(&self) -> usize {
        self.u32(self.format.block_len_at) as usize
    }

    /// Blocks.
    fn blocks(&self) -> u64 {
        self.u64(self.format.blocks_at)
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

/// What a game reads from a header it accepts: the values' width and
/// count.
pub(crate) struct Shape {
    /// The width.
    pub(crate) width: Width,
    /// Values in the file.
    pub(crate) values: u64,
}

thread_local! {
    /// One decompression context per thread (making one costs more than
    /// decompressing a block).
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        std::cell::RefCell::new(zstd::bulk::Decompressor::new().ok());
}

/// A decompressed block and its number.
type CachedBlock = (u64, Box<[u16]>);

/// An opened, checked file.
pub(crate) struct Container {
    path: PathBuf,
    map: Mmap,
    width: Width,
    block_len: usize,
    blocks: u64,
    values: u64,
    recent: Vec<Mutex<Option<CachedBlock>>>,
    kept: Option<Kept<u16>>,
}

impl Container {
    /// Open and check the file at `path` in `format`: `missing` is the
    /// error when there is no file, `read` checks the game's header fields
    /// (after the magic and the version, before the blocks, the length and
    /// the checksum) and returns what the game keeps of them.
    pub(crate) fn open<T>(
        path: &Path,
        format: &'static Format,
        missing: impl FnOnce() -> TablebaseError,
        read: impl FnOnce(&Header<'_>) -> Result<(T, Shape), Refusal>,
    ) -> Result<(Container, T), TablebaseError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(missing()),
            Err(e) => return Err(io_err(path, e)),
        };
        // SAFETY: the file is opened read-only; the database files are
        // written once (to a temporary name, then renamed) and not changed
        // in place while they are read.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| io_err(path, e))?;
        let refused = |r: Refusal| match r {
            Refusal::Foreign(why) => TablebaseError::Foreign {
                path: path.to_path_buf(),
                why,
            },
            Refusal::Corrupt(why) => TablebaseError::Corrupt {
                path: path.to_path_buf(),
                why,
            },
        };
        let header = Self::check(&map, format).map_err(refused)?;
        let (fields, shape) = read(&header).map_err(refused)?;
        let (blocks, block_len) = (header.blocks(), header.block_len());
        if block_len == 0 || blocks != shape.values.div_ceil(block_len as u64) {
            return Err(refused(Refusal::Corrupt(format!(
                "{blocks} blocks of {block_len} values do not hold {} values",
                shape.values
            ))));
        }
        Self::check_payload(&map, format, blocks).map_err(refused)?;
        Ok((
            Container {
                path: path.to_path_buf(),
                width: shape.width,
                block_len,
                blocks,
                values: shape.values,
                recent: (0..format.recent).map(|_| Mutex::new(None)).collect(),
                kept: format.keep.map(|budget| Kept::new(budget, blocks)),
                map,
            },
            fields,
        ))
    }

    /// The header's length, magic and version.
    fn check<'a>(map: &'a [u8], format: &'a Format) -> Result<Header<'a>, Refusal> {
        if map.len() < HEADER {
            return Err(Refusal::Corrupt(format!(
                "the file has {} bytes, less than its header",
                map.len()
            )));
        }
        if &map[0..8] != format.magic {
            return Err(Refusal::Foreign(format!(
                "not a brett {} database file",
                format.game
            )));
        }
        let version = u32_at(map, 8);
        if version != format.version {
            return Err(Refusal::Foreign(format!(
                "format version {version}, this brett reads version {}: build the database again",
                format.version
            )));
        }
        Ok(Header {
            bytes: &map[..HEADER],
            format,
        })
    }

    /// The file's length, checksum and block offsets.
    fn check_payload(map: &[u8], format: &Format, blocks: u64) -> Result<(), Refusal> {
        let payload = u64_at(map, format.payload_at);
        if map.len() as u64 != HEADER as u64 + payload {
            return Err(Refusal::Corrupt(format!(
                "the file has {} bytes, its header says {} (truncated or extended)",
                map.len(),
                HEADER as u64 + payload
            )));
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&map[..format.crc_at]);
        crc.update(&map[HEADER..]);
        if crc.finalize() != u32_at(map, format.crc_at) {
            return Err(Refusal::Corrupt(
                "the checksum does not match: the file is damaged".to_string(),
            ));
        }
        let offsets_end = HEADER as u64 + 8 * (blocks + 1);
        if offsets_end > map.len() as u64 {
            return Err(Refusal::Corrupt("the block table is cut off".to_string()));
        }
        for i in 0..=blocks as usize {
            let o = u64_at(map, HEADER + 8 * i);
            if o < offsets_end || o > map.len() as u64 {
                return Err(Refusal::Corrupt(
                    "a block offset points outside the file".to_string(),
                ));
            }
        }
        Ok(())
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes on disk.
    pub(crate) fn bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// The width of the values.
    #[cfg(test)]
    pub(crate) fn width(&self) -> Width {
        self.width
    }

    /// Values per block.
    pub(crate) fn block_len(&self) -> usize {
        self.block_len
    }

    /// Blocks.
    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }

    /// The file is damaged: `why`.
    pub(crate) fn corrupt(&self, why: String) -> TablebaseError {
        TablebaseError::Corrupt {
            path: self.path.clone(),
            why,
        }
    }

    /// Block `b` decompressed.
    pub(crate) fn block(&self, b: u64) -> Result<Box<[u16]>, TablebaseError> {
        let start = u64_at(&self.map, HEADER + 8 * b as usize) as usize;
        let end = u64_at(&self.map, HEADER + 8 * (b as usize + 1)) as usize;
        let n = (self.values - b * self.block_len as u64).min(self.block_len as u64) as usize;
        if start > end || end > self.map.len() {
            return Err(self.corrupt(format!("block {b} lies outside the file")));
        }
        let capacity = self.width.capacity(n);
        let raw = DECOMPRESSOR
            .with(|d| match d.borrow_mut().as_mut() {
                Some(d) => d.decompress(&self.map[start..end], capacity),
                None => zstd::bulk::decompress(&self.map[start..end], capacity),
            })
            .map_err(|e| self.corrupt(format!("block {b} cannot be decompressed: {e}")))?;
        self.width
            .decode(&raw, n)
            .map_err(|why| self.corrupt(format!("block {b} {why}")))
    }

    /// The value at `at` (below the number of values), read through the
    /// kept and the last blocks.
    pub(crate) fn code(&self, at: u64) -> Result<u16, TablebaseError> {
        let b = at / self.block_len as u64;
        let within = (at % self.block_len as u64) as usize;
        if let Some(data) = self.kept.as_ref().and_then(|k| k.get(b)) {
            return Ok(data[within]);
        }
        let slot = &self.recent[(b as usize) % self.recent.len()];
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
        let data = match &self.kept {
            Some(kept) => kept.keep(b, data).err(),
            None => Some(data),
        };
        if let Some(data) = data {
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some((b, data));
        }
        Ok(code)
    }

    /// Every value, block after block.
    pub(crate) fn all(&self) -> Result<Vec<u16>, TablebaseError> {
        // Each block is decoded into its place: the values are held once.
        let mut out = vec![0u16; self.values as usize];
        out.par_chunks_mut(self.block_len)
            .enumerate()
            .try_for_each(|(b, dst)| {
                let part = self.block(b as u64)?;
                if part.len() != dst.len() {
                    return Err(self.corrupt(format!(
                        "block {b} holds {} values, not {}",
                        part.len(),
                        dst.len()
                    )));
                }
                dst.copy_from_slice(&part);
                Ok(())
            })?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static TEST: Format = Format {
        magic: b"BRETTTST",
        version: 7,
        game: "test",
        block_len_at: 20,
        blocks_at: 24,
        payload_at: 32,
        crc_at: 40,
        recent: 2,
        keep: None,
    };

    fn open(path: &Path, values: u64, width: Width) -> Result<Container, TablebaseError> {
        let missing = || TablebaseError::NotCovered("missing".to_string());
        Container::open(path, &TEST, missing, |h| {
            if h.u8(16) != 5 {
                return Err(Refusal::Foreign("not five".to_string()));
            }
            Ok(((), Shape { width, values }))
        })
        .map(|(c, ())| c)
    }

    /// Every width and both ways of storing unused values read back what
    /// was written, through whole blocks and single values.
    #[test]
    fn every_width_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let codes: Vec<u16> = (0..10_000u32)
            .map(|i| match i % 13 {
                0 => DRAW,
                1 => NONE,
                _ => (i % 700) as u16,
            })
            .collect();
        for (width, fill) in [
            (Width::Byte, None),
            (Width::Pair, None),
            (Width::Pair, Some(DRAW)),
            (Width::Escaped, None),
            (Width::Escaped, Some(NONE)),
        ] {
            // Byte holds codes below 254 only.
            let codes: Vec<u16> = match width {
                Width::Byte => codes
                    .iter()
                    .map(|&c| if c == DRAW || c == NONE { c } else { c % 254 })
                    .collect(),
                _ => codes.clone(),
            };
            let path = dir.path().join(format!("{width:?}-{fill:?}"));
            let mut header = NewHeader::new();
            header.put(16, &[5]);
            let packing = Packing {
                block_len: 1000,
                level: 3,
                width,
                fill,
            };
            let bytes = write(&path, &TEST, header, &codes, &packing).unwrap();
            assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
            let file = open(&path, codes.len() as u64, width).unwrap();
            assert_eq!(file.blocks(), 10);
            assert_eq!(file.width(), width);
            let expected: Vec<u16> = match fill {
                None => codes.clone(),
                Some(first) => {
                    let mut before = first;
                    codes
                        .iter()
                        .enumerate()
                        .map(|(i, &c)| {
                            if i % 1000 == 0 {
                                before = first;
                            }
                            if c != NONE {
                                before = c;
                            }
                            before
                        })
                        .collect()
                }
            };
            assert_eq!(file.all().unwrap(), expected, "{width:?} {fill:?}");
            for at in [0, 1, 999, 1000, 5431, 9999] {
                assert_eq!(file.code(at).unwrap(), expected[at as usize]);
            }
        }
    }

    /// Another game's file, a header the game refuses, a damaged block and
    /// a missing file each give their error.
    #[test]
    fn refusals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut header = NewHeader::new();
        header.put(16, &[5]);
        let packing = Packing {
            block_len: 100,
            level: 3,
            width: Width::Pair,
            fill: None,
        };
        write(&path, &TEST, header, &[1, 2, 3], &packing).unwrap();
        let good = std::fs::read(&path).unwrap();
        assert!(open(&path, 3, Width::Pair).is_ok());
        // Read one byte a value, the three pairs are six values.
        let e = open(&path, 3, Width::Escaped).unwrap().all().unwrap_err();
        assert!(e.to_string().contains("wrong length"), "{e}");
        let mut other = good.clone();
        other[0..8].copy_from_slice(b"BRETTMTB");
        std::fs::write(&path, &other).unwrap();
        let e = open(&path, 3, Width::Pair).err().unwrap();
        assert!(
            e.to_string().contains("not a brett test database file"),
            "{e}"
        );
        let mut refused = good.clone();
        refused[16] = 4;
        std::fs::write(&path, &refused).unwrap();
        let e = open(&path, 3, Width::Pair).err().unwrap();
        assert!(matches!(e, TablebaseError::Foreign { .. }), "{e}");
        let mut blocks = good.clone();
        blocks[24] = 2;
        std::fs::write(&path, &blocks).unwrap();
        let e = open(&path, 3, Width::Pair).err().unwrap();
        assert!(e.to_string().contains("do not hold 3 values"), "{e}");
        let mut newer = good.clone();
        newer[8] = 8;
        std::fs::write(&path, &newer).unwrap();
        let e = open(&path, 3, Width::Pair).err().unwrap();
        assert!(e.to_string().contains("format version 8"), "{e}");
        std::fs::write(&path, &good[..good.len() - 1]).unwrap();
        let e = open(&path, 3, Width::Pair).err().unwrap();
        assert!(e.to_string().contains("truncated"), "{e}");
        let e = open(&dir.path().join("none"), 3, Width::Pair)
            .err()
            .unwrap();
        assert!(matches!(e, TablebaseError::NotCovered(_)), "{e}");
    }
}
