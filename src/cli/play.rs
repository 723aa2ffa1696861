//! `brett play`: a game in the terminal — Mühle or Dame, two people at one
//! keyboard or against the computer. One loop for both games
//! ([`games::LocalGame`] says what differs).

use std::io::{self, BufRead, Write};
use std::time::Duration;

use anyhow::{Result, bail};
use engine::LevelPlayer;
use games::{Action, Entered, LiveGame};
use muehle::Color;
use search::{Engine, Limits};

use super::game::Variant;
use crate::terminal::Terminal;

/// Arguments of `brett play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = Variant::Muehle)]
    game: Variant,
    /// Rule set: for Mühle a preset with options; for Dame a preset or options
    /// applied to the game's preset (e.g. 'huffing=on').
    #[arg(long, default_value = "standard", long_help = super::game::RULES_HELP)]
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
            game: Variant::Muehle,
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
    fn choose(&mut self, game: &LiveGame) -> Option<String> {
        game.local().level_choice(
            &mut self.player,
            &self.engine,
            // A person waits: the only move is played at once.
            Limits {
                answer_only_move: true,
                ..Limits::movetime(self.time)
            },
            &std::sync::atomic::AtomicBool::new(false),
        )
    }
}

pub fn run(args: Args) -> Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let computer = computer_side(args.computer.as_deref(), seed)?.map(|side| Computer {
        side,
        player: LevelPlayer::new(args.level, seed),
        engine: Engine::new(32, 1),
        time: Duration::from_secs_f64(args.time.clamp(0.01, 600.0)),
    });
    let stdin = io::stdin();
    let stdout = io::stdout();
    let position = args.position.as_deref();
    let setup = super::game::setup(args.game, Some(&args.rules))?;
    play_loop(
        super::game::start(setup, position)?,
        computer,
        stdin.lock(),
        stdout.lock(),
    )
}

/// The game loop over any input and output, for either game.
pub fn play_loop(
    mut game: LiveGame,
    mut computer: Option<Computer>,
    input: impl BufRead,
    mut out: impl Write,
) -> Result<()> {
    let start = game.clone();
    writeln!(
        out,
        "{} — rules: {}. Type 'help' for the commands.\n",
        game.local().title(),
        game.rules_text()
    )?;
    if let Some(c) = &computer {
        writeln!(
            out,
            "The computer plays {} at level {}.\n",
            c.side.title(),
            c.player.level
        )?;
    }
    show(&game, &mut out)?;
    let mut lines = input.lines();
    // A move waiting to be completed (a Mühle mill without its removal).
    let mut pending: Option<String> = None;
    loop {
        let mover = game.turn();
        if let Some(c) = computer.as_mut()
            && pending.is_none()
            && game.ending().is_none()
            && mover == c.side
        {
            if game.draw_offer() == Some(c.side.other()) {
                writeln!(out, "The computer declines the draw offer.")?;
            }
            if let Some(sq) = game.local_mut().huff_for_engine() {
                writeln!(out, "The computer huffs the piece on {sq}.")?;
            }
            if let Some(m) = c.choose(&game) {
                game.local_mut().play_text(&m).map_err(anyhow::Error::msg)?;
                writeln!(out, "The computer ({}) plays {m}.\n", c.side.title())?;
                show(&game, &mut out)?;
            }
            continue;
        }
        if pending.is_some() {
            write!(out, "{}", game.local().incomplete_prompt())?;
        } else if game.ending().is_some() {
            write!(out, "Game over. 'undo', 'new', 'list' or 'quit' > ")?;
        } else {
            let offer = if game.draw_offer() == Some(mover.other()) {
                format!(
                    " [{} offers a draw: 'accept' or play on]",
                    mover.other().title()
                )
            } else {
                String::new()
            };
            write!(
                out,
                "{}{}{offer} > ",
                mover.title(),
                game.local().prompt_detail()
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
            enter(&mut game, cmd, Some(&m), &mut pending, &mut out)?;
            continue;
        }
        let lower = cmd.to_ascii_lowercase();
        match lower.as_str() {
            "help" | "?" | "h" => write!(out, "{}", game.local().help())?,
            "quit" | "exit" | "q" => return Ok(()),
            "show" | "board" => show(&game, &mut out)?,
            "moves" => {
                let moves = game.local().legal_moves();
                if moves.is_empty() {
                    writeln!(out, "No legal moves.")?;
                } else {
                    writeln!(out, "{} legal moves: {}", moves.len(), moves.join(" "))?;
                }
            }
            "list" | "history" | "record" => writeln!(out, "{}", game.local().movetext())?,
            "undo" | "takeback" => match game.local_mut().undo_last() {
                Ok(what) => {
                    writeln!(out, "Took back {what}.")?;
                    // Against the computer, take back its reply and your move.
                    if let Some(c) = &computer
                        && game.turn() == c.side
                        && let Ok(what) = game.local_mut().undo_last()
                    {
                        writeln!(out, "Took back {what}.")?;
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
                game = start.clone();
                writeln!(out, "New game.")?;
                show(&game, &mut out)?;
            }
            "draw" => match game.local_mut().act(Action::OfferDraw, mover) {
                Ok(true) => announce(&game, &mut out)?,
                Ok(false) => writeln!(out, "{} offers a draw.", mover.title())?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "accept" => match game.local_mut().act(Action::AcceptDraw, mover) {
                Ok(_) => announce(&game, &mut out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "decline" => match game.local_mut().act(Action::DeclineDraw, mover) {
                Ok(_) => writeln!(out, "{} declines the draw offer.", mover.title())?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "resign" => match game.local_mut().act(Action::Resign, mover) {
                Ok(_) => announce(&game, &mut out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            _ => match game.local_mut().command(&lower) {
                Some(Ok(said)) => {
                    writeln!(out, "{said}")?;
                    show(&game, &mut out)?;
                }
                Some(Err(e)) => writeln!(out, "{e}")?,
                None => enter(&mut game, cmd, None, &mut pending, &mut out)?,
            },
        }
    }
}

/// A move typed by the player to move (`partial`: the incomplete move it completes).
fn enter(
    game: &mut LiveGame,
    text: &str,
    partial: Option<&str>,
    pending: &mut Option<String>,
    out: &mut impl Write,
) -> Result<()> {
    let mover = game.turn();
    match game.local_mut().enter(text, partial) {
        Entered::Played(m) => {
            writeln!(out, "{} played {m}.\n", mover.title())?;
            show(game, out)?;
        }
        Entered::Incomplete(m, said) => {
            writeln!(out, "{said}")?;
            *pending = Some(m);
        }
        Entered::Refused(why) => writeln!(out, "{why}")?,
    }
    Ok(())
}

fn show(game: &LiveGame, out: &mut impl Write) -> Result<()> {
    write!(out, "{}", game.local().render(&Terminal))?;
    if game.ply() > 0 {
        writeln!(out, "  Moves: {}", game.local().movetext())?;
    }
    let huffable = game.local().huffable();
    if !huffable.is_empty() {
        writeln!(
            out,
            "  A capture was skipped: 'huff SQ' may remove {}",
            huffable.join(", ")
        )?;
    }
    writeln!(out)?;
    announce(game, out)
}

fn announce(game: &LiveGame, out: &mut impl Write) -> Result<()> {
    if let Some(line) = game.local().outcome_line() {
        writeln!(out, "{line}\n")?;
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
