//! The `brett` command line: perft, show, play, analyze, bench, match, and
//! `brett serve` and `brett db export` on a damaged SQLite file.

use std::io::Write;
use std::process::{Command, Stdio};

fn brett(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_brett"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("brett runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("brett ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A command that prints its answer and ends, read by a reader that stops
/// before it has written anything (`brett show | head -0`): it ends quietly,
/// as Unix tools do (on a closed pipe, by SIGPIPE), with no panic message.
#[test]
fn a_reader_that_stops_early_ends_a_printing_command_quietly() {
    for args in [&["show"][..], &["perft", "3"]] {
        // A pipe whose reading end is closed before brett starts: every
        // write of brett's to it fails.
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_brett"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("brett runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: {stderr}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{args:?}");
        }
    }
}

/// The records of a match's `--out` file, each without the comment that
/// precedes the next record (a forfeit's or an adjudication's reason).
fn match_records(file: &str) -> Vec<String> {
    file.split("[Event")
        .skip(1)
        .map(|rec| {
            let text = format!("[Event{rec}");
            text.split_once("\n\n{")
                .map_or(text.clone(), |(a, _)| a.to_string())
        })
        .collect()
}

#[test]
fn perft_prints_one_line_per_depth() {
    let (ok, out, _) = brett(&["perft", "4"], "");
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    for (line, (d, n)) in lines
        .iter()
        .zip([(1, 24), (2, 552), (3, 12144), (4, 255024)])
    {
        let w: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(w.len(), 6, "{line}");
        assert_eq!(
            (w[0], w[1], w[2], w[3], w[4]),
            ("depth", &*d.to_string(), "nodes", &*n.to_string(), "time")
        );
        assert!(w[5].parse::<f64>().is_ok(), "{line}");
    }
}

#[test]
fn perft_with_rules_and_position() {
    let (ok, out, _) = brett(
        &[
            "perft",
            "--rules",
            "ravensburger",
            "--position",
            "W../.B./.../.W..B./..B/.../..W w 0 0 6 40",
            "1",
        ],
        "",
    );
    assert!(ok);
    // Three flying stones, 18 empty points each: 54 moves, none closing a mill.
    assert!(out.starts_with("depth 1 nodes 54 time "), "{out}");
}

#[test]
fn bad_arguments_give_clear_errors() {
    let (ok, _, err) = brett(&["perft", "--rules", "chess", "3"], "");
    assert!(!ok);
    assert!(err.contains("unknown rule preset 'chess'"), "{err}");
    let (ok, _, err) = brett(&["show", "W.B/.W w 0 0 0 1"], "");
    assert!(!ok);
    assert!(err.contains("7 rows"), "{err}");
}

#[test]
fn show_draws_the_board_and_the_status() {
    let (ok, out, _) = brett(&["show", "W.B/.W./.../....../.../.../... b 7 8 0 2"], "");
    assert!(ok);
    assert!(out.contains("7  W-----------.-----------B"), "{out}");
    assert!(out.contains("Black to move"), "{out}");
}

#[test]
fn play_a_game_at_one_keyboard_to_a_mill_and_a_resignation() {
    let input = "d6\nf4\nmoves\nd7\na1\nd5\nxf4\nlist\nundo\nd5xf4\ndraw\nresign\nquit\n";
    let (ok, out, _) = brett(&["play"], input);
    assert!(ok);
    assert!(out.contains("22 legal moves"), "{out}");
    assert!(
        out.contains("d5 closes a mill. Removable: a1, f4."),
        "{out}"
    );
    assert!(out.contains("1. d6 f4 2. d7 a1 3. d5xf4 *"), "{out}");
    assert!(out.contains("Took back d5xf4."), "{out}");
    assert!(out.contains("Black offers a draw."), "{out}");
    assert!(
        out.contains("*** Black resigns: White wins (1-0) ***"),
        "{out}"
    );
}

#[test]
fn play_announces_a_blocked_player() {
    // White's f6-d6 takes Black's last move.
    let input = "f6-d6\nquit\n";
    let (ok, out, _) = brett(
        &[
            "play",
            "--position",
            "BBB/..W/W../BWW.WB/.../W../BWB w 0 0 10 30",
        ],
        input,
    );
    assert!(ok);
    assert!(
        out.contains("*** Black cannot move: White wins (1-0) ***"),
        "{out}"
    );
}

#[test]
fn play_against_the_computer() {
    let (ok, out, _) = brett(
        &[
            "play",
            "--computer",
            "black",
            "--level",
            "3",
            "--time",
            "0.05",
            "--seed",
            "3",
        ],
        "d6\nd2\nquit\n",
    );
    assert!(ok);
    assert_eq!(
        out.matches("The computer (Black) plays").count(),
        2,
        "{out}"
    );
}

#[test]
fn analyze_shows_lines_with_reasons() {
    let (ok, out, _) = brett(
        &[
            "analyze",
            "W../.B./.../.W..B./..B/.../..W w 0 0 6 40",
            "--depth",
            "5",
            "--lines",
            "2",
        ],
        "",
    );
    assert!(ok);
    assert!(out.contains("win in 2"), "{out}");
    assert!(out.contains("why: makes two mill threats at once"), "{out}");
}

#[test]
fn bench_prints_a_node_signature() {
    let (ok, out, _) = brett(&["bench", "5"], "");
    assert!(ok);
    let last = out.lines().last().expect("a summary line");
    assert!(last.starts_with("bench depth 5 nodes "), "{last}");
    let (_, again, _) = brett(&["bench", "5"], "");
    let nodes = |s: &str| {
        s.lines()
            .last()
            .and_then(|l| l.split_whitespace().nth(4))
            .map(str::to_string)
    };
    assert_eq!(nodes(&out), nodes(&again), "the signature is stable");
}

#[test]
fn match_between_levels_writes_records() {
    let dir = std::env::temp_dir().join(format!("brett-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let path = dir.join("games.txt");
    let (ok, out, err) = brett(
        &[
            "match",
            "--a",
            "level:4",
            "--b",
            "level:1",
            "--games",
            "2",
            "--movetime",
            "20",
            "--out",
            path.to_str().expect("utf-8"),
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("wins") && out.contains("Elo difference"),
        "{out}"
    );
    let records = std::fs::read_to_string(&path).expect("records written");
    assert_eq!(records.matches("[Event \"brett match\"]").count(), 2);
    // Every record reads back.
    for text in match_records(&records) {
        muehle::Game::from_record(&text).expect("record reads back");
    }
}

#[test]
fn dame_perft_play_and_analyze() {
    let (ok, out, _) = brett(&["perft", "--game", "dame", "5"], "");
    assert!(ok);
    assert!(
        out.lines()
            .nth(4)
            .is_some_and(|l| l.starts_with("depth 5 nodes 7361 ")),
        "{out}"
    );
    let (ok, out, _) = brett(&["perft", "--game", "international", "3"], "");
    assert!(ok);
    assert!(
        out.lines()
            .nth(2)
            .is_some_and(|l| l.starts_with("depth 3 nodes 658 ")),
        "{out}"
    );
    let (ok, out, _) = brett(
        &["play", "--game", "dame"],
        "c3-d4\nf6-e5\nc3-b4\nd4xf6\nresign\nquit\n",
    );
    assert!(ok);
    assert!(out.contains("White played d4xf6."), "{out}");
    assert!(
        out.contains("capture"),
        "the non-capture c3-b4 is refused: {out}"
    );
    assert!(
        out.contains("*** Black resigns: White wins (1-0) ***"),
        "{out}"
    );
    let (ok, out, _) = brett(
        &[
            "analyze",
            "--game",
            "dame",
            "--depth",
            "4",
            "--lines",
            "1",
            "--moves",
            "c3-d4 f6-e5",
        ],
        "",
    );
    assert!(ok);
    assert!(out.contains(" 1. d4xf6"), "{out}");
    assert!(out.contains("why: captures 1 piece"), "{out}");
}

/// `brett tablebase build/probe/stats/verify/repack` and `brett puzzles generate`
/// on sectors 3-3, 3-4 and 4-3 in a temporary folder.
#[test]
fn tablebase_commands() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_str().expect("utf-8 path");
    let (ok, out, err) = brett(
        &[
            "tablebase",
            "build",
            "--dir",
            d,
            "--sectors",
            "3-4",
            "--quiet",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("sectors 3-3:"), "{out}");
    assert!(out.contains("sectors 3-4 4-3:"), "{out}");
    assert!(out.contains("positions/s"), "{out}");
    // Built again: everything kept.
    let (ok, out, _) = brett(
        &[
            "tablebase",
            "build",
            "--dir",
            d,
            "--sectors",
            "3-4",
            "--quiet",
        ],
        "",
    );
    assert!(ok);
    assert!(out.contains("built 0 sectors (3 kept)"), "{out}");

    // White closes a mill against three stones: the first line is exact.
    let (ok, out, err) = brett(
        &[
            "tablebase",
            "probe",
            "--dir",
            d,
            "WW./.../.../B.B..B/.../.../W.. w 0 0 0 1",
        ],
        "",
    );
    assert!(ok, "{err}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("win 1"));
    let moves: Vec<&str> = lines.collect();
    // 3 flying stones × 18 empty points, one of them (a1-g7) closes a mill
    // with three stones to remove.
    assert_eq!(moves.len(), 3 * 18 - 1 + 3, "{out}");
    assert!(moves.contains(&"a1-g7xa4 win 1"), "{out}");
    for m in &moves {
        let w: Vec<&str> = m.split_whitespace().collect();
        assert!(w.len() == 2 || w.len() == 3, "{m}");
        assert!(["win", "draw", "loss"].contains(&w[1]), "{m}");
    }
    // Outside the built sectors, and in the placing phase: said so.
    let (ok, _, err) = brett(
        &[
            "tablebase",
            "probe",
            "--dir",
            d,
            "WWW/WW./.../B.B..B/.../.../... w 0 0 0 1",
        ],
        "",
    );
    assert!(!ok);
    assert!(
        err.contains("sector 5-3") && err.contains("not built"),
        "{err}"
    );
    let (ok, _, err) = brett(
        &[
            "tablebase",
            "probe",
            "--dir",
            d,
            ".../.../.../....../.../.../... w 9 9 0 1",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("moving phase"), "{err}");

    let (ok, out, err) = brett(&["tablebase", "stats", "--dir", d, "3-3"], "");
    assert!(ok, "{err}");
    assert!(
        out.contains("White to move:") && out.contains("Black to move:"),
        "{out}"
    );
    assert!(out.contains("positions 2691920"), "{out}");
    assert!(out.contains("longest win 25 plies: "), "{out}");
    let (ok, out, _) = brett(&["tablebase", "stats", "--dir", d, "3-4"], "");
    assert!(ok);
    assert!(out.contains("positions 12113640"), "{out}");

    let (ok, out, err) = brett(&["tablebase", "verify", "--dir", d], "");
    assert!(ok, "{err}");
    assert!(
        out.contains("sector 4-3: 760398 positions checked, 0 wrong"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("ok"), "{out}");

    // Files just built are in the current encoding: repack leaves them
    // alone; the global --tablebase-dir names the folder too.
    let (ok, out, err) = brett(&["--tablebase-dir", d, "tablebase", "repack", "3-3"], "");
    assert!(ok, "{err}");
    assert!(
        out.contains("sector 3-3: ") && out.contains("already current"),
        "{out}"
    );

    // Another rule set has its own files.
    let (ok, _, err) = brett(
        &[
            "tablebase",
            "probe",
            "--rules",
            "ravensburger",
            "--dir",
            d,
            "WW./.../.../B.B..B/.../.../W.. w 0 0 0 1",
        ],
        "",
    );
    assert!(!ok);
    assert!(
        err.contains("'ravensburger' database is not built"),
        "{err}"
    );

    let (ok, out, err) = brett(&["puzzles", "generate", "--dir", d, "--count", "3"], "");
    assert!(ok, "{err}");
    let list: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let list = list.as_array().expect("a list");
    assert_eq!(list.len(), 3);
    for p in list {
        let pos = p["position"].as_str().expect("position");
        let solution = p["solution"].as_array().expect("solution");
        // The first move of the solution is the one move that keeps the value.
        let (ok, out, _) = brett(&["tablebase", "probe", "--dir", d, pos], "");
        assert!(ok);
        assert_only_move_keeps(&out, solution[0].as_str().expect("move"));
    }

    // The engine protocol reports the database value.
    let (ok, out, _) = brett(
        &["--tablebase-dir", d, "engine"],
        "position fen WW./.../.../B.B..B/.../.../W.. w 0 0 0 1\ngo depth 3\nquit\n",
    );
    assert!(ok);
    assert!(out.contains("info string tablebase win 1"), "{out}");
    assert!(out.contains("score mate 1"), "{out}");
    // brett analyze prints the verdict and every move's value.
    let (ok, out, _) = brett(
        &[
            "--tablebase-dir",
            d,
            "analyze",
            "WW./.../.../B.B..B/.../.../W.. w 0 0 0 1",
            "--depth",
            "2",
        ],
        "",
    );
    assert!(ok);
    assert!(
        out.contains("Perfect play: White wins in 1 ply (database)"),
        "{out}"
    );
}

/// `brett tablebase build/probe/stats/verify --game …` for the Dame
/// endgame databases (up to three pieces) in a temporary folder.
/// In the output of `brett tablebase probe` (the value, then a line per
/// move: `MOVE RESULT …`), `mv` is the one move that keeps the result.
fn assert_only_move_keeps(out: &str, mv: &str) {
    let value = out.lines().next().expect("value");
    let result = value.split_whitespace().next().expect("result");
    let keeping: Vec<&str> = out
        .lines()
        .skip(1)
        .filter(|l| l.split_whitespace().nth(1) == Some(result))
        .collect();
    assert_eq!(keeping.len(), 1, "{out}");
    assert!(keeping[0].starts_with(&format!("{mv} ")), "{out}");
}

/// `brett tablebase build --game dame --pieces 3` into `dir`.
fn build_dame_tables(dir: &str) -> (bool, String, String) {
    build_dame_tables_with(dir, &["--quiet"])
}

/// The same build with further options.
fn build_dame_tables_with(dir: &str, extra: &[&str]) -> (bool, String, String) {
    let mut args = vec![
        "tablebase",
        "build",
        "--game",
        "dame",
        "--pieces",
        "3",
        "--dir",
        dir,
    ];
    args.extend_from_slice(extra);
    brett(&args, "")
}

#[test]
fn a_dame_build_says_what_it_needs_and_refuses_what_does_not_fit() {
    // The plan of the 10×10 tables up to 6 pieces: computed, nothing built.
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_str().expect("utf-8 path");
    let (ok, out, err) = brett(
        &[
            "tablebase",
            "build",
            "--game",
            "international",
            "--pieces",
            "6",
            "--plan",
            "--dir",
            d,
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("6 pieces: 70 tables, 58596467685 indices"),
        "{out}"
    );
    assert!(
        out.contains("in all: 155 tables, 60484479635 indices; the largest"),
        "{out}"
    );
    assert!(out.contains("memory at the peak: about "), "{out}");
    assert_eq!(
        std::fs::read_dir(d).expect("dir").count(),
        0,
        "nothing built"
    );
    // A build that would not fit is refused before it starts.
    let build_within = |memory: &str| build_dame_tables_with(d, &["--memory", memory]);
    let (ok, _, err) = build_within("0.0001");
    assert!(!ok);
    assert!(err.contains("more than --memory (0.0 GiB)"), "{err}");
    assert!(err.contains("--plan lists what a build needs"), "{err}");
    assert_eq!(
        std::fs::read_dir(d).expect("dir").count(),
        0,
        "nothing built"
    );
    let (ok, _, err) = build_within("0");
    assert!(!ok);
    assert!(
        err.contains("--memory takes a number of GiB above 0"),
        "{err}"
    );
    // Mühle's build has no plan.
    let (ok, _, err) = brett(&["tablebase", "build", "--plan", "--dir", d], "");
    assert!(!ok);
    assert!(err.contains("are for the Dame databases"), "{err}");
}

#[test]
fn dame_tablebase_commands() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_str().expect("utf-8 path");
    let build = || build_dame_tables(d);
    let (ok, out, err) = build();
    assert!(ok, "{err}");
    assert!(out.contains("table KK-K: 14880 positions"), "{out}");
    assert!(out.contains("built 16 tables (0 kept) of 'dame'"), "{out}");
    // Built again: everything kept.
    let (ok, out, _) = build();
    assert!(ok);
    assert!(out.contains("built 0 tables (16 kept)"), "{out}");
    // Two kings against one: White wins in 3 plies (c1-b2 among others).
    let probe =
        |fen: &str, game: &str| brett(&["tablebase", "probe", "--game", game, "--dir", d, fen], "");
    let (ok, out, err) = probe("W:WKa1,Kc1:BKh8", "dame");
    assert!(ok, "{err}");
    assert_eq!(out.lines().next(), Some("win 3"), "{out}");
    assert!(out.contains("c1-b2 win 3"), "{out}");
    // One king each is a draw under 'dame'.
    let (ok, out, _) = probe("W:WKa1:BKh8", "dame");
    assert!(ok);
    assert_eq!(out.lines().next(), Some("draw"), "{out}");
    // A table that is not built: an error naming the build command.
    let (ok, _, err) = probe("W:WKa1,Kc1,Ke1:BKh8", "dame");
    assert!(!ok);
    assert!(err.contains("brett tablebase build --game dame"), "{err}");
    let (ok, out, err) = brett(
        &["tablebase", "stats", "--game", "dame", "--dir", d, "KK-K"],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("positions 14880"), "{out}");
    let (ok, out, err) = brett(&["tablebase", "verify", "--game", "dame", "--dir", d], "");
    assert!(ok, "{err}");
    assert!(
        out.contains("table KK-K: 14880 positions checked, 0 wrong"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("ok"), "{out}");
    // The engine protocol says the databases' value and plays from them.
    let session =
        "uci\nsetoption name Game value dame\nposition fen W:WKa1,Kc1:BKh8\ngo depth 2\nisready\n";
    let (ok, out, err) = brett(&["--tablebase-dir", d, "engine"], session);
    assert!(ok, "{err}");
    assert!(
        out.contains("info string tablebase win 3 (win in 3 plies (database))"),
        "{out}"
    );
    let (ok, out, _) = brett(&["--no-tablebase", "engine"], session);
    assert!(ok && !out.contains("info string tablebase"), "{out}");
    // A damaged file is refused.
    let path = dir.path().join("dame-dame-KK-K.dtb");
    let mut bytes = std::fs::read(&path).expect("file");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, bytes).expect("write");
    let (ok, _, err) = brett(
        &["tablebase", "verify", "--game", "dame", "--dir", d, "KK-K"],
        "",
    );
    assert!(!ok);
    assert!(err.contains("checksum"), "{err}");
    // Mühle options are refused for Dame and the reverse.
    let (ok, _, err) = brett(
        &[
            "tablebase",
            "build",
            "--game",
            "dame",
            "--sectors",
            "3-3",
            "--dir",
            d,
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("--pieces"), "{err}");
}

#[test]
fn dame_puzzles_come_from_the_tables_and_the_shot_suite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_str().expect("utf-8 path");
    let shots = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/engine/tests/dame_shots_8.txt"
    );
    let generate = |extra: &[&str]| {
        let mut args = vec!["puzzles", "generate", "--game", "dame", "--dir", d];
        args.extend_from_slice(extra);
        brett(&args, "")
    };
    // No tables yet: the error names the build command.
    let (ok, _, err) = generate(&["--pieces", "3", "--count", "4"]);
    assert!(!ok);
    assert!(
        err.contains("brett tablebase build --game dame --pieces 3"),
        "{err}"
    );
    let (ok, _, err) = build_dame_tables(d);
    assert!(ok, "{err}");
    let (ok, out, err) = generate(&["--pieces", "3", "--count", "4", "--shots", shots]);
    assert!(ok, "{err}");
    assert!(err.contains("6 of 72 shots are for other rules"), "{err}");
    let list: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let list = list.as_array().expect("a list");
    // The 68 shots of 'dame', less two that win by force without material.
    assert_eq!(list.len(), 4 + 66);
    let mut last = 0;
    for (i, p) in list.iter().enumerate() {
        assert_eq!(p["id"], format!("dame-{}", i + 1));
        assert_eq!(p["game"], "dame");
        let difficulty = p["difficulty"].as_u64().expect("difficulty");
        assert!(difficulty >= last, "easiest first");
        last = difficulty;
        let first = p["solution"][0].as_str().expect("solution");
        assert!(
            p["accept"]
                .as_array()
                .expect("accept")
                .iter()
                .any(|a| a == first)
        );
        if p["goal"] == "shot" {
            assert!(p["gain"].as_i64().expect("gain") >= 1, "{p}");
            continue;
        }
        // An ending: the one move that keeps the databases' value.
        let pos = p["position"].as_str().expect("position");
        let (ok, out, err) = brett(
            &["tablebase", "probe", "--game", "dame", "--dir", d, pos],
            "",
        );
        assert!(ok, "{err}");
        assert_eq!(out.lines().next(), p["value"].as_str(), "{out}");
        assert_only_move_keeps(&out, first);
    }
    // Shots are for Dame.
    let (ok, _, err) = brett(&["puzzles", "generate", "--dir", d, "--shots", shots], "");
    assert!(!ok);
    assert!(err.contains("--shots is for Dame"), "{err}");
}

#[test]
fn dame_labels_are_made_and_fitted() {
    let dir = std::env::temp_dir().join(format!("brett-dame-labels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let path = dir.join("labels.txt");
    let file = path.to_str().expect("utf-8");
    // `brett tune --game dame --make-labels FILE` with 6 opening plies.
    let make = |games: &str, depth: &str| {
        brett(
            &[
                "tune",
                "--game",
                "dame",
                "--make-labels",
                file,
                "--games",
                games,
                "--depth",
                depth,
                "--opening-plies",
                "6",
            ],
            "",
        )
    };
    let (ok, out, err) = make("6", "2");
    assert!(ok, "{err}");
    assert!(out.contains("positions from 6 games"), "{out}");
    let text = std::fs::read_to_string(&path).expect("labels written");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("# rules dame"));
    assert_eq!(
        lines.next(),
        Some("# options seed=1 depth=2 opening-plies=6 random-share=0.1 max-plies=300")
    );
    let mut n = 0;
    let mut games = 0;
    for line in lines {
        if line.starts_with("# game ") {
            games += 1;
            continue;
        }
        let (fen, result) = line.split_once('\t').expect("position, tab, result");
        let pos = dame::Position::from_fen(fen, dame::RuleSet::DAME).expect(fen);
        assert!(!pos.has_capture(), "only quiet positions: {fen}");
        assert!(["1", "0.5", "0"].contains(&result), "{line}");
        n += 1;
    }
    assert!(n >= 100, "{n} positions");
    assert_eq!(games, 6);
    // Stopped in the middle of a game (here: the file cut off), the same
    // command keeps the finished games and plays the rest: the same lines.
    let sorted = |t: &str| {
        let mut l: Vec<String> = t.lines().map(String::from).collect();
        l.sort();
        l
    };
    let second_game = text.find("# game ").expect("a game") + 10;
    std::fs::write(&path, &text[..second_game + (text.len() - second_game) / 3]).expect("cut");
    let (ok, out, err) = make("6", "2");
    assert!(ok, "{err}");
    assert!(
        err.contains("kept") && out.contains("from 6 games"),
        "{err}\n{out}"
    );
    let again = std::fs::read_to_string(&path).expect("labels");
    assert_eq!(sorted(&again), sorted(&text));
    // More games go on from there; other options are refused, the file kept.
    let (ok, out, err) = make("7", "2");
    assert!(ok && out.contains("from 7 games"), "{err}\n{out}");
    let seven = std::fs::read_to_string(&path).expect("labels");
    assert!(seven.starts_with(&again) && seven.contains("# game 6\n"));
    let (ok, _, err) = make("7", "3");
    assert!(!ok && err.contains("other rules or options"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("labels"), seven);
    let (ok, out, err) = brett(
        &[
            "tune",
            "--game",
            "dame",
            "--labels",
            file,
            "--iterations",
            "20",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("held-out loss") && out.contains("mid: [100,"),
        "{out}"
    );
    // The pattern fit writes a table of the size the evaluation reads
    // (2 bytes × middle game and endgame × 9 regions × 3⁸ on 8×8).
    let table = dir.join("patterns.bin");
    let (ok, out, err) = brett(
        &[
            "tune",
            "--game",
            "dame",
            "--labels",
            file,
            "--patterns",
            table.to_str().expect("utf-8"),
            "--iterations",
            "20",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("pattern entries used") && out.contains("mid: [100,"),
        "{out}"
    );
    let size = std::fs::metadata(&table).expect("table written").len();
    assert_eq!(size, 2 * 2 * 9 * 6561);
    // The file says its rules: fitting it as another game is refused.
    let (ok, _, err) = brett(&["tune", "--game", "international", "--labels", file], "");
    assert!(!ok && err.contains("'dame' rules"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `brett tune --labels FILE --patterns OUT` for Mühle: the pattern fit
/// reads a label file (here: positions of random games, labelled by the
/// stone count), prints the linear weights and writes a table of the size
/// the evaluation builds in (2 bytes × 2 tables × 3⁹ on 4 sides).
#[test]
fn muehle_patterns_are_fitted_to_a_label_file() {
    let dir = std::env::temp_dir().join(format!("brett-muehle-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let labels = dir.join("labels.txt");
    let mut rng = fastrand::Rng::with_seed(7);
    let mut text = String::new();
    for _ in 0..40 {
        let mut pos = muehle::Position::new(muehle::RuleSet::STANDARD);
        for _ in 0..40 {
            let moves = pos.legal_moves();
            if pos.outcome().is_some() || moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.usize(..moves.len())]).expect("legal");
            let us = pos.turn();
            let diff = pos.stones(us).count() as i32 + i32::from(pos.in_hand(us))
                - pos.stones(us.other()).count() as i32
                - i32::from(pos.in_hand(us.other()));
            let value = match diff {
                d if d > 0 => "win",
                0 => "draw",
                _ => "loss",
            };
            text.push_str(&format!("{}\t{value}\n", pos.fen()));
        }
    }
    std::fs::write(&labels, text).expect("labels");
    let table = dir.join("patterns.bin");
    let fit = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            "--labels",
            labels.to_str().expect("utf-8"),
            "--patterns",
            table.to_str().expect("utf-8"),
            "--iterations",
            "30",
        ];
        args.extend_from_slice(extra);
        brett(&args, "")
    };
    let (ok, out, err) = fit(&[]);
    assert!(ok, "{err}");
    assert!(
        out.contains("held-out loss")
            && out.contains("pattern entries used")
            && out.contains("stone: 100,"),
        "{out}"
    );
    // The side tables and the ring tables (crates/muehle/data/patterns.bin).
    let bytes = std::fs::read(&table).expect("table written");
    assert_eq!(bytes.len(), 2 * muehle::pattern::ENTRIES);
    assert!(
        bytes[2 * muehle::pattern::RING_START..]
            .iter()
            .any(|&b| b != 0),
        "the ring tables are fitted"
    );
    // With --no-rings only the side tables are fitted: the rings stay 0.
    let (ok, _, err) = fit(&["--no-rings"]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&table).expect("table written");
    assert_eq!(bytes.len(), 2 * muehle::pattern::ENTRIES);
    assert!(
        bytes[..2 * muehle::pattern::RING_START]
            .iter()
            .any(|&b| b != 0)
    );
    assert!(
        bytes[2 * muehle::pattern::RING_START..]
            .iter()
            .all(|&b| b == 0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `brett match --game GAME --a level:LEVEL --b "cmd:brett engine"`: two
/// games played to the end with legal moves; the output.
fn match_against_an_engine_command(game: &str, level: &str, movetime: &str) -> String {
    let exe = env!("CARGO_BIN_EXE_brett");
    let b = format!("cmd:{exe} engine");
    let (ok, out, err) = brett(
        &[
            "match",
            "--game",
            game,
            "--a",
            level,
            "--b",
            &b,
            "--games",
            "2",
            "--movetime",
            movetime,
            "--opening-plies",
            "4",
            "--verbose",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        !out.contains("forfeits"),
        "both sides play legal moves: {out}"
    );
    assert!(
        out.contains("game   1: ") && out.contains("game   2: "),
        "{out}"
    );
    assert!(
        out.contains("of 2") && out.contains("Elo difference"),
        "{out}"
    );
    out
}

#[test]
fn dame_match_against_an_engine_command() {
    match_against_an_engine_command("dame", "level:3", "20");
}

/// The engine program is told the game (`setoption name Game`): a 10×10
/// match against it.
#[test]
fn international_match_against_an_engine_command() {
    let out = match_against_an_engine_command("international", "level:2", "50");
    assert!(
        out.contains("game international, rules international"),
        "{out}"
    );
}

#[test]
fn play_dame_with_huffing_through_the_one_play_loop() {
    let (ok, out, _) = brett(
        &["play", "--game", "dame", "--rules", "huffing=on"],
        "c3-d4\nf6-e5\na3-b4\nhuff d4\nundo\nlist\nquit\n",
    );
    assert!(ok);
    assert!(out.starts_with("Dame — rules: dame,huffing=on."), "{out}");
    assert!(out.contains("White played a3-b4."), "{out}");
    assert!(
        out.contains("A capture was skipped: 'huff SQ' may remove d4"),
        "{out}"
    );
    assert!(out.contains("Black huffs the piece on d4."), "{out}");
    assert!(out.contains("Took back the huff on d4."), "{out}");
    assert!(out.contains("1. c3-d4 f6-e5 2. a3-b4 *"), "{out}");
}

/// A Dame match game lost by forfeit (the engine answered an illegal move)
/// and one drawn by adjudication (`--max-plies`) are recorded with their
/// results, and both records read back with those outcomes.
#[cfg(unix)]
#[test]
fn dame_match_records_forfeits_and_adjudications_with_their_results() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tmp");
    let fake = dir.path().join("fake-engine.sh");
    std::fs::write(
        &fake,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
         uci) echo 'id name fake'; echo uciok;;\n\
         isready) echo readyok;;\n\
         go*) echo 'bestmove 41-46';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    )
    .expect("write");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let out_file = dir.path().join("forfeits.pdn");
    let b = format!("cmd:{}", fake.display());
    let (ok, out, err) = brett(
        &[
            "match",
            "--game",
            "international",
            "--a",
            "level:1",
            "--b",
            &b,
            "--games",
            "2",
            "--movetime",
            "20",
            "--opening-plies",
            "0",
            "--out",
            out_file.to_str().expect("utf-8"),
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("wins 2 draws 0 losses 0"), "{out}");
    let records = std::fs::read_to_string(&out_file).expect("records");
    // Game 1: A (level 1) has White, so Black forfeits: 2-0. Game 2: 0-2.
    let texts = match_records(&records);
    assert_eq!(texts.len(), 2, "{records}");
    for (text, (result, winner)) in texts
        .iter()
        .zip([("2-0", dame::Color::White), ("0-2", dame::Color::Black)])
    {
        assert!(text.contains(&format!("[Result \"{result}\"]")), "{text}");
        let game = dame::Game::from_pdn(text).expect("record reads back");
        let outcome = game.outcome().expect("the record ends the game");
        assert_eq!(outcome.winner, Some(winner), "{text}");
    }
    assert!(records.contains("forfeits: "), "{records}");

    // Adjudicated after 4 plies: recorded as a draw.
    let out_file = dir.path().join("adjudicated.pdn");
    let (ok, out, err) = brett(
        &[
            "match",
            "--game",
            "dame",
            "--a",
            "level:1",
            "--b",
            "level:1",
            "--games",
            "1",
            "--movetime",
            "20",
            "--max-plies",
            "4",
            "--out",
            out_file.to_str().expect("utf-8"),
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("draws 1"), "{out}");
    let records = std::fs::read_to_string(&out_file).expect("records");
    let texts = match_records(&records);
    assert_eq!(texts.len(), 1, "{records}");
    let text = &texts[0];
    assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
    let game = dame::Game::from_pdn(text).expect("record reads back");
    assert_eq!(game.outcome().map(|o| o.winner), Some(None), "{text}");
}

/// A database of 200 games cut short in the middle of its last page:
/// `brett serve` refuses it and leaves it as it is, `brett db export`
/// writes the games that can still be read (and says which cannot), and
/// those import into a new database.
#[test]
fn serve_refuses_a_damaged_database_and_db_export_saves_what_is_left() {
    use server::storage::{self, Expected, GameMeta, MoveChange, NewGame, Seat};

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("brett.db");
    let url = format!("sqlite://{}", path.display());
    let meta = |at: &str| GameMeta {
        status: storage::Status::Ongoing,
        updated_at: at.into(),
        ..GameMeta::default()
    };
    tokio::runtime::Runtime::new()
        .expect("runtime")
        .block_on(async {
            let db = storage::open(&url).await.expect("new database");
            for i in 0..200 {
                let seat = |name: &str, n: usize| Seat {
                    token_hash: Some(format!("{n:064}")),
                    name: Some(name.into()),
                    joined: true,
                    level: None,
                    account: None,
                };
                let game = NewGame {
                    game: storage::Variant::Muehle,
                    kind: "local".into(),
                    rules: "standard".into(),
                    start_position: ".../.../.../....../.../.../... w 9 9 0 1".into(),
                    move_clocks: Vec::new(),
                    moves: ["d6", "f4", "d2", "b4", "a1", "g7"]
                        .map(String::from)
                        .to_vec(),
                    meta: meta("2026-11-26T10:00:00Z"),
                    seats: [seat("Anna", i), seat("Bert", i + 1000)],
                    tags: Vec::new(),
                    created_at: "2026-11-26T10:00:00Z".into(),
                };
                let id = db.create_game(game).await.expect("stored");
                let at = Expected { ply: 6, version: 0 };
                let change = MoveChange::Append("g4".into());
                db.update_game(id, at, change, meta("2026-11-26T10:01:00Z"))
                    .await
                    .expect("changed");
            }
            db.close().await;
        });
    let pages = std::fs::metadata(&path).expect("database").len() / 4096;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .expect("database");
    file.set_len((pages - 1) * 4096 + 1234).expect("cut");
    drop(file);
    let before = std::fs::read(&path).expect("database");

    // `brett serve` stops with the reason and what to do.
    let mut serve = Command::new(env!("CARGO_BIN_EXE_brett"))
        .args(["--no-tablebase", "serve", "--listen", "127.0.0.1:0"])
        .args(["--database", &url])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("brett serve runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(status) = serve.try_wait().expect("brett serve") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = serve.kill();
            let _ = serve.wait();
            panic!("brett serve started on the damaged file");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut serve.stderr.take().expect("stderr"), &mut err)
        .expect("stderr");
    assert!(!status.success(), "{err}");
    for part in [
        "is damaged",
        "not a whole number",
        "backup",
        "brett db export",
    ] {
        assert!(err.contains(part), "{err}");
    }
    assert!(std::fs::read(&path).expect("database") == before);

    // `brett db export` writes what can be read and fails, naming the rest.
    let out = dir.path().join("games.jsonl");
    let (ok, _, err) = brett(
        &[
            "db",
            "export",
            "--database",
            &url,
            "--out",
            out.to_str().expect("utf-8"),
        ],
        "",
    );
    assert!(!ok, "{err}");
    let exported: usize = err
        .split("exported ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!((150..200).contains(&exported), "{err}");
    assert!(
        err.contains(&format!("{} games could not be read", 200 - exported)),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).expect("export");
    assert_eq!(text.lines().count(), 1 + exported, "{text}");
    assert!(std::fs::read(&path).expect("database") == before);

    // What was saved makes a new database.
    let saved = format!("sqlite://{}", dir.path().join("saved.db").display());
    let (ok, _, err) = brett(
        &[
            "db",
            "import",
            "--database",
            &saved,
            "--in",
            out.to_str().expect("utf-8"),
        ],
        "",
    );
    assert!(
        ok && err.contains(&format!("imported {exported} games")),
        "{err}"
    );
}

/// `brett match --tc`: the records of a match on clocks, read back as the
/// server reads them (its `TimeControl` tag and each move's `[%clk]`).
fn clock_match(args: &[&str]) -> (String, Vec<games::LiveGame>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("games.txt");
    let out_file = path.to_str().expect("utf-8");
    let (ok, out, err) = brett(&[&["match", "--out", out_file], args].concat(), "");
    assert!(ok, "{out}\n{err}");
    let file = std::fs::read_to_string(&path).expect("records written");
    let games = match_records(&file)
        .iter()
        .map(|text| {
            games::LiveGame::from_record(None, text).unwrap_or_else(|e| panic!("{e}\n{text}"))
        })
        .collect();
    (out, games)
}

#[test]
fn a_match_on_clocks_records_each_moves_time_left() {
    for game in ["muehle", "dame"] {
        let (out, played) = clock_match(&[
            "--game", game, "--a", "level:2", "--b", "level:1", "--games", "2", "--tc", "0.25+1",
        ]);
        assert!(out.contains("time control 0.25+1"), "{out}");
        assert!(out.contains("Lost on time: A 0, B 0"), "{out}");
        assert_eq!(played.len(), 2);
        for g in &played {
            assert!(g.ending().is_some(), "played to the end");
            let (control, clocks) = g.record_clock();
            assert_eq!(control, Some("0.25+1".parse().expect("a control")));
            // The opening's two random plies have no time; every move of
            // the players has the mover's time left, at most the 15 s and
            // the increments it got.
            assert_eq!(clocks.len(), g.ply());
            assert!(clocks[..2].iter().all(Option::is_none), "{clocks:?}");
            for (i, c) in clocks.iter().enumerate().skip(2) {
                let left = c.unwrap_or_else(|| panic!("move {i} has no time: {clocks:?}"));
                let moves_of_the_side = (i as u64 - 2) / 2 + 1;
                assert!(left <= 15_000 + 1000 * moves_of_the_side, "{clocks:?}");
                assert!(left > 0, "{clocks:?}");
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn an_engine_command_on_a_clock_is_told_both_times() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("engine.log");
    let script = dir.path().join("engine.sh");
    // brett's engine at level 1, with what it is told logged.
    std::fs::write(
        &script,
        format!(
            "{{ echo 'setoption name Level value 1'; cat; }} | tee '{}' | '{}' engine\n",
            log.display(),
            env!("CARGO_BIN_EXE_brett")
        ),
    )
    .expect("script");
    let b = format!("cmd:sh {}", script.display());
    let (out, played) = clock_match(&[
        "--game", "dame", "--a", "level:1", "--b", &b, "--games", "1", "--tc", "0.5+2",
    ]);
    assert!(out.contains("Lost on time: A 0, B 0"), "{out}");
    assert!(!out.contains("forfeits"), "{out}");
    assert!(played[0].ending().is_some());
    let told = std::fs::read_to_string(&log).expect("engine log");
    let goes: Vec<&str> = told.lines().filter(|l| l.starts_with("go ")).collect();
    assert!(!goes.is_empty(), "{told}");
    for go in &goes {
        let w: Vec<&str> = go.split_whitespace().collect();
        assert_eq!(
            (w[1], w[3], w[5], w[6], w[7], w[8]),
            ("wtime", "btime", "winc", "2000", "binc", "2000"),
            "{go}"
        );
        let times = [w[2], w[4]].map(|t| t.parse::<u64>().expect("ms"));
        assert!(
            times.iter().all(|&t| t > 0 && t <= 30_000 + 2000 * 60),
            "{go}"
        );
    }
    // B is Black in the first game: its first move starts with its 30 s.
    assert!(
        goes[0].ends_with(" btime 30000 winc 2000 binc 2000"),
        "{}",
        goes[0]
    );
}

#[test]
fn tc_and_movetime_exclude_each_other() {
    let (ok, _, err) = brett(
        &[
            "match",
            "--a",
            "level:1",
            "--b",
            "level:1",
            "--tc",
            "1+0",
            "--movetime",
            "10",
        ],
        "",
    );
    assert!(!ok && err.contains("cannot be used with"), "{err}");
    let (ok, _, err) = brett(
        &["match", "--a", "level:1", "--b", "level:1", "--tc", "3d"],
        "",
    );
    assert!(!ok && err.contains("live control"), "{err}");
    let (ok, _, err) = brett(
        &["match", "--a", "level:1", "--b", "level:1", "--tc", "fast"],
        "",
    );
    assert!(!ok && err.contains("no time control"), "{err}");
}

/// `brett admin`: the reported chat messages, resolving them, closing and
/// reopening accounts, on an SQLite file.
#[test]
fn admin_lists_reports_and_closes_accounts() {
    use server::storage::{
        self, ChatPosted, ChatRoom, GameMeta, NewAccount, NewChatMessage, NewGame, NewLogin,
        NewReport, Seat,
    };

    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("brett.db").display());
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let account = |name: &str| NewAccount {
        name: name.into(),
        name_key: name.to_lowercase(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA".into(),
        created_at: "2026-11-28T10:00:00Z".into(),
    };
    let report = runtime.block_on(async {
        let db = storage::open(&url).await.expect("new database");
        let anna = db.create_account(account("Anna")).await.unwrap().unwrap();
        let ben = db.create_account(account("Ben")).await.unwrap().unwrap();
        let login = NewLogin {
            token_hash: "a".repeat(64),
            account: ben,
            created_at: 0,
            expires_at: i64::MAX,
        };
        db.create_login(login).await.unwrap();
        let seat = |account: i64| Seat {
            token_hash: Some(format!("{account:064}")),
            joined: true,
            account: Some(account),
            ..Seat::default()
        };
        let game = db
            .create_game(NewGame {
                game: storage::Variant::Muehle,
                kind: "online".into(),
                rules: "standard".into(),
                start_position: ".../.../.../....../.../.../... w 9 9 0 1".into(),
                moves: Vec::new(),
                move_clocks: Vec::new(),
                meta: GameMeta {
                    updated_at: "2026-11-28T10:00:00Z".into(),
                    ..GameMeta::default()
                },
                seats: [seat(anna), seat(ben)],
                tags: Vec::new(),
                created_at: "2026-11-28T10:00:00Z".into(),
            })
            .await
            .unwrap();
        let message = NewChatMessage {
            game,
            room: ChatRoom::Players,
            seat: Some(1),
            account: Some(ben),
            name: Some("Ben".into()),
            text: "du Flasche".into(),
            at: 1_000,
        };
        let ChatPosted::Posted(m) = db.add_chat(message, Vec::new()).await.unwrap() else {
            panic!("not posted");
        };
        let report = db
            .report_chat(NewReport {
                message: m.id,
                reporter: anna,
                reason: "insult".into(),
                at: "2026-11-28T10:05:00Z".into(),
            })
            .await;
        db.close().await;
        report.unwrap().unwrap()
    });

    let admin = |args: &[&str]| {
        let mut all = vec!["admin"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--database", &url]);
        brett(&all, "")
    };
    let (ok, out, err) = admin(&["reports"]);
    assert!(ok, "{err}");
    for part in [
        &format!("report {report} [open]"),
        "game 1, players' room",
        "reported by Anna: insult",
        "Ben: du Flasche",
    ] {
        assert!(out.contains(part), "{part}: {out}");
    }
    let (ok, _, err) = admin(&["resolve", &report.to_string(), "--by", "Olga"]);
    assert!(ok && err.contains("resolved"), "{err}");
    let (ok, _, err) = admin(&["resolve", &report.to_string()]);
    assert!(!ok && err.contains("no open report"), "{err}");
    let (ok, out, err) = admin(&["reports"]);
    assert!(
        ok && out.is_empty() && err.contains("no open reports"),
        "{out}{err}"
    );
    let (ok, out, _) = admin(&["reports", "--all"]);
    assert!(ok && out.contains("by Olga"), "{out}");

    // Closing ends the logins and closes the account; reopening opens it.
    let (ok, _, err) = admin(&["close", "ben"]);
    assert!(ok && err.contains("Ben is closed"), "{err}");
    let (ok, _, err) = admin(&["close", "nobody"]);
    assert!(!ok && err.contains("no account 'nobody'"), "{err}");
    let state = || {
        runtime.block_on(async {
            let db = storage::open(&url).await.expect("database");
            let ben = db.account_by_name("ben").await.unwrap().unwrap();
            let login = db.account_by_login(&"a".repeat(64), 1).await.unwrap();
            db.close().await;
            (ben.closed, login.is_some())
        })
    };
    assert_eq!(state(), (true, false));
    let (ok, _, err) = admin(&["reopen", "Ben"]);
    assert!(ok && err.contains("open again"), "{err}");
    assert!(!state().0);
}

/// A match writes each record as its game ends: stopped part way, its
/// `--out` file holds the games it finished, each readable, and `--resume`
/// plays the rest (refusing a file of other options).
#[test]
fn a_stopped_match_keeps_the_records_of_its_finished_games_and_goes_on() {
    let dir = std::env::temp_dir().join(format!("brett-match-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let path = dir.join("games.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_brett"))
        .args([
            "match",
            "--a",
            "level:1",
            "--b",
            "level:1",
            "--games",
            "10000",
            "--movetime",
            "1",
            "--out",
        ])
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("brett runs");
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let finished = |text: &str| {
        match_records(text)
            .iter()
            .filter(|r| r.contains("\n\n1."))
            .count()
    };
    loop {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if finished(&text) >= 2 {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "no records while the match runs: {text}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().expect("stopped");
    child.wait().expect("waited");
    let text = std::fs::read_to_string(&path).expect("records kept");
    let records = match_records(&text);
    assert!(records.len() >= 2, "{text}");
    for record in &records {
        // A record cut off by the kill would not read back; each one does.
        muehle::Game::from_record(record).expect("a finished game's record");
        assert!(record.contains("[Result \""), "{record}");
    }

    // `--resume` goes on with it. A record cut off at the end (as a stop
    // in the middle of a write would leave it) is played again.
    let finished_before = records.len();
    let games = finished_before + 3;
    let last_start = text.rfind("[Event").expect("a record");
    let cut = text[last_start..].find("[White").expect("tags") + 4;
    let damaged = format!("{text}{}", &text[last_start..last_start + cut]);
    std::fs::write(&path, &damaged).expect("write");
    let games_arg = games.to_string();
    let path_arg = path.to_str().expect("utf-8");
    let run = |a: &str, games: &str| {
        brett(
            &[
                "match",
                "--a",
                a,
                "--b",
                "level:1",
                "--games",
                games,
                "--movetime",
                "1",
                "--out",
                path_arg,
                "--resume",
            ],
            "",
        )
    };
    let (ok, out, err) = run("level:1", &games_arg);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!(
            "{finished_before} games kept from the file, 3 to play"
        )),
        "{out}"
    );
    let text = std::fs::read_to_string(&path).expect("records");
    assert!(
        text.starts_with(
            "{brett match: game=muehle rules=standard a=level:1 b=level:1 movetime=1 "
        ),
        "{text}"
    );
    let records = match_records(&text);
    let mut rounds: Vec<usize> = records
        .iter()
        .map(|r| {
            muehle::Game::from_record(r).expect("every record reads back");
            r.split("[Round \"")
                .nth(1)
                .and_then(|t| t.split('"').next())
                .and_then(|n| n.parse().ok())
                .expect("a Round")
        })
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=games).collect::<Vec<_>>(), "{text}");
    // The summary counts every game, kept or played now: A's wins and
    // losses are those of the records (A has White in odd rounds).
    let a_wins = records
        .iter()
        .filter(|r| {
            let white = r.contains("[Round \"") && {
                let n: usize = r
                    .split("[Round \"")
                    .nth(1)
                    .and_then(|t| t.split('"').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                n % 2 == 1
            };
            r.contains(if white {
                "[Result \"1-0\"]"
            } else {
                "[Result \"0-1\"]"
            })
        })
        .count();
    assert!(
        out.contains(&format!("wins {a_wins} ")) && out.contains(&format!(" of {games}")),
        "{out}"
    );

    // Other options are refused, and the file is left as it is; so is a
    // file without the options line.
    let (ok, _, err) = run("level:2", &games_arg);
    assert!(!ok && err.contains("other options"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("file"), text);
    let headless = text.split_once('\n').expect("lines").1.to_string();
    std::fs::write(&path, &headless).expect("write");
    let (ok, _, err) = run("level:1", &games_arg);
    assert!(!ok && err.contains("cannot be resumed"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("file"), headless);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match stopped by `--max-plies` (a Mühle game still going is then a
/// draw by adjudication, e.g. placing-only games with `--max-plies 18`)
/// goes on with `--resume`: its adjudicated records read back as draws.
#[test]
fn a_match_of_adjudicated_muehle_games_is_resumed() {
    let dir = std::env::temp_dir().join(format!("brett-match-plies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let path = dir.join("games.txt");
    let path_arg = path.to_str().expect("utf-8");
    let run = |games: &str, resume: bool| {
        let mut args = vec![
            "match",
            "--a",
            "level:1",
            "--b",
            "level:1",
            "--games",
            games,
            "--max-plies",
            "4",
            "--movetime",
            "1",
            "--out",
            path_arg,
        ];
        if resume {
            args.push("--resume");
        }
        brett(&args, "")
    };
    let (ok, _, err) = run("2", false);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&path).expect("records");
    assert_eq!(
        text.matches("{drawn by adjudication after 4 plies}")
            .count(),
        2,
        "{text}"
    );
    let (ok, out, err) = run("4", true);
    assert!(ok, "{err}");
    assert!(
        out.contains("2 games kept from the file, 2 to play"),
        "{out}"
    );
    assert!(out.contains("wins 0 draws 4 losses 0 of 4"), "{out}");
    let text = std::fs::read_to_string(&path).expect("records");
    let records = match_records(&text);
    assert_eq!(records.len(), 4, "{text}");
    for (i, record) in records.iter().enumerate() {
        assert!(record.contains(&format!("[Round \"{}\"]", i + 1)), "{text}");
        assert!(record.contains("[Result \"1/2-1/2\"]"), "{record}");
    }
    // A record that is not ended and says no adjudication is still refused.
    let forged = text.replacen("{drawn by adjudication after 4 plies}", "{stopped}", 1);
    std::fs::write(&path, &forged).expect("write");
    let (ok, _, err) = run("6", true);
    assert!(!ok && err.contains("does not end the game"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("file"), forged);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `match --threads N` gives each level player N search threads, named in
/// the summary; 0 threads is refused with a message.
#[test]
fn match_levels_search_with_the_threads_asked_for() {
    let (ok, out, err) = brett(
        &[
            "match",
            "--a",
            "level:4",
            "--b",
            "level:2",
            "--games",
            "2",
            "--movetime",
            "20",
            "--threads",
            "2",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("A = brett level 4 (2 threads) vs B = brett level 2 (2 threads)"),
        "{out}"
    );
    assert!(out.contains("wins"), "{out}");
    let (ok, _, err) = brett(
        &[
            "match",
            "--a",
            "level:4",
            "--b",
            "level:2",
            "--threads",
            "0",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("--threads"), "{err}");
}

/// `brett tablebase book --game …`: the Dame book is made, resumed (a
/// second run adds nothing) and refused for rules it is not made for.
#[test]
fn a_dame_book_is_made_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dame.book");
    let file = out.to_str().unwrap();
    let args = [
        "tablebase",
        "book",
        "--game",
        "dame",
        "--out",
        file,
        "--roots-ply",
        "1",
        "--max-ply",
        "2",
        "--depth",
        "3",
        "--candidates",
        "2",
    ];
    let (ok, stdout, stderr) = brett(&args, "");
    assert!(ok, "{stderr}");
    // The start, its 7 children, then the moves followed from them.
    let held: usize = stdout
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(held > 8, "{stdout}");
    assert!(stdout.contains(&format!("{held} new")), "{stdout}");
    let (ok, stdout, stderr) = brett(&args, "");
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains(&format!("{held} positions, 0 new")),
        "{stdout}"
    );
    let book = engine::dame::book::Book::read(&out).unwrap();
    assert_eq!(book.len(), held);
    assert!(book.contains(&dame::Position::new(dame::RuleSet::DAME)));
    // A book of another game, built apart, merged in: one file for both.
    let other = dir.path().join("international.book");
    let (ok, _, stderr) = brett(
        &[
            "tablebase",
            "book",
            "--game",
            "international",
            "--out",
            other.to_str().unwrap(),
            "--max-ply",
            "0",
            "--depth",
            "2",
        ],
        "",
    );
    assert!(ok, "{stderr}");
    let (ok, stdout, stderr) = brett(
        &[
            "tablebase",
            "book",
            "--game",
            "dame",
            "--out",
            file,
            "--max-ply",
            "0",
            "--merge",
            other.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{stderr}");
    assert!(stderr.contains("1 positions added from"), "{stderr}");
    assert!(
        stdout.contains(&format!("{} positions, 0 new", held + 1)),
        "{stdout}"
    );
    let book = engine::dame::book::Book::read(&out).unwrap();
    assert!(book.contains(&dame::Position::new(dame::RuleSet::INTERNATIONAL)));
    for (bad, why) in [
        (&["--game", "dame,huffing=on"][..], "presets"),
        (&["--game", "dame", "--candidates", "4"], "--candidates"),
        (&["--merge", "other.book"], "--merge is for the Dame book"),
        (
            &["--game", "dame", "--games", "g.pgn"],
            "--games is for Mühle's book",
        ),
    ] {
        let mut a = vec!["tablebase", "book", "--out", file];
        a.extend_from_slice(bad);
        let (ok, _, stderr) = brett(&a, "");
        assert!(!ok && stderr.contains(why), "{bad:?}: {stderr}");
    }
}

/// `brett tablebase book --games FILE`: Mühle's book takes the placing
/// positions of played games past `--max-ply` (here without databases, so
/// with the search's moves unproven), a second run adds nothing, and a
/// record that does not read is refused with its number.
#[test]
fn a_muehle_book_takes_the_positions_of_played_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    let out = dir.path().join("muehle.book");
    let games = dir.path().join("games.pgn");
    std::fs::write(
        &games,
        "[Event \"a\"]\n[White \"brett\"]\n[Black \"other\"]\n[Result \"*\"]\n\n\
         1. e4 f4 2. d2 d6 3. b4 d1 4. f6 b2 5. d5 e3 6. a4 c4 7. g1 c3 8. d3 c5xf6 9. f6 a1 \
         10. g1-g4 *\n\n\
         [Event \"b\"]\n[White \"brett\"]\n[Black \"other\"]\n[Result \"*\"]\n\n1. e4 f4 2. d2 *\n",
    )
    .unwrap();
    let args = [
        "tablebase",
        "book",
        "--dir",
        db.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--roots-ply",
        "0",
        "--max-ply",
        "0",
        "--depth",
        "2",
        "--table",
        "10000",
        "--games",
        games.to_str().unwrap(),
    ];
    let (ok, stdout, stderr) = brett(&args, "");
    assert!(ok, "{stderr}");
    // The start, then the 17 placing positions after it of the first game
    // (the second game's two are among them).
    assert!(
        stderr.contains("19 placing positions past ply 0"),
        "{stderr}"
    );
    assert!(
        stdout.contains("18 positions (0 proven not to lose), 18 new"),
        "{stdout}"
    );
    let (ok, stdout, stderr) = brett(&args, "");
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("18 positions (0 proven not to lose), 0 new"),
        "{stdout}"
    );
    let book = engine::muehle::book::Book::read(&out).unwrap();
    let mut pos = muehle::Position::new(muehle::RuleSet::STANDARD);
    for m in ["e4", "f4", "d2", "d6", "b4"] {
        assert!(book.contains(&pos), "{}", pos.fen());
        pos.play_unchecked(pos.parse_move(m).unwrap());
    }
    // Only the positions where brett was to move (White in both records):
    // 8 of the first game and the second game's one (a transposition).
    let mine = dir.path().join("mine.book");
    let mut only = args.to_vec();
    only[5] = mine.to_str().unwrap();
    only.extend(["--games-player", "brett"]);
    let (ok, stdout, stderr) = brett(&only, "");
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("9 placing positions past ply 0"),
        "{stderr}"
    );
    assert!(
        stdout.contains("9 positions (0 proven not to lose), 9 new"),
        "{stdout}"
    );
    let mine = engine::muehle::book::Book::read(&mine).unwrap();
    let mut pos = muehle::Position::new(muehle::RuleSet::STANDARD);
    for m in ["e4", "f4", "d2", "d6", "b4"] {
        assert_eq!(
            mine.contains(&pos),
            pos.turn() == muehle::Color::White,
            "{}",
            pos.fen()
        );
        pos.play_unchecked(pos.parse_move(m).unwrap());
    }
    std::fs::write(&games, "[Event \"a\"]\n\n1. e4 e4 *\n").unwrap();
    let (ok, _, stderr) = brett(&args, "");
    assert!(!ok && stderr.contains("record 1"), "{stderr}");
}

/// `brett tune --labels FILE --network OUT` fits Mühle's network to a
/// label file and writes it; `--mill-network OUT` plays with it in place of
/// the built-in one and `--no-mill-network` without any (the search sees
/// other scores each time: three node signatures), and a file that is not
/// a network is refused with its size, as is a network with
/// `--no-mill-network`.
#[test]
fn a_mill_network_is_fitted_and_played_with() {
    let dir = tempfile::tempdir().expect("tmp");
    let labels = dir.path().join("labels.txt");
    let mut rng = 11u64;
    let mut next = |n: usize| {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) as usize % n
    };
    let mut text = String::new();
    for _ in 0..400 {
        let mut pos = muehle::Position::new(muehle::RuleSet::STANDARD);
        for _ in 0..4 + next(10) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_game_over() {
                break;
            }
            pos = pos.play(moves[next(moves.len())]).expect("legal");
        }
        let value = ["win 3", "draw", "loss 2"][next(3)];
        text.push_str(&format!("{}\t{value}\n", pos.fen()));
    }
    std::fs::write(&labels, text).expect("write");
    let net = dir.path().join("net.bin");
    let net_arg = net.to_str().expect("utf-8");
    let (ok, out, err) = brett(
        &[
            "tune",
            "--labels",
            labels.to_str().expect("utf-8"),
            "--network",
            net_arg,
            "--epochs",
            "2",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("pass 2: held-out loss") && out.contains("network written"),
        "{out}"
    );
    let size = std::fs::metadata(&net).expect("written").len();
    assert_eq!(size as usize, 2 * muehle::network::VALUES);
    let nodes = |args: &[&str]| {
        let (ok, out, err) = brett(args, "");
        assert!(ok, "{err}");
        out.lines()
            .last()
            .and_then(|l| l.split_whitespace().nth(4))
            .map(str::to_string)
            .expect("a signature")
    };
    let built_in = nodes(&["--no-tablebase", "bench", "6"]);
    let with = nodes(&["--no-tablebase", "--mill-network", net_arg, "bench", "6"]);
    let without = nodes(&["--no-tablebase", "--no-mill-network", "bench", "6"]);
    assert!(
        built_in != with && built_in != without && with != without,
        "each network changes the scores the search sees: {built_in} {with} {without}"
    );
    let (ok, _, err) = brett(
        &["--no-mill-network", "--mill-network", net_arg, "bench", "2"],
        "",
    );
    assert!(!ok && err.contains("cannot be used with"), "{err}");
    let (ok, _, err) = brett(
        &[
            "--mill-network",
            labels.to_str().expect("utf-8"),
            "bench",
            "2",
        ],
        "",
    );
    assert!(!ok && err.contains("a Mühle network file holds"), "{err}");
    // A wider first layer: its file is larger, and brett plays with it.
    let wide = dir.path().join("wide.bin");
    let wide_arg = wide.to_str().expect("utf-8");
    let fit = |width: &str, out: &str| {
        brett(
            &[
                "tune",
                "--labels",
                labels.to_str().expect("utf-8"),
                "--network",
                out,
                "--epochs",
                "1",
                "--network-width",
                width,
            ],
            "",
        )
    };
    let (ok, out, err) = fit("128", wide_arg);
    assert!(ok, "{err}");
    assert!(out.contains("a first layer of 128 units"), "{out}");
    let size = std::fs::metadata(&wide).expect("written").len();
    assert_eq!(size as usize, 2 * muehle::network::values(128));
    let wider = nodes(&["--no-tablebase", "--mill-network", wide_arg, "bench", "6"]);
    assert!(wider != built_in && wider != without, "{wider}");
    let (ok, _, err) = fit("100", wide_arg);
    assert!(!ok && err.contains("--network-width"), "{err}");
}

/// With the Dame databases, `brett tune --make-labels` labels each
/// position they hold with its exact value, and the other positions of a
/// game with the value of the first position of the game they hold (not
/// the result the self-play reached); the options line says up to how
/// many pieces. Without them (`--no-tablebase`) the same games are
/// labelled by their results.
#[test]
fn dame_labels_take_the_databases_values() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("db");
    let db_arg = db.to_str().expect("utf-8");
    let (ok, _, err) = build_dame_tables(db_arg);
    assert!(ok, "{err}");
    let make = |file: &std::path::Path, databases: bool| {
        let mut args = vec![];
        if databases {
            args.extend(["--tablebase-dir", db_arg]);
        } else {
            args.push("--no-tablebase");
        }
        args.extend([
            "tune",
            "--game",
            "dame",
            "--make-labels",
            file.to_str().expect("utf-8"),
            "--games",
            "20",
            "--depth",
            "2",
            "--opening-plies",
            "4",
            "--random-share",
            "0.2",
            "--max-plies",
            "300",
            "--threads",
            "1",
        ]);
        let (ok, _, err) = brett(&args, "");
        assert!(ok, "{err}");
        std::fs::read_to_string(file).expect("labels")
    };
    let with = make(&dir.path().join("with.txt"), true);
    let without = make(&dir.path().join("without.txt"), false);
    let options = |t: &str| t.lines().nth(1).unwrap_or_default().to_string();
    assert!(
        options(&with).ends_with(" max-plies=300 databases=3"),
        "{with}"
    );
    assert!(options(&without).ends_with(" max-plies=300"), "{without}");
    let tb = tablebase::dame::DameTablebase::new(&db);
    let lines = |t: &str| -> Vec<(String, String)> {
        t.lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let (with, without) = (lines(&with), lines(&without));
    // The same games: the self-play does not use the databases.
    assert_eq!(with.len(), without.len());
    let (mut held, mut changed) = (0, 0);
    for ((fen, label), (fen_b, _)) in with.iter().zip(&without) {
        assert_eq!(fen, fen_b);
        let pos = dame::Position::from_fen(fen, dame::RuleSet::DAME).expect("a position");
        if let Some(v) = engine::dame::databases::probe_in(&tb, &pos) {
            held += 1;
            let exact = match v {
                search::Exact::Win(_) => "1",
                search::Exact::Draw => "0.5",
                search::Exact::Loss(_) => "0",
            };
            assert_eq!(label, exact, "{fen}");
        }
    }
    for ((_, a), (_, b)) in with.iter().zip(&without) {
        changed += usize::from(a != b);
    }
    assert!(held > 0 && changed > 0, "{held} held, {changed} changed");
}
