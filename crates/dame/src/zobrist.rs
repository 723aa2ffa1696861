//! Zobrist keys, computed at compile time from a fixed seed
//! (`boardgame::zobrist`).

use boardgame::zobrist::KeyStream;

pub(crate) struct Keys {
    /// By piece kind (`2 * colour + is_king`) and bit.
    pub piece: [[u64; 64]; 4],
    pub black_to_move: u64,
}

pub(crate) const KEYS: Keys = {
    let mut keys = KeyStream::new(0x6461_6D65_2120_2021); // "dame !  "
    let piece = keys.tables();
    Keys {
        piece,
        black_to_move: keys.next_key(),
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys are the ones brett has always used: a fingerprint of all
    /// of them in order (each piece kind's squares, then the side to move).
    #[test]
    fn the_keys_never_change() {
        let mut all: Vec<u64> = KEYS.piece.iter().flatten().copied().collect();
        all.push(KEYS.black_to_move);
        let fingerprint = all
            .iter()
            .fold(0u64, |h, &k| h.wrapping_mul(0x0100_0000_01B3) ^ k);
        assert_eq!(fingerprint, 0x8511_85c0_5301_84ad);
    }
}
