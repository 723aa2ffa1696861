//! Login throughput with the accounts' argon2id parameters: a server on a
//! fresh SQLite file, its login limits off, one account, and `--clients`
//! clients logging in over HTTP as fast as they can for `--seconds`; a run
//! is repeated `--runs` times and the median reported (with the time of one
//! hash on one core).
//!
//! ```sh
//! cargo run --release -p server --example logins -- [--clients 8 --seconds 5 --runs 3]
//! ```

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Parser;
use serde_json::json;

#[derive(Parser)]
struct Args {
    /// Clients logging in at once.
    #[arg(long, default_value_t = 8)]
    clients: usize,
    /// Length of one run.
    #[arg(long, default_value_t = 5)]
    seconds: u64,
    /// Runs (the median is reported).
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    let dir = tempfile::tempdir()?;
    let config = server::ServerConfig {
        listen: "127.0.0.1:0".parse()?,
        database_url: Some(format!(
            "sqlite://{}",
            dir.path().join("logins.db").display()
        )),
        logins_per_minute: 0,
        logins_per_name_per_minute: 0,
        ..server::ServerConfig::default()
    };
    let running = server::start(config).await?;
    let base = format!("http://{}", running.addr);
    let client = reqwest::Client::new();
    let body = json!({"name": "bench", "password": "correct horse battery"});
    let r = client
        .post(format!("{base}/api/account/register"))
        .json(&body)
        .send()
        .await?;
    anyhow::ensure!(r.status().is_success(), "register: {}", r.status());

    let mut one = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        tokio::task::spawn_blocking(|| server::password::hash_blocking("correct horse battery"))
            .await??;
        one.push(start.elapsed());
    }
    one.sort();
    println!(
        "one argon2id hash (m={} KiB, t={}, p={}): {:.1} ms (median of 5)",
        server::password::MEMORY_KIB,
        server::password::PASSES,
        server::password::LANES,
        one[2].as_secs_f64() * 1000.0
    );

    let mut rates = Vec::new();
    for run in 1..=args.runs {
        let until = Instant::now() + Duration::from_secs(args.seconds);
        let start = Instant::now();
        let tasks: Vec<_> = (0..args.clients)
            .map(|_| {
                let (client, base, body) = (client.clone(), base.clone(), body.clone());
                tokio::spawn(async move {
                    let mut n = 0u64;
                    while Instant::now() < until {
                        let r = client
                            .post(format!("{base}/api/account/login"))
                            .json(&body)
                            .send()
                            .await?;
                        anyhow::ensure!(r.status().is_success(), "login: {}", r.status());
                        n += 1;
                    }
                    Ok(n)
                })
            })
            .collect();
        let mut total = 0;
        for t in tasks {
            total += t.await.context("a client")??;
        }
        let rate = total as f64 / start.elapsed().as_secs_f64();
        println!(
            "run {run}: {total} logins in {:.1} s by {} clients: {rate:.1} logins/s",
            start.elapsed().as_secs_f64(),
            args.clients
        );
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "median: {:.1} logins/s on {} cores",
        rates[rates.len() / 2],
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    running.stop().await?;
    Ok(())
}
