//! Weight tables built into a game's evaluation: files of little-endian
//! `i16` numbers, decoded at compile time.

/// Decode `N` little-endian `i16`s from `bytes`, which must be exactly
/// `2 · N` long (checked at compile time when used in a `static`).
pub const fn decode_i16<const N: usize>(bytes: &[u8]) -> [i16; N] {
    assert!(bytes.len() == 2 * N, "weight table of the wrong size");
    let mut out = [0i16; N];
    let mut i = 0;
    while i < N {
        out[i] = i16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_little_endian_numbers_in_order() {
        const T: [i16; 3] = decode_i16(&[1, 0, 0xff, 0xff, 0x00, 0x80]);
        assert_eq!(T, [1, -1, i16::MIN]);
    }
}
