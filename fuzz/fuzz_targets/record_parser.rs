//! Game records: any text either fails to parse or gives a game whose
//! record reads back to the same game and the same record; the comments
//! after its moves (and any `[%clk]` in them) write back and read back, and
//! so does a record with a clock time after every move.
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

    let comments = game.session().move_comments().to_vec();
    for c in comments.iter().flatten() {
        let _ = boardgame::clock::clk_in_comment(c);
    }
    let commented = game.to_record_with_comments(&comments);
    let again = Game::from_record(&commented)
        .unwrap_or_else(|e| panic!("{text:?}\nwith its comments: {e}\n{commented}"));
    assert_eq!(again.moves(), game.moves());
    assert_eq!(
        again.to_record_with_comments(again.session().move_comments()),
        commented
    );

    let clocks: Vec<Option<String>> = (0..game.ply())
        .map(|i| Some(boardgame::clock::clk_comment(i as u64 * 1000)))
        .collect();
    let timed = game.to_record_with_comments(&clocks);
    let read = Game::from_record(&timed).unwrap_or_else(|e| panic!("{e}\n{timed}"));
    let times: Vec<Option<u64>> = read
        .session()
        .move_comments()
        .iter()
        .map(|c| c.as_deref().and_then(boardgame::clock::clk_in_comment))
        .collect();
    let expected: Vec<Option<u64>> = (0..game.ply()).map(|i| Some(i as u64 * 1000)).collect();
    assert_eq!(times, expected);
});
