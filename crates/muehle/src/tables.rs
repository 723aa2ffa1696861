//! Board geometry computed at compile time: adjacency and mills.

/// Neighbours of each point as a bitboard mask.
pub(crate) const ADJACENT: [u32; 24] = {
    let mut adj = [0u32; 24];
    let mut sq = 0;
    while sq < 24 {
        let ring = sq / 8;
        let k = sq % 8;
        // along the ring
        adj[sq] |= 1 << (ring * 8 + (k + 1) % 8);
        adj[sq] |= 1 << (ring * 8 + (k + 7) % 8);
        // across the rings at side midpoints
        if k % 2 == 1 {
            if ring > 0 {
                adj[sq] |= 1 << (sq - 8);
            }
            if ring < 2 {
                adj[sq] |= 1 << (sq + 8);
            }
        }
        sq += 1;
    }
    adj
};

/// The 16 mills as bitboard masks.
pub(crate) const MILLS: [u32; 16] = {
    let mut mills = [0u32; 16];
    let mut n = 0;
    let mut ring = 0;
    while ring < 3 {
        let mut c = 0;
        while c < 8 {
            // corner c, midpoint c+1, corner c+2 (mod 8)
            mills[n] =
                (1 << (ring * 8 + c)) | (1 << (ring * 8 + c + 1)) | (1 << (ring * 8 + (c + 2) % 8));
            n += 1;
            c += 2;
        }
        ring += 1;
    }
    let mut k = 1;
    while k < 8 {
        mills[n] = (1 << k) | (1 << (8 + k)) | (1 << (16 + k));
        n += 1;
        k += 2;
    }
    mills
};

/// For each point, the two mills through it, each given as the mask of the
/// *other two* points of that mill.
pub(crate) const MILL_PARTNERS: [[u32; 2]; 24] = {
    let mut partners = [[0u32; 2]; 24];
    let mut sq = 0;
    while sq < 24 {
        let mut found = 0;
        let mut m = 0;
        while m < 16 {
            if MILLS[m] & (1 << sq) != 0 {
                partners[sq][found] = MILLS[m] & !(1 << sq);
                found += 1;
            }
            m += 1;
        }
        assert!(found == 2);
        sq += 1;
    }
    partners
};
