//! Mühle solved: perfect-play databases of the moving phase.
//!
//! brett computes its own databases of every position of the moving phase
//! (3 to 9 stones a side, none in hand) by retrograde analysis, as Gasser
//! and Gévay & Danner (Malom) did, and probes them for the engine, the
//! analysis and the app.
//!
//! - [`Sector`]s `W-B` (stones of the side to move and of the opponent),
//!   indexed with the 16 board symmetries reduced ([`SectorIndex`]).
//! - [`Value`](crate::Value)s for the side to move: win / draw / loss with
//!   the distance to the end in plies (the winner's shortest, the loser's
//!   longest).
//! - [`build`] solves sectors group by group in parallel (rayon) and writes
//!   one compact, checked file per sector ([`SectorFile`]); [`Tablebase`]
//!   probes them (memory-mapped); [`verify`] checks a built sector.
//! - One set of files per [`Variant`]: the removal rule and flying decide
//!   the values; the no-mill and repetition counters are not part of them.

mod build;
mod file;
mod index;
mod moves;
mod probe;
mod sector;
mod variant;
mod verify;

pub use build::{
    BuildOptions, BuildReport, GroupReport, NoProgress, Progress, build, build_sectors, sector_path,
};
pub use file::{
    BLOCK, DEFAULT_WDL_CACHE, ENCODING, FORMAT_VERSION, RepackReport, SectorFile, SectorStats,
    repack, set_wdl_cache_limit, wdl_cache_bytes,
};
pub use index::{MoverPart, SectorIndex};
pub use probe::{Tablebase, position_of};
pub use sector::{Sector, closure, parse_sectors};
pub use variant::Variant;
pub use verify::{VerifyReport, verify};
