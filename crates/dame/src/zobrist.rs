//! Zobrist keys, computed at compile time from a fixed seed.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

pub(crate) struct Keys {
    /// By piece kind (`2 * colour + is_king`) and bit.
    pub piece: [[u64; 64]; 4],
    pub black_to_move: u64,
}

pub(crate) const KEYS: Keys = {
    let mut state = 0x6461_6D65_2120_2021u64; // "dame !  "
    let mut piece = [[0u64; 64]; 4];
    let mut k = 0;
    while k < 4 {
        let mut i = 0;
        while i < 64 {
            let (s, v) = splitmix(state);
            state = s;
            piece[k][i] = v;
            i += 1;
        }
        k += 1;
    }
    let (_, black_to_move) = splitmix(state);
    Keys {
        piece,
        black_to_move,
    }
};
