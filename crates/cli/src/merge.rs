//! `ply merge`: the logs of a sharded batch put together into the report of the whole run.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::batch::log::command_of;
use crate::batch::merge::{Request, merge};

/// Arguments of `ply merge`.
#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// The shards' logs (`--log` of each `--shard K/N` run), one of each shard, in any order.
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// Print JSON instead of a table (the command's own --json).
    #[arg(long)]
    pub json: bool,
    /// Also write the table to DIR/result.txt and the JSON to DIR/result.json (whole files:
    /// each is written under a temporary name, then renamed).
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    pub out: Option<PathBuf>,
    /// Only check each log on its own: sound, and holding every item of its shard; print
    /// nothing (for scripts: a shard's task asks whether its shard is done).
    #[arg(long)]
    pub check: bool,
}

/// The command whose log `path` is, from its first line.
fn command(path: &std::path::Path) -> Result<String> {
    let name = path.display();
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {name}"))?;
    let mut first = Vec::new();
    std::io::Read::take(BufReader::new(file), 1 << 20)
        .read_until(b'\n', &mut first)
        .with_context(|| format!("cannot read {name}"))?;
    if first.is_empty() {
        bail!("{name} is empty: nothing to merge");
    }
    let text = String::from_utf8_lossy(&first);
    command_of(&text).with_context(|| {
        format!("{name}:1: not a batch log: its first line is no `ply ... --log` header")
    })
}

/// Runs `ply merge`.
pub(crate) fn run(args: &MergeArgs) -> Result<()> {
    let commands = args
        .logs
        .iter()
        .map(|path| command(path))
        .collect::<Result<Vec<_>>>()?;
    for (path, command) in args.logs.iter().zip(&commands).skip(1) {
        if *command != commands[0] {
            bail!(
                "{} is a log of `ply {}`, {} of `ply {command}`: logs of one run only",
                args.logs[0].display(),
                commands[0],
                path.display()
            );
        }
    }
    let request = Request {
        logs: args.logs.clone(),
        json: args.json,
        out: args.out.clone(),
        check: args.check,
    };
    // Each batch command, by the name its logs give.
    match commands[0].as_str() {
        "npuzzle bench" => merge::<crate::npuzzle::BenchJob>(&request),
        "ewn solo bench" => merge::<crate::ewn::SoloBenchJob>(&request),
        "ewn tournament" => merge::<crate::ewn::TournamentJob>(&request),
        "ewn openings prove" => merge::<crate::ewn::OpeningsJob>(&request),
        "sokoboru bench" => merge::<crate::sokoboru::BenchJob>(&request),
        "mines bench" => merge::<crate::mines::BenchJob>(&request),
        "mines classic bench" => merge::<crate::mines::ClassicBenchJob>(&request),
        other => bail!(
            "{}: a log of `ply {other}`, which this ply cannot merge (written by another \
             version?)",
            args.logs[0].display()
        ),
    }
}
