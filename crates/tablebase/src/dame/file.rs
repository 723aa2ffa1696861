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

use std::path::Path;

use rayon::prelude::*;

use super::{Layout, Material, layers, rules_fingerprint};
use crate::budget::MemoryBudget;
use crate::container::{self, Container, Format, NewHeader, Packing, Refusal, Shape, Width};
use crate::value::{DRAW, NONE};
use crate::{TablebaseError, Value};
use dame::RuleSet;

/// The Dame file format's version.
pub const DAME_FORMAT_VERSION: u32 = 1;
const BLOCK: usize = 16384;

/// The Dame files in the container: 32 decompressed blocks kept per file,
/// and every block read while the Dame block cache has room.
static FORMAT: Format = Format {
    magic: b"BRETTDTB",
    version: DAME_FORMAT_VERSION,
    game: "Dame",
    block_len_at: 40,
    blocks_at: 48,
    payload_at: 96,
    crc_at: 104,
    recent: 32,
    keep: Some(&KEPT),
};

/// How the values are written: two bytes each, an index without a
/// position repeating the value before it.
const PACKING: Packing = Packing {
    block_len: BLOCK,
    level: 15,
    width: Width::Pair,
    fill: Some(DRAW),
};

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
    let mut header = NewHeader::new();
    header
        .put(16, &rules_fingerprint(rules).to_le_bytes())
        .put(
            24,
            &[
                rules.board.side(),
                material.wm,
                material.wk,
                material.bm,
                material.bk,
            ],
        )
        .put(30, &(nlayers as u16).to_le_bytes())
        .put_u64s(32, &[(codes.len() / nlayers) as u64])
        .put_u64s(
            56,
            &[stats.positions, stats.wins, stats.draws, stats.losses],
        )
        .put(88, &stats.longest_win.to_le_bytes())
        .put(90, &stats.longest_loss.to_le_bytes());
    let tmp = path.with_extension("part");
    let bytes = container::write(&tmp, &FORMAT, header, codes, &PACKING)?;
    std::fs::rename(&tmp, path).map_err(|e| container::io_err(path, e))?;
    Ok(bytes)
}

/// An opened, checked Dame table file; values are read block by block
/// (memory-mapped), the last blocks read kept decompressed, and every block
/// once read while the memory limit of [`set_dame_cache_limit`] allows: a
/// search probes the same blocks again and again, and decompressing one
/// costs a hundred search nodes.
pub struct DameFile {
    file: Container,
    material: Material,
    layers: usize,
    size: u64,
    stats: DameStats,
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

impl DameFile {
    /// Open and check the table of `material` under `rules`: a foreign
    /// (other rules, material or format) or damaged (checksum, length)
    /// file is refused with a message saying so.
    pub fn open(
        path: &Path,
        rules: &RuleSet,
        material: Material,
    ) -> Result<DameFile, TablebaseError> {
        let missing = || {
            TablebaseError::NotCovered(format!(
                "the {material} table for '{}' is not built (no file {}); build it with: brett tablebase build --game {}",
                super::rules_tag(rules),
                path.display(),
                super::rules_tag(rules)
            ))
        };
        let (file, (nlayers, size, stats)) = Container::open(path, &FORMAT, missing, |h| {
            let fp = h.u64(16);
            if fp != rules_fingerprint(rules) || h.u8(24) != rules.board.side() {
                return Err(Refusal::Foreign(format!(
                    "made for other rules (fingerprint {fp:#x}), not for '{}'",
                    super::rules_tag(rules)
                )));
            }
            let found = Material::new(h.u8(25), h.u8(26), h.u8(27), h.u8(28));
            if found != material {
                return Err(Refusal::Foreign(format!("holds {found}, not {material}")));
            }
            let nlayers = usize::from(h.u16(30));
            let size = h.u64(32);
            let values = size * nlayers as u64;
            if nlayers != layers(rules, material)
                || h.block_len() != BLOCK
                || size != Layout::new(rules.board, material).size()
            {
                return Err(Refusal::Corrupt(
                    "the header does not fit the table".to_string(),
                ));
            }
            let stats = DameStats {
                positions: h.u64(56),
                wins: h.u64(64),
                draws: h.u64(72),
                losses: h.u64(80),
                longest_win: h.u16(88),
                longest_loss: h.u16(90),
            };
            Ok((
                (nlayers, size, stats),
                Shape {
                    width: Width::Pair,
                    values,
                },
            ))
        })?;
        Ok(DameFile {
            file,
            material,
            layers: nlayers,
            size,
            stats,
        })
    }

    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.file.path()
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
        self.file.bytes()
    }

    /// The build code of `index` at ending counter `layer` (clamped to the
    /// last layer).
    pub(crate) fn code(&self, index: u64, layer: usize) -> Result<u16, TablebaseError> {
        if index >= self.size {
            return Err(self
                .file
                .corrupt(format!("index {index} beyond the table's {}", self.size)));
        }
        self.file
            .code(index * self.layers as u64 + layer.min(self.layers - 1) as u64)
    }

    /// All codes (index by index, layer by layer) as the file holds them:
    /// an index without a position holds a value no probe reads. What the
    /// builder holds of a finished table.
    pub(crate) fn raw_codes(&self) -> Result<Vec<u16>, TablebaseError> {
        self.file.all()
    }

    /// All codes (index by index, layer by layer), indices without a
    /// position marked as such.
    pub(crate) fn all_codes(&self, board: dame::BoardSize) -> Result<Vec<u16>, TablebaseError> {
        let mut out = self.file.all()?;
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
