//! Dame at the command line and in the engine protocol: the terminal's
//! words, huffing (`huff SQ`, the engine's huff before its move), and the
//! position an older engine can read.

use dame::{Game, Position};
use engine::DameState;
use engine::dame::databases;

use super::{BoardArt, Entered, LocalGame, local_shared};

impl LocalGame for Game {
    local_shared!(dame, DameState, Dame, |pos, pv, score| {
        engine::dame::explain::reasons(pos, pv, Some(score))
    });

    fn title(&self) -> &'static str {
        "Dame"
    }

    fn help(&self) -> &'static str {
        concat!(
            "\
Commands:
  c3-d4, c3xe5, c3xe5xg7 (8x8) or 32-28, 28x19x10 (10x10)   play a move
             (a capture may be given by start and end alone when that is unique)
  huff SQ    remove the opponent's piece on SQ that skipped a capture (huffing on)
  moves      list the legal moves
  hint       the engine's suggestion
  list       the moves played so far
  undo       take back the last move
  draw       offer a draw;  accept / decline the opponent's offer
",
            super::help_tail!()
        )
    }

    fn match_result_tag(&self) -> bool {
        false
    }

    fn render(&self, art: &dyn BoardArt) -> String {
        art.dame(self.position())
    }

    fn huffable(&self) -> Vec<String> {
        Game::huffable(self)
            .squares(self.position().size())
            .map(|s| s.name().to_string())
            .collect()
    }

    fn outcome_detail(&self) -> Option<String> {
        self.outcome()
            .map(|o| format!("{} ({})", o.result_str(), o.describe()))
    }

    fn enter(&mut self, text: &str, _partial: Option<&str>) -> Entered {
        match self.play_str(text) {
            Ok(m) => Entered::Played(m.to_string()),
            Err(e) => Entered::Refused(format!("{e}. Type 'help' for the commands.")),
        }
    }

    fn command(&mut self, line: &str) -> Option<Result<String, String>> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        if !word.eq_ignore_ascii_case("huff") {
            return None;
        }
        let turn = self.position().turn();
        Some(match self.huff_str(rest.trim()) {
            Ok(sq) => Ok(format!(
                "{} huffs the piece on {}.",
                turn.title(),
                sq.name()
            )),
            Err(e) => Err(e.to_string()),
        })
    }

    fn undo_last(&mut self) -> Result<String, String> {
        match self.undo() {
            Ok(dame::Undone::Move(m)) => Ok(m.to_string()),
            Ok(dame::Undone::Huff(sq)) => Ok(format!("the huff on {}", sq.name())),
            Err(e) => Err(e.to_string()),
        }
    }

    fn play_tokens(&mut self, tokens: &[&str]) -> Result<(), String> {
        let size = self.position().size();
        for (i, text) in tokens.iter().enumerate() {
            // A huff is `H` and one square of the board; anything else is a
            // move (`h2-g3`, `h4xf6` on 8×8 are moves): the one rule of
            // `dame::parse_huff_token`.
            let result = match dame::parse_huff_token(text, size) {
                Some(sq) => Game::huff(self, sq),
                None => self.play_str(text).map(|_| ()),
            };
            result.map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        }
        Ok(())
    }

    fn huff_for_engine(&mut self) -> Option<String> {
        let sq = engine::dame::best_huff(self)?;
        Game::huff(self, sq).ok()?;
        Some(sq.name().to_string())
    }

    fn tablebase_note(&self) -> Option<String> {
        let v = databases::installed()?.probe_value(self.position())?;
        Some(format!("tablebase {v} ({})", databases::verdict(v)))
    }

    fn engine_position(&self) -> Result<(String, Vec<String>), String> {
        let mut moves: Vec<String> = self.moves().iter().map(|m| m.to_string()).collect();
        // Engines before this version read a move starting with `h` (8×8:
        // `h2-g3`) as a huff: such a move is sent as the position after it.
        let cut = moves
            .iter()
            .rposition(|m| m.starts_with(['h', 'H']))
            .map_or(0, |i| i + 1);
        let start = if cut > 0 {
            let at = self
                .position_at(cut)
                .ok_or_else(|| format!("no position after move {cut}"))?;
            format!("fen {}", at.fen())
        } else if self
            .start()
            .same_position(&Position::new(*self.start().rules()))
        {
            "startpos".to_string()
        } else {
            format!("fen {}", self.start().fen())
        };
        moves.drain(..cut);
        Ok((start, moves))
    }

    fn engine_move(&self, words: &[String]) -> Result<String, String> {
        let word = words.first().map_or("", String::as_str);
        self.position()
            .parse_move(word)
            .map(|m| m.to_string())
            .map_err(|e| format!("an illegal move '{word}': {e}"))
    }
}
