//! # tablebase — perfect-play databases for Mühle and Dame
//!
//! brett computes its own databases by retrograde analysis and probes them
//! for the engine, the analysis and the app:
//!
//! - Mühle: every position of the moving phase (3 to 9 stones a side, none
//!   in hand), one file per [`Sector`] and [`Variant`] ([`SectorFile`]),
//!   probed by [`Tablebase`], built by [`build`], checked by [`verify`].
//! - Dame ([`dame`]): every position with a few pieces on 8×8 or 10×10,
//!   one file per material and rule set.
//!
//! Both kinds of file share one container: a 128-byte header with a
//! checksum, a table of block offsets and zstd-compressed blocks of
//! values, memory-mapped and read block by block.

#![warn(missing_docs)]

mod budget;
mod container;
pub mod dame;
mod muehle;
mod value;

use std::path::PathBuf;

pub use self::muehle::{
    BLOCK, BuildOptions, BuildReport, DEFAULT_WDL_CACHE, ENCODING, FORMAT_VERSION, GroupReport,
    MoverPart, NoProgress, Progress, RepackReport, Sector, SectorFile, SectorIndex, SectorStats,
    Tablebase, Variant, VerifyReport, build, build_sectors, closure, parse_sectors, position_of,
    repack, sector_path, set_wdl_cache_limit, verify, wdl_cache_bytes,
};
pub use value::{Value, Wdl};

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
