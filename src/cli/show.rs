use anyhow::{Context, Result};

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
    let pos = match args.position.as_deref() {
        None => muehle::Position::new(rules),
        Some(s) => muehle::Position::from_fen(s, rules)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("position '{s}'"))?,
    };
    print!("{}", crate::terminal::render(&pos, None));
    print!("{}", crate::terminal::status(&pos));
    if let Some(o) = pos.outcome() {
        println!("Game over: {}", o.describe());
    }
    Ok(())
}
