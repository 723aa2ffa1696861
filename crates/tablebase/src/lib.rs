//! # tablebase — Mühle solved: perfect-play databases of the moving phase
//!
//! brett computes its own databases of every position of the moving phase
//! (3 to 9 stones a side, none in hand) by retrograde analysis, as Gasser
//! and Gévay & Danner (Malom) did, and probes them for the engine, the
//! analysis and the app.
//!
//! - [`Sector`]s `W-B` (stones of the side to move and of the opponent),
//!   indexed with the 16 board symmetries reduced ([`SectorIndex`]).
//! - [`Value`]s for the side to move: win / draw / loss with the distance to
//!   the end in plies (the winner's shortest, the loser's longest).
//! - [`build`] solves sectors group by group in parallel (rayon) and writes
//!   one compact, checked file per sector ([`SectorFile`]); [`Tablebase`]
//!   probes them (memory-mapped); [`verify`] checks a built sector.
//! - One set of files per [`Variant`]: the removal rule and flying decide
//!   the values; the no-mill and repetition counters are not part of them.

#![warn(missing_docs)]

mod budget;
mod build;
pub mod dame;
mod file;
mod index;
mod moves;
mod probe;
mod sector;
mod value;
mod variant;
mod verify;

use std::path::PathBuf;

pub use build::{BuildOptions, BuildReport, GroupReport, NoProgress, Progress, build, sector_path};
pub use file::{
    BLOCK, DEFAULT_WDL_CACHE, ENCODING, FORMAT_VERSION, RepackReport, SectorFile, SectorStats,
    repack, set_wdl_cache_limit, wdl_cache_bytes,
};
pub use index::{MoverPart, SectorIndex};
pub use probe::{Tablebase, position_of};
pub use sector::{Sector, closure, parse_sectors};
pub use value::{Value, Wdl};
pub use variant::Variant;
pub use verify::{VerifyReport, verify};

/// What can go wrong with the databases.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The sector has not been built.
    #[error(
        "sector {sector} of the '{variant}' database is not built (no file {}); build it with: brett tablebase build --rules {variant} --sectors {sector}",
        path.display()
    )]
    Missing {
        /// Where the file should be.
        path: PathBuf,
        /// The sector.
        sector: Sector,
        /// The rules.
        variant: Variant,
    },
    /// The file belongs to other rules, another sector or format.
    #[error("{}: refused, {why}", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// Why it does not fit.
        why: String,
    },
    /// The file is damaged.
    #[error("{}: refused, {why}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A sector name that cannot be read.
    #[error("{0}")]
    BadSector(String),
    /// The position is not one the databases hold.
    #[error("{0}")]
    NotCovered(String),
}

/// The default database folder: `$XDG_DATA_HOME/brett/tablebase`, else
/// `$HOME/.local/share/brett/tablebase`, else `./tablebase`.
pub fn default_dir() -> PathBuf {
    let non_empty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(x) = non_empty("XDG_DATA_HOME") {
        return PathBuf::from(x).join("brett").join("tablebase");
    }
    if let Some(h) = non_empty("HOME") {
        return PathBuf::from(h)
            .join(".local")
            .join("share")
            .join("brett")
            .join("tablebase");
    }
    PathBuf::from("tablebase")
}
