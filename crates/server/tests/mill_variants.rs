//! Twelve Men's Morris and Lasker Morris over the JSON API: created from
//! their presets, played, stored and read back, with the board's options
//! in the state and no databases for them.

use crate::common::{TestServer, id_of, token};
use serde_json::json;

#[tokio::test]
async fn both_games_are_played_over_the_api_with_their_boards() {
    let s = TestServer::start().await;
    for (rules, board, stones, moves, in_hand) in [
        (
            "twelve-mens-morris",
            "twelve",
            12,
            vec!["a7", "g7", "b6", "g4", "c5xg4"],
            [9, 10],
        ),
        (
            "lasker-morris",
            "lasker",
            10,
            vec!["d6", "f4", "d6-d5", "f4-g4", "a1"],
            [8, 9],
        ),
    ] {
        let v = s.create(json!({"kind": "local", "rules": rules})).await;
        let id = id_of(&v);
        let (white, black) = (token(&v, "white"), token(&v, "black"));
        let opts = &v["state"]["rule_options"];
        assert_eq!(opts["board"], board, "{v}");
        assert_eq!(opts["stones"], stones, "{v}");
        assert_eq!(
            opts["move_in_placing"].as_bool().unwrap_or(false),
            rules == "lasker-morris",
            "{v}"
        );
        assert_eq!(v["state"]["in_hand"]["white"], stones, "{v}");
        let mut state = v["state"].clone();
        for (ply, m) in moves.iter().enumerate() {
            let tok = if ply % 2 == 0 { &white } else { &black };
            state = s.play_ok(id, tok, ply as u64, m).await;
        }
        assert_eq!(state["in_hand"]["white"], in_hand[0], "{state}");
        assert_eq!(state["in_hand"]["black"], in_hand[1], "{state}");
        // Read back from storage.
        let (_, stored) = s.get(&format!("/api/games/{id}")).await;
        assert_eq!(stored["moves"], json!(moves), "{stored}");
        assert_eq!(stored["rules"], rules, "{stored}");
        // No databases for these boards.
        let (_, tb) = s.get(&format!("/api/tablebase?rules={rules}")).await;
        assert_eq!(tb["available"], false, "{tb}");
    }
    // A slide while placing is refused under the standard rules, with the reason.
    let v = s.create(json!({"kind": "local"})).await;
    // A standard game's options are as they always were.
    let opts = v["state"]["rule_options"].as_object().expect("options");
    assert!(
        !opts.contains_key("board") && !opts.contains_key("stones"),
        "{v}"
    );
    let (id, white, black) = (id_of(&v), token(&v, "white"), token(&v, "black"));
    s.play_ok(id, &white, 0, "d6").await;
    s.play_ok(id, &black, 1, "f4").await;
    let (status, body) = s.play(id, &white, 2, "d6-d5").await;
    assert_eq!(status.as_u16(), 422, "{body}");
    let (_, tb) = s.get("/api/tablebase?rules=standard").await;
    assert_eq!(tb["available"], true, "{tb}");
}
