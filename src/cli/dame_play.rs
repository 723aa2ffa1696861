//! `brett play --game dame…`: Dame in the terminal, two people at one
//! keyboard or against the computer.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Result;
use dame::{Color, Game, Move, Undone};
use engine::dame::best_huff;
use engine::{DameState, LevelPlayer};
use search::{Engine, Limits};

use crate::board;

const HELP: &str = "\
Commands:
  c3-d4, c3xe5, c3xe5xg7 (8x8) or 32-28, 28x19x10 (10x10)   play a move
             (a capture may be given by start and end alone when that is unique)
  huff SQ    remove the opponent's piece on SQ that skipped a capture (huffing on)
  moves      list the legal moves
  hint       the engine's suggestion
  list       the moves played so far
  undo       take back the last move
  draw       offer a draw;  accept / decline the opponent's offer
  resign     resign the game
  show       draw the board again
  new        start a new game with the same rules
  help       this text
  quit       leave
";

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The computer side of a Dame game.
pub struct DameComputer {
    pub side: Color,
    pub player: LevelPlayer,
    pub engine: Engine,
    pub time: Duration,
}

impl DameComputer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let history: Vec<u64> = (0..game.ply())
            .filter_map(|i| game.position_at(i).map(|p| p.hash()))
            .collect();
        let stop = AtomicBool::new(false);
        self.player
            .choose(
                &self.engine,
                &DameState::new(*game.position()),
                &history,
                Limits::movetime(self.time),
                &stop,
                &mut |_| {},
            )
            .map(|c| c.mv)
    }
}

fn show(game: &Game, out: &mut impl Write) -> Result<()> {
    write!(out, "{}", board::render_dame(game.position()))?;
    write!(out, "{}", board::dame_status(game.position()))?;
    if game.ply() > 0 {
        writeln!(out, "  Moves: {}", game.movetext())?;
    }
    let huffable: Vec<&str> = game
        .huffable()
        .squares(game.position().size())
        .map(|s| s.name())
        .collect();
    if !huffable.is_empty() {
        writeln!(
            out,
            "  A capture was skipped: 'huff SQ' may remove {}",
            huffable.join(", ")
        )?;
    }
    writeln!(out)?;
    if let Some(o) = game.outcome() {
        writeln!(out, "*** {} ({}) ***\n", o.describe(), o.result_str())?;
    }
    Ok(())
}

/// The game loop over any input and output.
pub fn play_loop(
    mut game: Game,
    mut computer: Option<DameComputer>,
    input: impl BufRead,
    mut out: impl Write,
) -> Result<()> {
    let start = *game.start();
    writeln!(
        out,
        "Dame — rules: {}. Type 'help' for the commands.\n",
        game.rules()
    )?;
    if let Some(c) = &computer {
        writeln!(
            out,
            "The computer plays {} at level {}.\n",
            side(c.side),
            c.player.level
        )?;
    }
    show(&game, &mut out)?;
    let mut lines = input.lines();
    loop {
        let turn = game.position().turn();
        if let Some(c) = computer.as_mut()
            && !game.is_over()
            && turn == c.side
        {
            if let Some(sq) = best_huff(&game)
                && game.huff(sq).is_ok()
            {
                writeln!(out, "The computer huffs the piece on {}.", sq.name())?;
            }
            if let Some(m) = c.choose(&game) {
                game.play(&m)?;
                writeln!(out, "The computer ({}) plays {m}.\n", side(c.side))?;
                show(&game, &mut out)?;
            }
            continue;
        }
        if game.is_over() {
            write!(out, "Game over. 'undo', 'new', 'list' or 'quit' > ")?;
        } else {
            write!(out, "{} > ", side(turn))?;
        }
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            return Ok(());
        };
        let line = line?;
        let cmd = line.trim();
        let lower = cmd.to_ascii_lowercase();
        let (word, rest) = lower.split_once(' ').unwrap_or((lower.as_str(), ""));
        match word {
            "" => {}
            "help" | "?" => write!(out, "{HELP}")?,
            "quit" | "exit" | "q" => return Ok(()),
            "show" | "board" => show(&game, &mut out)?,
            "moves" => {
                let moves: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
                writeln!(out, "{} legal moves: {}", moves.len(), moves.join(" "))?;
            }
            "list" | "record" => writeln!(out, "{}", game.movetext())?,
            "hint" => {
                let mut helper = DameComputer {
                    side: turn,
                    player: LevelPlayer::new(10, 1),
                    engine: Engine::new(16, 1),
                    time: Duration::from_millis(500),
                };
                match helper.choose(&game) {
                    Some(m) => writeln!(out, "Hint: {m}")?,
                    None => writeln!(out, "No legal moves.")?,
                }
            }
            "huff" => match game.huff_str(rest.trim()) {
                Ok(sq) => {
                    writeln!(out, "{} huffs the piece on {}.", side(turn), sq.name())?;
                    show(&game, &mut out)?;
                }
                Err(e) => writeln!(out, "{e}")?,
            },
            "undo" => {
                let mut took = Vec::new();
                match game.undo() {
                    Ok(u) => took.push(u),
                    Err(e) => writeln!(out, "{e}")?,
                }
                // Against the computer, take back its reply and your move.
                if let Some(c) = &computer
                    && !took.is_empty()
                    && game.position().turn() == c.side
                    && let Ok(u) = game.undo()
                {
                    took.push(u);
                }
                for u in took {
                    match u {
                        Undone::Move(m) => writeln!(out, "Took back {m}.")?,
                        Undone::Huff(sq) => writeln!(out, "Took back the huff on {}.", sq.name())?,
                    }
                }
                show(&game, &mut out)?;
            }
            "new" => {
                game = Game::from_position(start);
                show(&game, &mut out)?;
            }
            "draw" => match game.offer_draw(turn) {
                Ok(true) => show(&game, &mut out)?,
                Ok(false) => writeln!(out, "{} offers a draw.", side(turn))?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "accept" => match game.accept_draw(turn) {
                Ok(()) => show(&game, &mut out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "decline" => match game.decline_draw(turn) {
                Ok(()) => writeln!(out, "{} declines the draw offer.", side(turn))?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "resign" => match game.resign(turn) {
                Ok(()) => show(&game, &mut out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            _ => match game.play_str(cmd) {
                Ok(m) => {
                    writeln!(out, "{} played {m}.\n", side(turn))?;
                    show(&game, &mut out)?;
                }
                Err(e) => writeln!(out, "{e}. Type 'help' for the commands.")?,
            },
        }
    }
}
