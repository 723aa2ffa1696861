//! Dame PDN records: any text either fails to read or gives a game whose
//! record reads back to the same game and record.
#![no_main]

use dame::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(game) = Game::from_pdn(&text) else {
        return;
    };
    let pdn = game.to_pdn();
    let back = Game::from_pdn(&pdn).unwrap_or_else(|e| panic!("{e}\n{pdn}"));
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.huffs(), game.huffs());
    assert_eq!(back.outcome(), game.outcome());
    assert_eq!(back.start(), game.start());
    assert_eq!(back.rules(), game.rules());
    assert_eq!(back.to_pdn(), pdn);
});
