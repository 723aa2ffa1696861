//! `brett play`: a game in the terminal, two people at one keyboard.

use std::io::{self, BufRead, Write};

use anyhow::Result;
use muehle::{Color, Game, GameError, Move, MoveError};

use crate::board;

/// Arguments of `brett play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Rule set (preset and options).
    #[arg(long, default_value = "standard", long_help = super::RULES_HELP)]
    rules: String,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    position: Option<String>,
}

impl Default for Args {
    fn default() -> Args {
        Args {
            rules: "standard".to_string(),
            position: None,
        }
    }
}

const HELP: &str = "\
Commands:
  d6, g7-g4, d6xb4, f2-f4xd5   play a move (place, slide or fly; xSQ removes a stone after a mill)
  moves      list the legal moves
  list       the moves played so far (game record)
  undo       take back the last move
  draw       offer a draw (the opponent answers with 'accept', or declines by moving)
  accept     accept the opponent's draw offer
  decline    decline the opponent's draw offer
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

pub fn run(args: Args) -> Result<()> {
    let rules = super::parse_rules(&args.rules)?;
    let start = super::start_position(rules, args.position.as_deref())?;
    let stdin = io::stdin();
    let stdout = io::stdout();
    play_loop(Game::from_position(start), stdin.lock(), stdout.lock())
}

/// The game loop over any input and output (used by the tests with text).
pub fn play_loop(mut game: Game, input: impl BufRead, mut out: impl Write) -> Result<()> {
    let start = *game.start();
    writeln!(
        out,
        "Mühle — rules: {}. Type 'help' for the commands.\n",
        game.rules()
    )?;
    show(&game, &mut out)?;
    let mut lines = input.lines();
    // A mill move waiting for the stone to remove.
    let mut pending: Option<Move> = None;
    loop {
        let pos = *game.position();
        if let Some(m) = pending {
            write!(out, "Mill! {} removes which stone? ", side(pos.turn()))?;
            let _ = m;
        } else if game.is_over() {
            write!(out, "Game over. 'undo', 'new', 'list' or 'quit' > ")?;
        } else {
            let mover = pos.turn();
            let offer = if game.draw_offer() == Some(mover.other()) {
                format!(
                    " [{} offers a draw: 'accept' or play on]",
                    side(mover.other())
                )
            } else {
                String::new()
            };
            write!(
                out,
                "{} ({}){offer} > ",
                side(mover),
                pos.phase(mover).name()
            )?;
        }
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            return Ok(());
        };
        let line = line?;
        let cmd = line.trim();
        if cmd.is_empty() {
            continue;
        }
        if let Some(m) = pending.take() {
            let sq = cmd.trim_start_matches(['x', 'X']);
            match sq.parse() {
                Ok(r) => try_move(&mut game, m.with_removal(r), &mut pending, &mut out)?,
                Err(e) => {
                    writeln!(out, "{e}")?;
                    pending = Some(m);
                }
            }
            continue;
        }
        let mover = pos.turn();
        match cmd.to_ascii_lowercase().as_str() {
            "help" | "?" | "h" => write!(out, "{HELP}")?,
            "quit" | "exit" | "q" => return Ok(()),
            "show" | "board" => show(&game, &mut out)?,
            "moves" => {
                let moves: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
                if moves.is_empty() {
                    writeln!(out, "No legal moves.")?;
                } else {
                    writeln!(out, "{} legal moves: {}", moves.len(), moves.join(" "))?;
                }
            }
            "list" | "history" | "record" => writeln!(out, "{}", game.movetext())?,
            "undo" | "takeback" => match game.undo() {
                Ok(m) => {
                    writeln!(out, "Took back {m}.")?;
                    show(&game, &mut out)?;
                }
                Err(e) => writeln!(out, "{e}")?,
            },
            "new" => {
                game = Game::from_position(start);
                writeln!(out, "New game.")?;
                show(&game, &mut out)?;
            }
            "draw" => match game.offer_draw(mover) {
                Ok(true) => announce(&game, &mut out)?,
                Ok(false) => writeln!(out, "{} offers a draw.", side(mover))?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "accept" => match game.accept_draw(mover) {
                Ok(()) => announce(&game, &mut out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "decline" => match game.decline_draw(mover) {
                Ok(()) => writeln!(out, "{} declines the draw offer.", side(mover))?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "resign" => match game.resign(mover) {
                Ok(()) => announce(&game, &mut out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            _ => match Move::parse(cmd) {
                Ok(m) => try_move(&mut game, m, &mut pending, &mut out)?,
                Err(e) => writeln!(out, "{e}. Type 'help' for the commands.")?,
            },
        }
    }
}

fn try_move(
    game: &mut Game,
    m: Move,
    pending: &mut Option<Move>,
    out: &mut impl Write,
) -> Result<()> {
    match game.play(m) {
        Ok(()) => {
            writeln!(
                out,
                "{} played {m}.\n",
                side(game.position().turn().other())
            )?;
            show(game, out)?;
        }
        Err(GameError::Move(MoveError::RemovalRequired { removable, .. })) => {
            writeln!(out, "{m} closes a mill. Removable: {removable}.")?;
            *pending = Some(m);
        }
        Err(e) => writeln!(out, "{e}")?,
    }
    Ok(())
}

fn show(game: &Game, out: &mut impl Write) -> Result<()> {
    let last = game.moves().last().copied();
    write!(out, "{}", board::render(game.position(), last))?;
    write!(out, "{}", board::status(game.position()))?;
    if !game.moves().is_empty() {
        writeln!(out, "  Moves: {}", game.movetext())?;
    }
    writeln!(out)?;
    announce(game, out)
}

fn announce(game: &Game, out: &mut impl Write) -> Result<()> {
    if let Some(o) = game.outcome() {
        writeln!(out, "*** {} ({}) ***\n", o.describe(), o.result_str())?;
    }
    Ok(())
}
