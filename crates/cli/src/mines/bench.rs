//! `ply mines bench`: one player judged on several maps, one after another, with a table of
//! the scores; a batch whose items are the maps.

use super::args::BenchArgs;
use super::ops::own_server;
use crate::batch::{self, Job};
use crate::format::{plural, progress, table, thousands};
use crate::programs::{adopt_orphans, checked_command, stop_orphans};
use crate::signals::interrupt_flag;
use anyhow::Result;
use ply_mines::{Ending, JudgeConfig, MineMap, Verdict, contest_time_limit, judge};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::io::Write;
use std::path::PathBuf;

/// One map's row, also its JSON record: the map and the judge's verdict.
#[derive(Serialize, Deserialize, Debug)]
pub(crate) struct BenchItem {
    /// The map file, as named on the command line.
    map: String,
    /// The judge's verdict.
    #[serde(flatten)]
    verdict: Verdict,
}

/// The JSON document.
#[derive(Serialize, Debug)]
struct Document<'a> {
    rows: &'a [BenchItem],
    maps: usize,
    total_score: f64,
    mean_score: f64,
}

/// `ply mines bench` as a batch.
pub(crate) struct BenchJob;

impl Job for BenchJob {
    type Item = BenchItem;
    const COMMAND: &'static str = "mines bench";
    const NOUN: &'static str = "map";

    fn report(
        _work: &Map<String, Value>,
        items: &[BenchItem],
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Vec<String>> {
        let total: f64 = items.iter().map(|i| i.verdict.score).sum();
        let mean = if items.is_empty() {
            0.0
        } else {
            total / items.len() as f64
        };
        if json {
            let doc = Document {
                rows: items,
                maps: items.len(),
                total_score: total,
                mean_score: mean,
            };
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)?;
        } else {
            let mut t = table([
                "map",
                "size",
                "mines",
                "player",
                "safe opened",
                "mines hit",
                "score",
                "seconds",
            ]);
            for item in items {
                let v = &item.verdict;
                let safe = v.n * v.n - v.k;
                t.add_row([
                    item.map.clone(),
                    format!("{} x {}", v.n, v.n),
                    thousands(v.k),
                    v.ending.to_string(),
                    format!("{:.4} %", 100.0 * v.safe_opened as f64 / safe.max(1) as f64),
                    thousands(v.mines_opened),
                    format!("{:.3}", v.score),
                    format!("{:.3}", v.elapsed),
                ]);
            }
            writeln!(out, "{t}")?;
            writeln!(
                out,
                "{}: total score {total:.3}, mean {mean:.3}",
                plural(items.len() as u64, "map")
            )?;
        }
        Ok(items
            .iter()
            .filter_map(|item| match &item.verdict.ending {
                Ending::ServerFailed(why) => {
                    Some(format!("{}: {why}; the player scores 0", item.map))
                }
                _ => None,
            })
            .collect())
    }
}

/// Runs `ply mines bench`.
pub(super) fn run(args: &BenchArgs) -> Result<()> {
    let limit = match args.time_limit {
        _ if args.no_time_limit => None,
        None => None,
        Some(secs) => Some(
            ply_search::SecondsRule::Positive
                .named("--time-limit", secs)
                .map_err(|bad| crate::outcome::usage(bad.to_string()))?,
        ),
    };
    let player = checked_command("the player", &args.player)?;
    let server = match &args.server {
        Some(server) => checked_command("the server", server)?,
        None => own_server()?,
    };
    let maps: Vec<String> = args.maps.iter().map(|m| m.display().to_string()).collect();
    let mut work = Map::new();
    work.insert("player".into(), json!(args.player));
    work.insert("maps".into(), json!(maps));
    work.insert(
        batch::digest::KEY.into(),
        batch::digest::of_inputs(args.maps.iter().map(PathBuf::as_path))?,
    );
    work.insert("constant_a".into(), json!(args.constant_a));
    work.insert("time_limit".into(), json!(args.time_limit));
    work.insert("no_time_limit".into(), json!(args.no_time_limit));
    work.insert("server".into(), json!(args.server));
    let Some(mut session) = batch::start::<BenchJob>(work, maps.len() as u64, &args.batch)? else {
        return Ok(());
    };
    adopt_orphans();
    let interrupted = interrupt_flag()?;
    let pending: Vec<u64> = session.pending().collect();
    let bar = progress(pending.len() as u64, "mines bench");
    let mut stopped = false;
    for at in pending {
        let map = &args.maps[at as usize];
        bar.set_message(maps[at as usize].clone());
        let time_limit = if args.no_time_limit {
            None
        } else {
            match limit {
                Some(limit) => Some(limit),
                None => Some(contest_time_limit(
                    u64::from(MineMap::open(map)?.n()),
                    args.constant_a,
                )),
            }
        };
        let config = JudgeConfig {
            player: player.clone(),
            map: map.clone(),
            constant_a: args.constant_a,
            time_limit,
            server: server.clone(),
        };
        let verdict = judge(&config, &interrupted);
        // Whatever the player or the server left behind, out of their process groups, goes.
        stop_orphans();
        let verdict = verdict?;
        if verdict.ending == Ending::Interrupted || interrupted.is_stopped() {
            stopped = true;
            break;
        }
        let item = BenchItem {
            map: maps[at as usize].clone(),
            verdict,
        };
        session.record_or_fail(at, item)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let done = session.results().count();
    session.finish(args.json)?;
    if stopped {
        return Err(crate::outcome::interrupted(format!(
            "interrupted after {}; the player and the server were stopped (--resume goes on)",
            plural(done as u64, "map")
        )));
    }
    Ok(())
}
