use anyhow::Result;

/// Arguments of `brett show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Rule set (preset and options).
    #[arg(long, default_value = "standard", long_help = super::RULES_HELP)]
    rules: String,
    /// Position string (default: the start position), e.g.
    /// ".../.../.../....../.../.../... w 9 9 0 1"
    position: Option<String>,
}

pub fn run(args: Args) -> Result<()> {
    let rules = super::parse_rules(&args.rules)?;
    let pos = <muehle::Game as super::game::CliGame>::start_or(rules, args.position.as_deref())?;
    print!("{}", crate::terminal::render(&pos, None));
    print!("{}", crate::terminal::status(&pos));
    if let Some(o) = pos.outcome() {
        println!("Game over: {}", o.describe());
    }
    Ok(())
}
