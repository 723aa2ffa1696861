//! Zobrist keys: a stream of pseudo-random 64-bit keys from a fixed seed
//! (SplitMix64), computed at compile time, from which each game draws the
//! keys of its pieces, hands and side to move in a fixed order (so the keys,
//! and every table keyed by them, stay the same from build to build).

/// The keys drawn one after the other from a seed.
#[derive(Clone, Copy, Debug)]
pub struct KeyStream {
    state: u64,
}

impl KeyStream {
    /// The stream of `seed`.
    pub const fn new(seed: u64) -> KeyStream {
        KeyStream { state: seed }
    }

    /// The next key.
    pub const fn next_key(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next `N` keys, filled from index `from` on (the ones before
    /// stay 0: a key that must not change the hash, like "no stones in
    /// hand").
    pub const fn keys<const N: usize>(&mut self, from: usize) -> [u64; N] {
        let mut out = [0u64; N];
        let mut i = from;
        while i < N {
            out[i] = self.next_key();
            i += 1;
        }
        out
    }

    /// `M` tables of the next `N` keys each, one table after the other.
    pub const fn tables<const N: usize, const M: usize>(&mut self) -> [[u64; N]; M] {
        let mut out = [[0u64; N]; M];
        let mut t = 0;
        while t < M {
            out[t] = self.keys(0);
            t += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64() {
        // SplitMix64 from seed 0: the reference's first outputs.
        let mut s = KeyStream::new(0);
        assert_eq!(s.next_key(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(s.next_key(), 0x6E78_9E6A_A1B9_65F4);
        let mut t = KeyStream::new(0);
        let keys: [u64; 3] = t.keys(1);
        assert_eq!(keys, [0, 0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4]);
    }
}
