//! `brett tablebase … --game dame|dame-fr|dame-100|international`: the Dame
//! endgame databases.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use dame::{BoardSize, Position, RuleSet};
use tablebase::dame::{
    DameBuildEvent, DamePlan, DameTablebase, Material, build_dame, dame_path, plan_dame, rules_tag,
    verify_dame,
};

use super::{Command, Common};

pub(super) fn run(command: Command, rules: RuleSet) -> Result<()> {
    if let Command::Book {
        out,
        roots_ply,
        max_ply,
        depth,
        candidates,
        margin,
        minutes,
        threads,
        merge,
        games,
        ..
    } = command
    {
        if !games.is_empty() {
            bail!("--games is for Mühle's book; the Dame book follows its own search (--margin)");
        }
        let options = engine::dame::book::BuildOptions {
            roots_ply,
            max_ply,
            depth: depth.unwrap_or(16),
            lines: candidates,
            margin,
            threads,
        };
        return book(&rules, &out, &options, &merge, minutes);
    }
    if !tablebase::dame::covered(&rules) {
        bail!("the Dame databases do not cover huffing (a skipped capture changes every value)");
    }
    match command {
        Command::Build {
            common,
            quiet,
            pieces,
            tables,
            up_to,
            sectors,
            plan,
            memory,
            ..
        } => {
            if sectors.is_some() || up_to != 9 {
                bail!("--up-to and --sectors are for Mühle; Dame takes --pieces or --tables");
            }
            let targets = match tables {
                Some(t) => parse_tables(&t)?,
                None => {
                    let default = match rules.board {
                        BoardSize::Eight => 5,
                        BoardSize::Ten => 4,
                    };
                    let n = pieces.unwrap_or(default);
                    if !(2..=8).contains(&n) {
                        bail!("--pieces takes 2 to 8");
                    }
                    Material::all_up_to(u32::from(n))
                }
            };
            let the_plan = plan_dame(&rules, &targets);
            if plan {
                print_plan(&rules, &the_plan);
                return Ok(());
            }
            check_memory(&the_plan, memory)?;
            if !quiet {
                eprintln!(
                    "{} tables, {} indices; about {:.1} GiB of memory at the peak",
                    the_plan.tables.len(),
                    the_plan.indices(),
                    the_plan.peak_bytes as f64 / GIB
                );
            }
            build(&common, &rules, &targets, quiet)
        }
        Command::Probe { common, position } => probe(&common, &rules, &position),
        Command::Stats { common, sector } => stats(&common, &rules, &sector),
        Command::Verify { common, sector, .. } => verify(&common, &rules, sector.as_deref()),
        Command::Book { .. } => unreachable!("the book is handled above"),
        Command::Repack { .. } => {
            bail!(
                "repack is for the Mühle databases; the Dame files are written in their only encoding"
            )
        }
    }
}

const GIB: f64 = (1u64 << 30) as f64;

/// `--plan`: the tables by piece count, then the whole and the peak.
fn print_plan(rules: &RuleSet, plan: &DamePlan) {
    println!("tables of '{}' in build order:", rules_tag(rules));
    for t in &plan.tables {
        let layers = if t.layers > 1 {
            format!(" × {} layers", t.layers)
        } else {
            String::new()
        };
        println!(
            "  {:<12} {:>14} indices{layers}",
            t.material.to_string(),
            t.indices
        );
    }
    let mut by_pieces: std::collections::BTreeMap<u32, (usize, u64)> = Default::default();
    for t in &plan.tables {
        let e = by_pieces.entry(t.material.pieces()).or_default();
        e.0 += 1;
        e.1 += t.indices;
    }
    for (p, (n, indices)) in by_pieces {
        println!("{p} pieces: {n} tables, {indices} indices");
    }
    let largest = plan.largest().map_or(String::from("none"), |t| {
        format!("{} ({} indices)", t.material, t.indices)
    });
    println!(
        "in all: {} tables, {} indices; the largest {largest}",
        plan.tables.len(),
        plan.indices()
    );
    println!(
        "memory at the peak: about {:.1} GiB{}",
        plan.peak_bytes as f64 / GIB,
        plan.peak_at
            .map(|m| format!(
                ", while solving {m} (with the tables its captures and promotions lead to)"
            ))
            .unwrap_or_default()
    );
}

/// The memory available now (Linux: `MemAvailable` of /proc/meminfo), in
/// bytes; `None` where the system does not say.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuse a build that would not fit in `limit` GiB (default: the memory
/// available), before it spends hours on the tables that fit.
fn check_memory(plan: &DamePlan, limit: Option<f64>) -> Result<()> {
    let (limit, what) = match limit {
        Some(g) if g.is_finite() && g > 0.0 => ((g * GIB) as u64, "--memory"),
        Some(_) => bail!("--memory takes a number of GiB above 0"),
        None => match available_memory() {
            Some(b) => (b, "the memory available"),
            None => return Ok(()),
        },
    };
    if plan.peak_bytes > limit {
        bail!(
            "this build would hold about {:.1} GiB at its peak ({}; {} tables, {} indices), more than {what} ({:.1} GiB): build fewer pieces or name the tables with --tables (--plan lists what a build needs); the estimate errs on the high side, and --memory GIB sets the limit",
            plan.peak_bytes as f64 / GIB,
            plan.peak_at
                .map(|m| format!("while solving {m}"))
                .unwrap_or_default(),
            plan.tables.len(),
            plan.indices(),
            limit as f64 / GIB
        );
    }
    Ok(())
}

fn parse_tables(list: &str) -> Result<Vec<Material>> {
    let out: Result<Vec<Material>, String> = list
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.parse())
        .collect();
    let out = out.map_err(anyhow::Error::msg)?;
    if out.is_empty() {
        bail!("--tables names no table");
    }
    Ok(out)
}

fn dir(common: &Common) -> PathBuf {
    common.dir.clone().unwrap_or_else(tablebase::default_dir)
}

fn build(common: &Common, rules: &RuleSet, targets: &[Material], quiet: bool) -> Result<()> {
    let dir = dir(common);
    let started = Instant::now();
    let report = build_dame(&dir, rules, targets, &mut |ev| match ev {
        DameBuildEvent::Solving(pair, size) => {
            if !quiet {
                let names: Vec<String> = pair.iter().map(Material::to_string).collect();
                eprintln!("solving {} ({size} indices)", names.join(" "));
            }
        }
        DameBuildEvent::Done(r) => {
            let s = r.stats;
            if r.skipped {
                println!("table {}: built already, kept", r.material);
            } else {
                println!(
                    "table {}: {} positions, {} wins, {} draws, {} losses, longest win {} plies, {} bytes, pair solved in {:.1} s (elapsed {:.0} s)",
                    r.material,
                    s.positions,
                    s.wins,
                    s.draws,
                    s.losses,
                    s.longest_win,
                    r.bytes,
                    r.seconds,
                    started.elapsed().as_secs_f64()
                );
            }
        }
    })?;
    let built: Vec<_> = report.tables.iter().filter(|t| !t.skipped).collect();
    let positions: u64 = report.tables.iter().map(|t| t.stats.positions).sum();
    let bytes: u64 = report.tables.iter().map(|t| t.bytes).sum();
    println!(
        "built {} tables ({} kept) of '{}' in {}: {} positions, {:.1} MB in all, {:.1} s",
        built.len(),
        report.tables.len() - built.len(),
        rules_tag(rules),
        dir.display(),
        positions,
        bytes as f64 / 1e6,
        report.seconds
    );
    Ok(())
}

fn probe(common: &Common, rules: &RuleSet, text: &str) -> Result<()> {
    let pos = Position::from_fen(text, *rules).with_context(|| format!("position '{text}'"))?;
    let tb = DameTablebase::new(dir(common));
    let value = tb.value(&pos)?;
    println!("{value}");
    if pos.outcome().is_none() {
        for (m, v) in tb.probe_moves(&pos)? {
            println!("{} {v}", pos.short_notation(&m));
        }
    }
    Ok(())
}

fn stats(common: &Common, rules: &RuleSet, table: &str) -> Result<()> {
    let m: Material = table.parse().map_err(anyhow::Error::msg)?;
    let tb = DameTablebase::new(dir(common));
    let f = tb.file(rules, m)?;
    let s = f.stats();
    println!(
        "table {m}, rules '{}', the side to move has the first pieces",
        rules_tag(rules)
    );
    println!("  positions {}", s.positions);
    println!("  wins {}", s.wins);
    println!("  draws {}", s.draws);
    println!("  losses {}", s.losses);
    println!("  longest win {} plies", s.longest_win);
    println!("  longest loss {} plies", s.longest_loss);
    if f.layers() > 1 {
        println!(
            "  ending counter layers {} (values above are for the counter at 0)",
            f.layers()
        );
    }
    println!("  indices {}", f.size());
    println!("  file {} ({} bytes)", f.path().display(), f.bytes());
    Ok(())
}

/// The tables of `rules` found in the folder.
fn built_tables(dir: &std::path::Path, rules: &RuleSet) -> Vec<Material> {
    let prefix = format!("dame-{}-", rules_tag(rules));
    let mut out: Vec<Material> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let rest = name.strip_prefix(&prefix)?.strip_suffix(".dtb")?;
            let m: Material = rest.parse().ok()?;
            (dame_path(dir, rules, m) == e.path()).then_some(m)
        })
        .collect();
    out.sort_by_key(|m| (m.pieces(), m.men(), *m));
    out
}

fn verify(common: &Common, rules: &RuleSet, table: Option<&str>) -> Result<()> {
    let dir = dir(common);
    let tables = match table {
        Some(t) => parse_tables(t)?,
        None => built_tables(&dir, rules),
    };
    if tables.is_empty() {
        bail!(
            "no Dame table of '{}' is built in {}: build with `brett tablebase build --game {}`",
            rules_tag(rules),
            dir.display(),
            rules_tag(rules)
        );
    }
    let tb = DameTablebase::new(&dir);
    super::check_each("table", tables, |m| {
        let r = verify_dame(&tb, rules, m)?;
        Ok((r.checked, r.wrong, Vec::new()))
    })
}

/// `brett tablebase book --game …`: make or extend the Dame opening book.
fn book(
    rules: &RuleSet,
    out: &std::path::Path,
    options: &engine::dame::book::BuildOptions,
    merge: &[PathBuf],
    minutes: Option<u64>,
) -> Result<()> {
    use engine::dame::book::{Book, extend};
    if rules.preset_name().is_none() {
        bail!("the Dame opening book is for the presets dame, dame-fr, dame-100 and international");
    }
    if !(1..=engine::dame::book::LINES).contains(&options.lines) {
        bail!("--candidates takes 1 to {}", engine::dame::book::LINES);
    }
    if !(1..=60).contains(&options.depth) {
        bail!("--depth takes 1 to 60");
    }
    let mut book = if out.exists() {
        Book::read(out)?
    } else {
        Book::new()
    };
    for file in merge {
        let added = book.merge(&Book::read(file)?);
        eprintln!(
            "book {}: {added} positions added from {}",
            out.display(),
            file.display()
        );
    }
    let at_start = book.len();
    eprintln!(
        "book {}: {at_start} positions; depth {}, {} moves a position, margin {}",
        out.display(),
        options.depth,
        options.lines,
        options.margin
    );
    let mut progress = super::BookProgress::new(minutes);
    let mut result = Ok(());
    extend(
        &mut book,
        &Position::new(*rules),
        options,
        &mut |b, step| {
            progress.step(
                (step.ply, step.done, step.total, step.nodes),
                "",
                "",
                || b.write(out),
                &mut result,
            )
        },
    );
    result?;
    book.write(out)?;
    println!(
        "book {}: {} positions, {} new in {:.0} s",
        out.display(),
        book.len(),
        book.len() - at_start,
        progress.start.elapsed().as_secs_f64()
    );
    Ok(())
}
