//! Checking a built sector against its own moves.

use std::path::Path;

use rayon::prelude::*;

use super::build::sector_path;
use super::index::SectorIndex;
use super::moves::for_each_move;
use crate::value::NONE;
use crate::{Sector, SectorFile, TablebaseError, Value, Variant};

/// What [`verify`] found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Positions (symmetry classes) checked.
    pub checked: u64,
    /// Positions whose value does not follow from their moves.
    pub errors: u64,
    /// A few of them, described.
    pub examples: Vec<String>,
}

/// Check every position of `sector`: a win in d has a move to a loss in
/// d − 1 and none to a shorter one, a loss in d has only moves to wins, the
/// longest in d − 1 (a loss in 0: no move), a draw has a move to a draw and
/// none to a loss. Needs the sector, its swap and the sector a removal
/// leads to.
pub fn verify(
    dir: &Path,
    variant: Variant,
    sector: Sector,
) -> Result<VerifyReport, TablebaseError> {
    let open = |s: Sector| SectorFile::open(&sector_path(dir, variant, s), variant, s);
    let own = open(sector)?.all_codes()?;
    let swap = if sector.swapped() == sector {
        None
    } else {
        Some(open(sector.swapped())?.all_codes()?)
    };
    let swap_codes = swap.as_deref().unwrap_or(&own);
    let lower = match sector.after_removal() {
        Some(l) => Some((
            SectorIndex::new(u32::from(l.mover), u32::from(l.other)),
            open(l)?.all_codes()?,
        )),
        None => None,
    };
    let index = SectorIndex::new(u32::from(sector.mover), u32::from(sector.other));
    let swap_index = SectorIndex::new(u32::from(sector.other), u32::from(sector.mover));
    let per = index.block_of(0).1 as usize;
    let (checked, errors, examples) = own
        .par_chunks(per)
        .enumerate()
        .map(|(r, chunk)| {
            let mut checked = 0u64;
            let mut errors = 0u64;
            let mut examples = Vec::new();
            for (j, &c) in chunk.iter().enumerate() {
                if c == NONE {
                    continue;
                }
                let i = (r * per + j) as u64;
                let (mover, other) = index.position(i);
                checked += 1;
                let mut best: Option<Value> = None;
                let mut broken = false;
                for_each_move(variant, mover, other, |nm, no, removed| {
                    let child = if removed {
                        match &lower {
                            None => Value::Loss(0),
                            Some((li, codes)) => {
                                decode(codes[li.index(nm, no) as usize], &mut broken)
                            }
                        }
                    } else {
                        decode(swap_codes[swap_index.index(nm, no) as usize], &mut broken)
                    };
                    let v = child.back();
                    if best.is_none_or(|b| v.rank() > b.rank()) {
                        best = Some(v);
                    }
                });
                let expected = best.unwrap_or(Value::Loss(0));
                let stored = Value::from_code(c);
                if broken || stored != expected {
                    errors += 1;
                    if examples.len() < 5 {
                        let fen =
                            crate::position_of(mover, other, muehle::Color::White, variant.rules())
                                .map(|p| p.fen())
                                .unwrap_or_default();
                        examples.push(format!("{fen}: stored {stored}, its moves give {expected}"));
                    }
                }
            }
            (checked, errors, examples)
        })
        .reduce(
            || (0, 0, Vec::new()),
            |a, b| {
                let mut ex = a.2;
                ex.extend(b.2.into_iter().take(5usize.saturating_sub(ex.len())));
                (a.0 + b.0, a.1 + b.1, ex)
            },
        );
    Ok(VerifyReport {
        checked,
        errors,
        examples,
    })
}

fn decode(code: u16, broken: &mut bool) -> Value {
    if code == NONE {
        *broken = true;
        return Value::Draw;
    }
    Value::from_code(code)
}
