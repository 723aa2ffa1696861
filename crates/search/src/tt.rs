//! The transposition table: clusters of four 16-byte entries (one cache
//! line), lock-free and shared by all search threads. Each entry stores its
//! key XOR its data, so a torn write by two threads is detected as a miss.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

impl Bound {
    /// How the best score `best` of a search with the window (`alpha`,
    /// `beta`) bounds the true score.
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What a probe finds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Index of the best move in the position's legal move list.
    pub move_index: Option<u16>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

const CLUSTER: usize = 4;
const NO_MOVE: u64 = 0xFFFF;

#[repr(align(64))]
#[derive(Default)]
struct Cluster([Slot; CLUSTER]);

/// A shared transposition table.
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    age: AtomicU8,
}

fn pack(move_index: Option<u16>, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let mv = move_index.map_or(NO_MOVE, u64::from);
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.clamp(0, 255) as u64;
    let flags = (bound as u64) | (u64::from(age & 0x3F) << 2);
    mv | score << 16 | eval << 32 | depth << 48 | flags << 56
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = data & 0xFFFF;
    Some(Entry {
        move_index: (mv != NO_MOVE).then_some(mv as u16),
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 0xFF) as i32,
        bound,
    })
}

fn age_of(data: u64) -> u8 {
    ((data >> 58) & 0x3F) as u8
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

/// Ask Linux to back a large table with 2 MiB pages before it is first
/// written: a probe anywhere in the table then rarely misses the TLB as
/// well as the cache. Only advice; where it is not taken nothing changes.
fn advise_huge_pages(start: *const u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let addr = start as usize;
        let first = addr.next_multiple_of(PAGE);
        let end = (addr + len) / PAGE * PAGE;
        if len >= 4 << 20 && end > first {
            // SAFETY: madvise only advises the kernel about pages of this
            // process's own allocation (the range lies inside it); it
            // changes no memory and its failure is harmless.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one cluster).
    pub fn new(mib: usize) -> TranspositionTable {
        let n = (mib.max(1) * 1024 * 1024 / std::mem::size_of::<Cluster>()).max(1);
        let mut clusters: Vec<Cluster> = Vec::with_capacity(n);
        advise_huge_pages(clusters.as_ptr().cast(), n * std::mem::size_of::<Cluster>());
        clusters.resize_with(n, Cluster::default);
        TranspositionTable {
            clusters,
            age: AtomicU8::new(0),
        }
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// Forget everything.
    pub fn clear(&self) {
        for c in &self.clusters {
            for s in &c.0 {
                s.key.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Start a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a.wrapping_add(1) & 0x3F, Ordering::Relaxed);
    }

    fn cluster(&self, hash: u64) -> &Cluster {
        let i = ((u128::from(hash) * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// Ask the processor to bring the position's cluster into the cache,
    /// so that a probe soon after does not wait for memory. Call it as soon
    /// as a child's hash is known, before the work that comes ahead of its
    /// probe.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p: *const Cluster = self.cluster(hash);
            // SAFETY: SSE, which the prefetch needs, is part of every
            // x86_64 processor; a prefetch only hints the cache and never
            // reads the memory as a value.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Look a position up.
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        for s in &self.cluster(hash).0 {
            let data = s.data.load(Ordering::Relaxed);
            if s.key.load(Ordering::Relaxed) ^ data == hash {
                return unpack(data);
            }
        }
        None
    }

    /// Store a search result.
    pub fn store(
        &self,
        hash: u64,
        move_index: Option<u16>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let cluster = self.cluster(hash);
        let mut victim = &cluster.0[0];
        let mut victim_worth = i32::MAX;
        for s in &cluster.0 {
            let data = s.data.load(Ordering::Relaxed);
            let key = s.key.load(Ordering::Relaxed) ^ data;
            if key == hash || data == 0 {
                // Keep the old best move if the new result has none.
                let move_index = move_index.or_else(|| unpack(data).and_then(|e| e.move_index));
                if key == hash && bound != Bound::Exact && depth + 2 < depth_of(data) {
                    return; // a much deeper result stays
                }
                let new = pack(move_index, score, eval, depth, bound, age);
                s.data.store(new, Ordering::Relaxed);
                s.key.store(hash ^ new, Ordering::Relaxed);
                return;
            }
            let age_diff = i32::from(age.wrapping_sub(age_of(data)) & 0x3F);
            let worth = depth_of(data) - 8 * age_diff;
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        let new = pack(move_index, score, eval, depth, bound, age);
        victim.data.store(new, Ordering::Relaxed);
        victim.key.store(hash ^ new, Ordering::Relaxed);
    }

    /// Permille of the first thousand clusters' entries used in this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.clusters.len().min(250);
        let mut used = 0;
        for c in &self.clusters[..n] {
            for s in &c.0 {
                let d = s.data.load(Ordering::Relaxed);
                if d != 0 && age_of(d) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * CLUSTER).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_follows_the_window() {
        assert_eq!(Bound::of(50, 10, 50), Bound::Lower);
        assert_eq!(Bound::of(49, 10, 50), Bound::Exact);
        assert_eq!(Bound::of(10, 10, 50), Bound::Upper);
        assert_eq!(Bound::of(-5, 10, 50), Bound::Upper);
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF_1234_5678, Some(7), -1234, 56, 9, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored");
        assert_eq!(e.move_index, Some(7));
        assert_eq!(e.score, -1234);
        assert_eq!(e.eval, 56);
        assert_eq!(e.depth, 9);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0x1111).is_none());
    }

    #[test]
    fn deeper_entries_survive_in_a_full_cluster() {
        let tt = TranspositionTable::new(1);
        let n = tt.clusters.len() as u64;
        // Hashes that map to cluster 0: the top bits decide the cluster.
        let keys: Vec<u64> = (0..6).map(|i| i + 1).collect();
        assert!(
            keys.iter()
                .all(|&k| ((u128::from(k) * u128::from(n)) >> 64) == 0)
        );
        for (i, &k) in keys.iter().enumerate() {
            tt.store(
                k,
                None,
                0,
                0,
                if i == 0 { 30 } else { i as i32 },
                Bound::Exact,
            );
        }
        assert_eq!(tt.probe(keys[0]).map(|e| e.depth), Some(30));
    }

    #[test]
    fn a_table_large_enough_for_huge_pages_stores_and_prefetches() {
        let tt = TranspositionTable::new(8);
        assert_eq!(tt.size_mib(), 8);
        for k in 1..=1000u64 {
            let hash = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.prefetch(hash);
            tt.store(hash, Some(k as u16), k as i32, 0, 4, Bound::Exact);
        }
        let found = (1..=1000u64)
            .filter(|&k| {
                let hash = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                tt.probe(hash).map(|e| e.score) == Some(k as i32)
            })
            .count();
        assert_eq!(found, 1000);
    }

    #[test]
    fn clear_forgets() {
        let tt = TranspositionTable::new(1);
        tt.store(42, Some(1), 5, 5, 5, Bound::Exact);
        tt.clear();
        assert!(tt.probe(42).is_none());
    }
}
