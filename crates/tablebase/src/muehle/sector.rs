//! Sectors: positions of the moving phase by the number of stones.

use std::fmt;
use std::str::FromStr;

use crate::TablebaseError;

/// The positions with `mover` stones of the side to move and `other` of the
/// opponent on the board (3 to 9 each), none in hand. Written `W-B` as the
/// stones of White (to move) and Black: Black to move in `W-B` is White to
/// move in `B-W` with the colours swapped, so only one side to move is
/// stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sector {
    /// Stones of the side to move.
    pub mover: u8,
    /// Stones of the opponent.
    pub other: u8,
}

impl Sector {
    /// Sector `mover-other`, if both are 3 to 9.
    pub fn new(mover: u8, other: u8) -> Option<Sector> {
        ((3..=9).contains(&mover) && (3..=9).contains(&other)).then_some(Sector { mover, other })
    }

    /// Every sector up to `n` stones a side, in build order.
    pub fn all_up_to(n: u8) -> Vec<Sector> {
        let mut out: Vec<Sector> = (3..=n.min(9))
            .flat_map(|a| (3..=n.min(9)).map(move |b| Sector { mover: a, other: b }))
            .collect();
        out.sort_by_key(|s| s.order_key());
        out
    }

    /// The sector after a move without removal: the opponent moves next.
    pub fn swapped(self) -> Sector {
        Sector {
            mover: self.other,
            other: self.mover,
        }
    }

    /// The sector after a move that removes a stone, if the opponent keeps
    /// three or more (else the move wins at once).
    pub fn after_removal(self) -> Option<Sector> {
        Sector::new(self.other - 1, self.mover)
    }

    /// The sectors solved together: this one and its swap (moves without
    /// removal go back and forth between them). Smaller first.
    pub fn group(self) -> Vec<Sector> {
        let s = self.swapped();
        if s == self {
            vec![self]
        } else {
            let mut v = vec![self.min(s), self.max(s)];
            v.dedup();
            v
        }
    }

    /// The sectors the group of this sector needs solved first.
    pub fn needs(self) -> Vec<Sector> {
        self.group()
            .into_iter()
            .filter_map(Sector::after_removal)
            .collect()
    }

    /// Build order: fewer stones first, a group's sectors together.
    pub fn order_key(self) -> (u8, u8, u8) {
        let g = self.group();
        (self.mover + self.other, g[0].mover, self.mover)
    }

    /// The file name `W-B.tb`.
    pub fn file_name(self) -> String {
        format!("{}-{}.tb", self.mover, self.other)
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.mover, self.other)
    }
}

impl FromStr for Sector {
    type Err = TablebaseError;
    fn from_str(s: &str) -> Result<Sector, TablebaseError> {
        let bad = || {
            TablebaseError::BadSector(format!(
                "'{s}' is not a sector: write W-B with the stones of the side to move and of the opponent, each 3 to 9 (e.g. 3-3, 4-3)"
            ))
        };
        let (a, b) = s.trim().split_once('-').ok_or_else(bad)?;
        let a: u8 = a.trim().parse().map_err(|_| bad())?;
        let b: u8 = b.trim().parse().map_err(|_| bad())?;
        Sector::new(a, b).ok_or_else(bad)
    }
}

/// Parse a list like `3-3,4-3` (or with spaces).
pub fn parse_sectors(text: &str) -> Result<Vec<Sector>, TablebaseError> {
    text.split([',', ' '])
        .filter(|p| !p.trim().is_empty())
        .map(str::parse)
        .collect()
}

/// The sectors to build for `targets`, with everything they need, in
/// build order; each group's sectors together.
pub fn closure(targets: &[Sector]) -> Vec<Sector> {
    let mut todo: Vec<Sector> = targets.iter().flat_map(|s| s.group()).collect();
    let mut seen = std::collections::BTreeSet::new();
    while let Some(s) = todo.pop() {
        if seen.insert(s) {
            todo.extend(s.group());
            todo.extend(s.needs().into_iter().flat_map(Sector::group));
        }
    }
    let mut out: Vec<Sector> = seen.into_iter().collect();
    out.sort_by_key(|s| s.order_key());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_dependencies() {
        let s: Sector = "4-4".parse().unwrap();
        assert_eq!(s.needs(), vec![Sector::new(3, 4).unwrap()]);
        let c = closure(&[s]);
        let names: Vec<String> = c.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["3-3", "3-4", "4-3", "4-4"]);
        assert!("2-3".parse::<Sector>().is_err());
        assert!("x".parse::<Sector>().is_err());
        assert_eq!(Sector::all_up_to(9).len(), 49);
    }
}
