//! Mühle at the command line and in the engine protocol: the terminal's
//! words, a mill's removal typed on its own, the databases' perfect play.

use boardgame::Color;
use engine::MuehleState;
use engine::muehle::databases;
use muehle::{Game, Move, Position};

use super::{BoardArt, Entered, LocalGame, local_shared};

/// The reasons of a line: those of its first move.
fn why(pos: &Position, pv: &[Move], score: search::Score) -> Vec<engine::explain::Reason> {
    pv.first()
        .map(|mv| engine::muehle::explain::reasons(pos, *mv, Some(score)))
        .unwrap_or_default()
}

impl LocalGame for Game {
    local_shared!(muehle, MuehleState, Muehle, why);

    fn title(&self) -> &'static str {
        "Mühle"
    }

    fn help(&self) -> &'static str {
        concat!(
            "\
Commands:
  d6, g7-g4, d6xb4, f2-f4xd5   play a move (place, slide or fly; xSQ removes a stone after a mill)
  moves      list the legal moves
  hint       the engine's suggestion
  list       the moves played so far (game record)
  undo       take back the last move
  draw       offer a draw (the opponent answers with 'accept', or declines by moving)
  accept     accept the opponent's draw offer
  decline    decline the opponent's draw offer
",
            super::help_tail!()
        )
    }

    fn match_result_tag(&self) -> bool {
        true
    }

    fn render(&self, art: &dyn BoardArt) -> String {
        art.muehle(self.position(), self.moves().last().copied())
    }

    fn prompt_detail(&self) -> String {
        let pos = self.position();
        format!(" ({})", pos.phase(pos.turn()).name())
    }

    fn incomplete_prompt(&self) -> String {
        format!(
            "Mill! {} removes which stone? ",
            self.position().turn().title()
        )
    }

    fn outcome_detail(&self) -> Option<String> {
        self.outcome()
            .map(|o| format!("{} ({}, {})", o.result_str(), o.reason.code(), o.describe()))
    }

    fn blocked_loser(&self) -> Option<Color> {
        match self.outcome() {
            Some(o) if o.reason == muehle::EndReason::Blocked => o.winner.map(|w| !w),
            _ => None,
        }
    }

    fn enter(&mut self, text: &str, partial: Option<&str>) -> Entered {
        use muehle::{GameError, MoveError};
        let m = match partial.map(Move::parse) {
            None => match Move::parse(text) {
                Ok(m) => m,
                Err(e) => return Entered::Refused(format!("{e}. Type 'help' for the commands.")),
            },
            Some(Ok(m)) => match text.trim_start_matches(['x', 'X']).parse() {
                Ok(r) => m.with_removal(r),
                Err(e) => return Entered::Incomplete(m.to_string(), e.to_string()),
            },
            Some(Err(e)) => return Entered::Refused(e.to_string()),
        };
        match Game::play(self, m) {
            Ok(()) => Entered::Played(m.to_string()),
            Err(GameError::Move(MoveError::RemovalRequired { removable, .. })) => {
                Entered::Incomplete(
                    m.to_string(),
                    format!("{m} closes a mill. Removable: {removable}."),
                )
            }
            Err(e) => Entered::Refused(e.to_string()),
        }
    }

    fn undo_last(&mut self) -> Result<String, String> {
        self.undo()
            .map(|m| m.to_string())
            .map_err(|e| e.to_string())
    }

    fn play_tokens(&mut self, tokens: &[&str]) -> Result<(), String> {
        for (i, text) in muehle::join_removal_tokens(tokens.iter().copied())
            .iter()
            .enumerate()
        {
            self.play_str(text)
                .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        }
        Ok(())
    }

    fn tablebase_note(&self) -> Option<String> {
        let pos = self.position();
        let tb = databases::for_rules(pos.rules())?;
        match tb.probe(pos) {
            Ok(Some(v)) => Some(format!(
                "tablebase {v} ({})",
                databases::verdict(pos.turn(), v)
            )),
            Ok(None) => None,
            Err(e) => Some(format!("tablebase unavailable: {e}")),
        }
    }

    fn perfect_move(&self) -> Result<Option<String>, String> {
        let pos = self.position();
        if pos.in_hand(Color::White) > 0 || pos.in_hand(Color::Black) > 0 || self.is_over() {
            return Ok(None);
        }
        if let Some(mut moves) = databases::probe_moves(pos) {
            moves.sort_by_key(|&(_, e, pref)| std::cmp::Reverse((e.rank(), pref)));
            return Ok(moves.first().map(|m| m.0.to_string()));
        }
        // The no-mill counter may make a database distance unreachable
        // (the engine then does not take it as exact): the databases' best
        // move all the same, as Malom plays.
        let held =
            databases::for_rules(pos.rules()).and_then(|tb| tb.probe_moves(pos).ok().flatten());
        match held {
            Some(moves) => Ok(moves.first().map(|m| m.0.to_string())),
            None => Err(format!(
                "'perfect': the databases do not hold {} (build them with `brett tablebase build --rules {}`)",
                pos.fen(),
                pos.rules()
            )),
        }
    }

    fn perfect_play(&self) -> Vec<String> {
        let pos = self.position();
        let mut lines = Vec::new();
        if let Some(tb) = databases::for_rules(pos.rules())
            && !self.is_over()
            && let Ok(Some(value)) = tb.probe(pos)
            && let Ok(Some(moves)) = tb.probe_moves(pos)
        {
            lines.push(format!(
                "\nPerfect play: {}",
                databases::verdict(pos.turn(), value)
            ));
            lines.push("Every move (value for the side to move):".to_string());
            for (m, v) in moves {
                lines.push(format!("  {:<12} {v}", m.to_string()));
            }
        }
        lines
    }

    fn engine_position(&self) -> Result<(String, Vec<String>), String> {
        let moves = self.moves().iter().map(|m| m.to_string()).collect();
        let start = if self.start().fen() == Position::new(*self.start().rules()).fen() {
            "startpos".to_string()
        } else {
            format!("fen {}", self.start().fen())
        };
        Ok((start, moves))
    }

    fn engine_move(&self, words: &[String]) -> Result<String, String> {
        // The removal may come as its own token: "bestmove d6 xb4".
        let text: String = words.concat();
        self.position()
            .parse_move(&text)
            .map(|m| m.to_string())
            .map_err(|e| format!("an illegal move '{text}': {e}"))
    }
}
