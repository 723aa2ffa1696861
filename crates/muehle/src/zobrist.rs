//! Zobrist keys, computed at compile time from a fixed seed
//! (`boardgame::zobrist`).

use boardgame::zobrist::KeyStream;

pub(crate) struct Keys {
    pub stone: [[u64; 24]; 2],
    pub in_hand: [[u64; 10]; 2],
    pub black_to_move: u64,
    /// Keys for 10 to 12 stones in hand (boards with more stones), drawn
    /// after the others so that those stay as they are.
    pub in_hand_more: [[u64; 3]; 2],
}

pub(crate) const KEYS: Keys = {
    let mut keys = KeyStream::new(0x6D75_6568_6C65_2021); // "muehle !"
    let mut stone = [[0u64; 24]; 2];
    let mut in_hand = [[0u64; 10]; 2];
    let mut c = 0;
    while c < 2 {
        stone[c] = keys.keys(0);
        // Zero stones in hand has key 0.
        in_hand[c] = keys.keys(1);
        c += 1;
    }
    let black_to_move = keys.next_key();
    let in_hand_more = keys.tables();
    Keys {
        stone,
        in_hand,
        black_to_move,
        in_hand_more,
    }
};

/// The keys of 0 to 12 stones in hand, by colour.
pub(crate) const IN_HAND: [[u64; 13]; 2] = {
    let mut all = [[0u64; 13]; 2];
    let mut c = 0;
    while c < 2 {
        let mut n = 0;
        while n < 13 {
            all[c][n] = if n < 10 {
                KEYS.in_hand[c][n]
            } else {
                KEYS.in_hand_more[c][n - 10]
            };
            n += 1;
        }
        c += 1;
    }
    all
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys are the ones brett has always used (tables keyed by them,
    /// like the opening book, stay valid): a fingerprint of all of them in
    /// order (stones, the hand of each side, then the side to move).
    #[test]
    fn the_keys_never_change() {
        let mut all = Vec::new();
        for c in 0..2 {
            all.extend(KEYS.stone[c]);
            all.extend(KEYS.in_hand[c]);
        }
        all.push(KEYS.black_to_move);
        let fingerprint = all
            .iter()
            .fold(0u64, |h, &k| h.wrapping_mul(0x0100_0000_01B3) ^ k);
        assert_eq!(fingerprint, 0xffbe_adbe_2b0c_9916);
    }
}
