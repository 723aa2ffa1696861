//! Zobrist keys, computed at compile time from a fixed seed.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

pub(crate) struct Keys {
    pub stone: [[u64; 24]; 2],
    pub in_hand: [[u64; 10]; 2],
    pub black_to_move: u64,
}

pub(crate) const KEYS: Keys = {
    let mut state = 0x6D75_6568_6C65_2021u64; // "muehle !"
    let mut stone = [[0u64; 24]; 2];
    let mut in_hand = [[0u64; 10]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < 24 {
            let (s, v) = splitmix(state);
            state = s;
            stone[c][i] = v;
            i += 1;
        }
        let mut n = 1; // zero stones in hand has key 0
        while n < 10 {
            let (s, v) = splitmix(state);
            state = s;
            in_hand[c][n] = v;
            n += 1;
        }
        c += 1;
    }
    let (_, black_to_move) = splitmix(state);
    Keys {
        stone,
        in_hand,
        black_to_move,
    }
};
