//! `--emit-slurm N --out DIR`: the batch as a Slurm array job of N shards, and the merge after
//! it, in one sbatch script.
//!
//! Task K runs this very command with `--shard K/N --log DIR/shard-K.jsonl --resume`, so that a
//! task that starts again (requeued after its node failed, or the script submitted again after
//! a failure) goes on from its log. One `sbatch` must give both the array and the merge, so
//! the first task to start submits the merge job (an atomic `mkdir` of
//! `DIR/.merge-<array job id>` makes it one task only) with `--dependency=afterok` on the
//! array: it runs once every task has succeeded, and `--kill-on-invalid-dep=yes` cancels it if
//! one fails for good. The merge writes `DIR/result.txt` and `DIR/result.json`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Args;

use crate::format::shell_quote;

/// The options of `--emit-slurm`.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Cluster (Slurm)")]
pub(crate) struct SlurmArgs {
    /// Print an sbatch script instead of running: an array job of N tasks, task K running
    /// this command with --shard K/N and a log in --out, then a merge of the N logs into
    /// DIR/result.txt and DIR/result.json (submit it with `sbatch SCRIPT`).
    #[arg(long, value_name = "N", requires = "out",
          conflicts_with_all = ["shard", "log", "resume", "force"],
          value_parser = clap::value_parser!(u64).range(1..=MAX_TASKS))]
    pub emit_slurm: Option<u64>,
    /// With --emit-slurm: the directory of the shards' logs, Slurm's output files and the
    /// merged result (created now if missing; it must be on a file system every node sees).
    #[arg(long, value_name = "DIR", requires = "emit_slurm")]
    pub out: Option<PathBuf>,
    /// With --emit-slurm: run at most M tasks at once (`--array=1-N%M`) [default: N].
    #[arg(long = "slurm-throttle", value_name = "M", requires = "emit_slurm",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub throttle: Option<u64>,
    /// With --emit-slurm: the partition of every task and of the merge (`--partition`).
    #[arg(
        long = "slurm-partition",
        value_name = "PARTITION",
        requires = "emit_slurm"
    )]
    pub partition: Option<String>,
    /// With --emit-slurm: the time limit of each task and of the merge, in Slurm's forms
    /// (`--time`: minutes, MM:SS, HH:MM:SS, D-HH).
    #[arg(long = "slurm-time", value_name = "TIME", requires = "emit_slurm",
          allow_hyphen_values = true, value_parser = slurm_time)]
    pub time: Option<String>,
    /// With --emit-slurm: the memory of each task (`--mem`: 4G, 500M).
    #[arg(long = "slurm-mem", value_name = "SIZE", requires = "emit_slurm")]
    pub mem: Option<String>,
    /// With --emit-slurm: the CPUs of each task (`--cpus-per-task`); give the command as
    /// many threads.
    #[arg(long = "slurm-cpus", value_name = "C", requires = "emit_slurm",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub cpus: Option<u64>,
}

/// A time limit in one of Slurm's forms (`--time`): minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM,
/// D-HH:MM:SS, or `infinite`/`unlimited`; minutes and seconds after a colon below 60, hours
/// after a day below 24, and not zero.
fn slurm_time(text: &str) -> Result<String, String> {
    let bad = || {
        format!(
            "'{}' is not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)",
            ply_search::messages::excerpt(text)
        )
    };
    if ["infinite", "unlimited"].contains(&text.to_ascii_lowercase().as_str()) {
        return Ok(text.to_string());
    }
    let number = |field: &str| -> Result<u64, String> {
        if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) || field.len() > 9 {
            return Err(bad());
        }
        field.parse().map_err(|_| bad())
    };
    let (days, clock) = match text.split_once('-') {
        Some((days, clock)) => (Some(number(days)?), clock),
        None => (None, text),
    };
    let fields = clock
        .split(':')
        .map(number)
        .collect::<Result<Vec<u64>, String>>()?;
    // Which fields are bounded by the next larger unit: after a colon, and hours after a day.
    let within = match (days, fields.as_slice()) {
        (None, [_]) => true,
        (None, [_, s]) => *s < 60,
        (None, [_, m, s]) => *m < 60 && *s < 60,
        (Some(_), [h]) => *h < 24,
        (Some(_), [h, m]) => *h < 24 && *m < 60,
        (Some(_), [h, m, s]) => *h < 24 && *m < 60 && *s < 60,
        _ => return Err(bad()),
    };
    if !within {
        return Err(format!(
            "'{}': minutes and seconds after a colon must be below 60, hours after a day \
             below 24",
            ply_search::messages::excerpt(text)
        ));
    }
    if days.unwrap_or(0) == 0 && fields.iter().all(|&f| f == 0) {
        return Err(format!("'{text}' is no time at all"));
    }
    Ok(text.to_string())
}

/// The most tasks `--emit-slurm` takes: Slurm's own array indices stop at 4,000,000 (and
/// a site's MaxArraySize, 1001 unless raised, well before).
const MAX_TASKS: u64 = 4_000_000;

/// The options of the command line that are the cluster's, not the command's: dropped from
/// the tasks' command line, with whether each takes a value.
const CLUSTER_OPTIONS: [(&str, bool); 7] = [
    ("--emit-slurm", true),
    ("--out", true),
    ("--slurm-throttle", true),
    ("--slurm-partition", true),
    ("--slurm-time", true),
    ("--slurm-mem", true),
    ("--slurm-cpus", true),
];

/// The command line's arguments (after `ply`) without the cluster's options.
fn task_arguments(args: impl Iterator<Item = OsString>) -> Result<Vec<String>> {
    let mut kept = Vec::new();
    let mut args = args.peekable();
    let mut positional_only = false;
    while let Some(arg) = args.next() {
        let arg = arg.into_string().map_err(|arg| {
            anyhow!(
                "--emit-slurm: the argument {} is not valid UTF-8, which the script cannot hold",
                arg.to_string_lossy()
            )
        })?;
        if !positional_only {
            if arg == "--" {
                positional_only = true;
            } else if let Some(&(_, value)) = CLUSTER_OPTIONS
                .iter()
                .find(|(name, _)| arg == *name || arg.starts_with(&format!("{name}=")))
            {
                if value && !arg.contains('=') {
                    args.next();
                }
                continue;
            }
        }
        kept.push(arg);
    }
    Ok(kept)
}

/// A value of an `#SBATCH` line: sbatch splits those lines at blanks, pairs single quotes
/// and ends the line at a `#` unless the value is in double quotes, inside which all three
/// are plain characters (a double quote, a backslash or a line break is refused before).
fn directive(value: &str) -> String {
    if value.contains(|c: char| c.is_whitespace() || c == '\'' || c == '#') {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

/// The script's text, from what it needs: the command's arguments (after `ply`), the ply
/// executable, the directory the tasks run in, the output directory (both absolute).
fn script(
    command: &str,
    args: &[String],
    ply: &Path,
    chdir: &Path,
    out: &Path,
    slurm: &SlurmArgs,
    tasks: u64,
) -> String {
    let quote = |path: &Path| shell_quote(&path.display().to_string());
    let name = format!("ply-{}", command.replace(' ', "-"));
    let throttle = slurm.throttle.unwrap_or(tasks).min(tasks);
    let mut s = String::new();
    let mut line = |text: &str| {
        s.push_str(text);
        s.push('\n');
    };
    line("#!/bin/bash");
    line(&format!(
        "# `ply {command}` in {tasks} shards as a Slurm array job, then their merge."
    ));
    line(&format!(
        "# Submit it with `sbatch FILE`; the result goes to {}/result.txt and result.json.",
        out.display()
    ));
    line(&format!("#SBATCH --job-name={name}"));
    line(&format!("#SBATCH --array=1-{tasks}%{throttle}"));
    line("#SBATCH --requeue");
    line("#SBATCH --open-mode=append");
    line(&format!(
        "#SBATCH --output={}",
        directive(&format!("{}/slurm-%A_%a.out", out.display()))
    ));
    line(&format!(
        "#SBATCH --chdir={}",
        directive(&chdir.display().to_string())
    ));
    // Options for both the tasks and the merge.
    let mut shared = Vec::new();
    if let Some(partition) = &slurm.partition {
        shared.push(("--partition", partition.as_str()));
    }
    if let Some(time) = &slurm.time {
        shared.push(("--time", time.as_str()));
    }
    for (option, value) in &shared {
        line(&format!("#SBATCH {option}={}", directive(value)));
    }
    if let Some(mem) = &slurm.mem {
        line(&format!("#SBATCH --mem={}", directive(mem)));
    }
    if let Some(cpus) = slurm.cpus {
        line(&format!("#SBATCH --cpus-per-task={cpus}"));
    }
    line("set -u");
    line(&format!("ply={}", quote(ply)));
    line(&format!("out={}", quote(out)));
    line("task=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch}");
    line("log=\"$out/shard-$task.jsonl\"");
    line("");
    line("# The merge, submitted once (by the first task to start) to run when every task has");
    line("# succeeded; a task that fails for good cancels it.");
    let merge = format!(
        "exec {} merge --out {} {}/shard-*.jsonl",
        quote(ply),
        quote(out),
        quote(out)
    );
    let shared: String = shared
        .iter()
        .map(|(option, value)| format!(" {}", shell_quote(&format!("{option}={value}"))))
        .collect();
    line("if mkdir \"$out/.merge-$SLURM_ARRAY_JOB_ID\" 2>/dev/null; then");
    line(&format!(
        "  if ! sbatch --job-name={name}-merge --dependency=\"afterok:$SLURM_ARRAY_JOB_ID\" \
         --kill-on-invalid-dep=yes --output=\"$out/slurm-merge-%j.out\" --chdir={}{shared} \
         --wrap={}; then",
        quote(chdir),
        shell_quote(&merge)
    ));
    line("    rmdir \"$out/.merge-$SLURM_ARRAY_JOB_ID\"");
    line("    echo \"ply: error: the merge job was not submitted; the next task tries again\" >&2");
    line("  fi");
    line("fi");
    line("");
    let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
    line(&format!(
        "\"$ply\" {} --shard \"$task/{tasks}\" --log \"$log\" --resume",
        quoted.join(" ")
    ));
    line("status=$?");
    line("# Status 1 with every item of the shard in its log: the shard is done, and some item");
    line("# has a problem (a case given up, say), which the merge reports again.");
    line("if [ \"$status\" = 1 ] && [ -f \"$log\" ] && \"$ply\" merge --check \"$log\"; then");
    line("  status=0");
    line("fi");
    line("exit \"$status\"");
    s
}

/// Prints the script of `command` as `slurm` asks, and creates its output directory.
///
/// # Errors
/// The directory cannot be created, or the command line cannot be written into a script.
pub(crate) fn emit(command: &str, slurm: &SlurmArgs) -> Result<()> {
    let (Some(tasks), Some(dir)) = (slurm.emit_slurm, slurm.out.as_deref()) else {
        return Err(crate::outcome::usage("--emit-slurm needs --out DIR"));
    };
    let out = super::absolute(dir)?;
    let chdir = std::env::current_dir().context("reading the current directory")?;
    let ply = std::env::current_exe().context("locating the ply executable")?;
    let args = task_arguments(std::env::args_os().skip(1))?;
    // Slurm reads `%` in a file name as a pattern, and a directive's value ends at a quote
    // or a line break.
    for (path, what) in [(&out, "--out"), (&chdir, "the current directory")] {
        if path
            .to_str()
            .is_none_or(|p| p.contains(['\n', '\r', '"', '%', '\\']))
        {
            return Err(anyhow!(
                "{what} {} cannot be written into the script (it is not UTF-8, or holds a line \
                 break, a double quote, a backslash or a %)",
                path.display()
            ));
        }
    }
    for (value, what) in [
        (&slurm.partition, "--slurm-partition"),
        (&slurm.time, "--slurm-time"),
        (&slurm.mem, "--slurm-mem"),
    ] {
        let bad = |v: &&String| v.is_empty() || v.contains(['\n', '\r', '"']);
        if let Some(value) = value.as_ref().filter(bad) {
            return Err(crate::outcome::usage(format!(
                "{what} {value:?} is empty or holds a line break or a double quote"
            )));
        }
    }
    // Slurm opens each task's output file there before the task starts.
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    outln!(
        "{}",
        script(command, &args, &ply, &chdir, &out, slurm, tasks).trim_end()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn slurm_times_in_slurms_forms_only() {
        for good in [
            "30",
            "10:00",
            "4:00:00",
            "1-0",
            "2-12:30",
            "1-00:00:01",
            "infinite",
        ] {
            assert_eq!(slurm_time(good).as_deref(), Ok(good), "{good}");
        }
        for bad in [
            "-1", "", "99:99:99", "1:60", "1-24", "a", "1:2:3:4", "0", "0:00", "1-",
        ] {
            assert!(slurm_time(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn directives_quote_what_sbatch_would_split_pair_or_cut() {
        assert_eq!(directive("short"), "short");
        assert_eq!(directive("/w d"), "\"/w d\"");
        // A single quote would open a quoted part that never ends (sbatch: "Unmatched");
        // a `#` would start a comment, cutting a path short.
        assert_eq!(directive("/tmp/q'x"), "\"/tmp/q'x\"");
        assert_eq!(directive("/tmp/h#x/o"), "\"/tmp/h#x/o\"");
        assert_eq!(directive("p#q"), "\"p#q\"");
    }

    #[test]
    fn the_cluster_options_are_dropped_from_the_tasks() {
        let args = strings(&[
            "npuzzle",
            "bench",
            "--emit-slurm",
            "8",
            "--out=dir",
            "--first",
            "3",
            "--slurm-time",
            "1:00:00",
            "--slurm-mem=4G",
            "--",
            "--out",
        ]);
        assert_eq!(
            task_arguments(args.into_iter()).unwrap(),
            ["npuzzle", "bench", "--first", "3", "--", "--out"]
        );
    }

    #[test]
    fn the_script_runs_each_shard_and_submits_the_merge_once() {
        let slurm = SlurmArgs {
            emit_slurm: Some(8),
            out: Some("/o".into()),
            throttle: Some(3),
            partition: Some("short".into()),
            time: Some("10:00".into()),
            mem: Some("2G".into()),
            cpus: Some(2),
        };
        let args = vec!["ewn".to_string(), "tournament".into(), "a=x 'y'".into()];
        let text = script(
            "ewn tournament",
            &args,
            Path::new("/bin/ply"),
            Path::new("/w d"),
            Path::new("/o"),
            &slurm,
            8,
        );
        for expected in [
            "#SBATCH --array=1-8%3\n",
            "#SBATCH --requeue\n",
            "#SBATCH --open-mode=append\n",
            "#SBATCH --output=/o/slurm-%A_%a.out\n",
            "#SBATCH --chdir=\"/w d\"\n",
            "#SBATCH --partition=short\n",
            "#SBATCH --time=10:00\n",
            "#SBATCH --mem=2G\n",
            "#SBATCH --cpus-per-task=2\n",
            "--dependency=\"afterok:$SLURM_ARRAY_JOB_ID\" --kill-on-invalid-dep=yes",
            "--chdir='/w d' '--partition=short' '--time=10:00' --wrap=",
            "\"$ply\" 'ewn' 'tournament' 'a=x '\\''y'\\''' --shard \"$task/8\" --log \"$log\" \
             --resume\n",
        ] {
            assert!(text.contains(expected), "{expected}\n{text}");
        }
    }
}
