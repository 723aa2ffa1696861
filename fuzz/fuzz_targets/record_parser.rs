//! Game records: any text either fails to parse or gives a game whose
//! record reads back to the same game and the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muehle::Game;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(game) = Game::from_record(&text) else {
        return;
    };
    let record = game.to_record();
    let back = match Game::from_record(&record) {
        Ok(back) => back,
        Err(e) => panic!("{text:?}\nwrote a record that does not read back: {e}\n{record}"),
    };
    assert_eq!(back.to_record(), record);
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.outcome(), game.outcome());
    assert_eq!(back.start(), game.start());
    assert_eq!(back.rules(), game.rules());
});
