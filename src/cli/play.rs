//! `brett play`: a game in the terminal, two people at one keyboard.

use std::io::{self, BufRead, Write};

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Result, bail};
use engine::{LevelPlayer, MuehleState};
use muehle::{Color, Game, GameError, Move, MoveError};
use search::{Engine, Limits};

use crate::board;

/// Arguments of `brett play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = super::GameKind::Muehle)]
    game: super::GameKind,
    /// Rule set: for Mühle a preset with options; for Dame a preset or options
    /// applied to the game's preset (e.g. 'huffing=on').
    #[arg(long, default_value = "standard", long_help = super::RULES_HELP)]
    rules: String,
    /// Start from this position (Mühle position string or Dame FEN).
    #[arg(long)]
    position: Option<String>,
    /// The computer plays this side: white, black or random (default: nobody,
    /// two people at one keyboard).
    #[arg(long)]
    computer: Option<String>,
    /// The computer's level, 1 (beginner) to 10 (full strength).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// The computer's thinking time per move in seconds.
    #[arg(long, default_value_t = 1.0)]
    time: f64,
    /// Seed for the computer's random choices (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

impl Default for Args {
    fn default() -> Args {
        Args {
            game: super::GameKind::Muehle,
            rules: "standard".to_string(),
            position: None,
            computer: None,
            level: 5,
            time: 1.0,
            seed: None,
        }
    }
}

/// The computer opponent of a terminal game.
pub struct Computer {
    pub side: Color,
    pub player: LevelPlayer,
    pub engine: Engine,
    pub time: Duration,
}

impl Computer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let history: Vec<u64> = (0..game.ply())
            .filter_map(|i| game.position_at(i).map(|p| p.hash()))
            .collect();
        let stop = AtomicBool::new(false);
        self.player
            .choose(
                &self.engine,
                &MuehleState::new(*game.position()),
                &history,
                Limits::movetime(self.time),
                &stop,
                &mut |_| {},
            )
            .map(|c| c.mv)
    }
}

const HELP: &str = "\
Commands:
  d6, g7-g4, d6xb4, f2-f4xd5   play a move (place, slide or fly; xSQ removes a stone after a mill)
  moves      list the legal moves
  hint       the engine's suggestion
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
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    if args.game != super::GameKind::Muehle {
        return run_dame(args, seed);
    }
    let rules = super::parse_rules(&args.rules)?;
    let start = super::start_position(rules, args.position.as_deref())?;
    let computer = computer_side(args.computer.as_deref(), seed)?.map(|side| Computer {
        side,
        player: LevelPlayer::new(args.level, seed),
        engine: Engine::new(32, 1),
        time: Duration::from_secs_f64(args.time.clamp(0.01, 600.0)),
    });
    let stdin = io::stdin();
    let stdout = io::stdout();
    play_loop(
        Game::from_position(start),
        computer,
        stdin.lock(),
        stdout.lock(),
    )
}

/// The game loop over any input and output (used by the tests with text).
pub fn play_loop(
    mut game: Game,
    mut computer: Option<Computer>,
    input: impl BufRead,
    mut out: impl Write,
) -> Result<()> {
    let start = *game.start();
    writeln!(
        out,
        "Mühle — rules: {}. Type 'help' for the commands.\n",
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
    // A mill move waiting for the stone to remove.
    let mut pending: Option<Move> = None;
    loop {
        let pos = *game.position();
        if let Some(c) = computer.as_mut()
            && pending.is_none()
            && !game.is_over()
            && pos.turn() == c.side
        {
            if game.draw_offer() == Some(c.side.other()) {
                writeln!(out, "The computer declines the draw offer.")?;
            }
            if let Some(m) = c.choose(&game) {
                game.play(m)?;
                writeln!(out, "The computer ({}) plays {m}.\n", side(c.side))?;
                show(&game, &mut out)?;
            }
            continue;
        }
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
                    // Against the computer, take back its reply and your move.
                    if let Some(c) = &computer
                        && game.position().turn() == c.side
                        && let Ok(m2) = game.undo()
                    {
                        writeln!(out, "Took back {m2}.")?;
                    }
                    show(&game, &mut out)?;
                }
                Err(e) => writeln!(out, "{e}")?,
            },
            "hint" => {
                let mut helper = Computer {
                    side: mover,
                    player: LevelPlayer::new(10, 1),
                    engine: Engine::new(16, 1),
                    time: Duration::from_millis(500),
                };
                match helper.choose(&game) {
                    Some(m) => writeln!(out, "Hint: {m}")?,
                    None => writeln!(out, "No legal moves.")?,
                }
            }
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

/// The computer's side from `--computer`.
fn computer_side(arg: Option<&str>, seed: u64) -> Result<Option<Color>> {
    Ok(match arg {
        None | Some("none") => None,
        Some("random") => Some(if seed.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }),
        Some(s) => match Color::from_name(s) {
            Some(c) => Some(c),
            None => bail!("--computer: '{s}' is not white, black, random or none"),
        },
    })
}

fn run_dame(args: Args, seed: u64) -> Result<()> {
    let rules_arg = (args.rules != "standard").then_some(args.rules.as_str());
    let rules = super::dame_rules(args.game, rules_arg)?;
    let start = super::dame_position(rules, args.position.as_deref())?;
    let computer =
        computer_side(args.computer.as_deref(), seed)?.map(|side| super::dame_play::DameComputer {
            side: if side == Color::White {
                dame::Color::White
            } else {
                dame::Color::Black
            },
            player: LevelPlayer::new(args.level, seed),
            engine: Engine::new(32, 1),
            time: Duration::from_secs_f64(args.time.clamp(0.01, 600.0)),
        });
    let stdin = io::stdin();
    let stdout = io::stdout();
    super::dame_play::play_loop(
        dame::Game::from_position(start),
        computer,
        stdin.lock(),
        stdout.lock(),
    )
}
