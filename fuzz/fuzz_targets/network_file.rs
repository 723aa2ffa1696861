//! Mühle network files (`brett --mill-network FILE`): any bytes are either
//! refused with an error or read as a network. The input is also cycled to
//! a network file's size (a width its first byte picks), so every input
//! gives a network as well: its file
//! writes the same bytes back, and its correction of the positions of a
//! game the input steers stays within the bound that keeps it off the
//! scores of won and lost games.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muehle::network::{MAX_CORRECTION, Network, WIDTHS, values};

fuzz_target!(|data: &[u8]| {
    if let Ok(net) = Network::from_bytes(data) {
        assert_eq!(net.to_bytes(), data);
    }
    if data.is_empty() {
        return;
    }
    let width = WIDTHS[usize::from(data[0]) % WIDTHS.len()];
    let bytes: Vec<u8> = data.iter().copied().cycle().take(2 * values(width)).collect();
    let net = Network::from_bytes(&bytes).expect("a file of the network's size reads");
    assert_eq!(net.width(), width);
    assert_eq!(net.to_bytes(), bytes);
    let mut pos = muehle::Position::new(muehle::RuleSet::STANDARD);
    for i in 0..40 {
        assert!(net.score(&pos).abs() <= MAX_CORRECTION);
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_game_over() {
            break;
        }
        let pick = usize::from(data[i % data.len()]) + i;
        pos.play_unchecked(moves[pick % moves.len()]);
    }
});
