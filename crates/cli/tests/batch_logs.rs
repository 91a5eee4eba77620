//! The batch logs and `ply merge` under faults: a log cut mid-line resumes without a duplicate
//! or a broken line, a stopped shard goes on from its log, logs that do not belong together
//! are refused with the field, file, shard or item named; and the Slurm script of
//! `--emit-slurm`, run task by task without Slurm, merges to the whole run.

mod common;

use common::batch::{json_of, run, table_of, with};
use common::{path_in, ply, scratch_dir, text};
use std::process::{Command, Output, Stdio};

/// Nine easy 15-puzzle boards (40 random moves from the goal).
const BOARDS: &str = "\
4 6 0 3 5 2 7 10 12 14 1 15 13 9 11 8
8 3 0 1 5 4 2 7 9 14 6 10 12 13 15 11
1 10 7 2 6 12 5 3 0 8 11 15 9 4 13 14
12 11 2 3 1 0 6 7 4 5 9 10 8 13 14 15
5 6 1 10 12 4 2 0 9 15 7 3 13 8 11 14
2 9 6 3 1 5 7 11 4 13 15 14 12 0 10 8
1 5 6 3 2 15 4 11 8 7 0 14 12 9 13 10
1 2 6 10 4 3 5 7 12 8 0 15 9 13 11 14
5 3 7 6 1 11 2 15 4 9 8 14 12 0 13 10
";

/// The bench of [`BOARDS`] (written into `dir`), as arguments.
fn bench(dir: &tempfile::TempDir) -> Vec<String> {
    let boards = path_in(dir, "boards.txt");
    std::fs::write(&boards, BOARDS).unwrap();
    [
        "npuzzle",
        "bench",
        &boards,
        "--heuristic",
        "linear-conflict",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Runs shard `k/n` of `args` with its log `log` (and `extra`); its output.
fn shard(args: &[String], k: u64, n: u64, log: &str, extra: &[&str]) -> Output {
    let shard = format!("{k}/{n}");
    let mut all = with(args, &["--shard", &shard, "--log", log]);
    all.extend(extra.iter().map(|s| s.to_string()));
    run(&all)
}

/// Asserts that `out` succeeded.
fn ok(out: &Output) {
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// Asserts that `out` failed with status 1 and a one-line error that contains `says`.
fn refused(out: &Output, says: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("ply: error: ") && last.contains(says),
        "{stderr}"
    );
}

/// The log's lines.
fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `ply merge` of `logs` (with `extra` first).
fn merge(extra: &[&str], logs: &[&str]) -> Output {
    let mut all = vec!["merge"];
    all.extend_from_slice(extra);
    all.extend_from_slice(logs);
    ply(&all, "")
}

#[test]
fn a_log_cut_mid_line_resumes_without_a_duplicate_or_a_broken_line() {
    let dir = scratch_dir();
    let args = bench(&dir);
    let whole = run(&with(&args, &["--json"]));
    ok(&whole);
    let (one, two) = (path_in(&dir, "1.jsonl"), path_in(&dir, "2.jsonl"));
    ok(&shard(&args, 1, 2, &one, &[]));
    ok(&shard(&args, 2, 2, &two, &[]));
    let good = lines(&one);
    assert_eq!(good.len(), 6, "a header and 5 instances");
    // A writer stopped mid-line leaves half a line and no line break.
    let cut = &good[3][..good[3].len() / 2];
    std::fs::write(&one, good[..3].join("\n") + "\n" + cut).unwrap();
    let out = shard(&args, 1, 2, &one, &["--resume"]);
    ok(&out);
    assert!(
        text(&out.stderr).contains("1.jsonl:4: the last line is unfinished"),
        "{}",
        text(&out.stderr)
    );
    let resumed = lines(&one);
    assert_eq!(resumed.len(), 6, "{resumed:?}");
    assert_eq!(
        resumed[..3],
        good[..3],
        "the instances kept are not run again"
    );
    let mut items = Vec::new();
    for line in &resumed[1..] {
        let value: serde_json::Value = serde_json::from_str(line).expect("every line whole");
        items.push(value["item"].as_u64().unwrap());
    }
    assert_eq!(items, [0, 2, 4, 6, 8], "each instance once");
    let merged = merge(&["--json"], &[&two, &one]);
    ok(&merged);
    assert_eq!(json_of(&merged), json_of(&whole));
    // A log that holds only a cut header, or none at all, is started afresh.
    let header = &good[0];
    std::fs::write(&one, &header[..header.len() / 3]).unwrap();
    ok(&shard(&args, 1, 2, &one, &["--resume"]));
    assert_eq!(lines(&one).len(), 6);
    std::fs::remove_file(&one).unwrap();
    ok(&shard(&args, 1, 2, &one, &["--resume"]));
    assert_eq!(lines(&one).len(), 6);
    // A resumed log that is complete runs nothing and reports the same.
    let again = shard(&args, 1, 2, &one, &["--resume"]);
    ok(&again);
    assert_eq!(lines(&one).len(), 6);
}

#[test]
fn resume_refuses_the_log_of_another_run_and_names_the_field() {
    let dir = scratch_dir();
    let args = bench(&dir);
    let log = path_in(&dir, "1.jsonl");
    ok(&shard(&args, 1, 2, &log, &[]));
    refused(
        &shard(&args, 2, 2, &log, &["--resume"]),
        "1.jsonl:1: the log is of another bench: its shard is 1/2, this run's 2/2",
    );
    let other = with(&args, &["--max-nodes", "1000000000"]);
    refused(
        &shard(&other, 1, 2, &log, &["--resume"]),
        "the log is of another bench: its max_nodes is null, this run's 1000000000",
    );
    // Without --resume or --force an existing log is left alone.
    refused(
        &shard(&args, 1, 2, &log, &[]),
        "1.jsonl exists (use --resume to go on with it, or --force",
    );
    ok(&shard(&args, 1, 2, &log, &["--force"]));
}

#[test]
fn merge_refuses_logs_that_do_not_belong_together() {
    let dir = scratch_dir();
    let args = bench(&dir);
    let logs: Vec<String> = (1..=3)
        .map(|k| path_in(&dir, &format!("{k}.jsonl")))
        .collect();
    for (k, log) in logs.iter().enumerate() {
        ok(&shard(&args, k as u64 + 1, 3, log, &[]));
    }
    let [a, b, c] = [&logs[0], &logs[1], &logs[2]].map(String::as_str);
    ok(&merge(&[], &[c, a, b]));
    // A missing shard, the same shard twice, shards of different splits.
    refused(
        &merge(&[], &[a, c]),
        "shard 2/3 is missing: the logs given hold 2 shards of 3",
    );
    refused(&merge(&[], &[a, b, c, a]), "are both shard 1/3");
    let half = path_in(&dir, "half.jsonl");
    ok(&shard(&args, 1, 2, &half, &[]));
    refused(
        &merge(&[], &[a, &half]),
        "half.jsonl is shard 1/2: the logs split the run in different numbers of shards",
    );
    // Another run's shard, named by the field that differs.
    let other = path_in(&dir, "other.jsonl");
    ok(&shard(
        &with(&args, &["--max-nodes", "1000000000"]),
        2,
        3,
        &other,
        &[],
    ));
    refused(
        &merge(&[], &[a, &other, c]),
        "other.jsonl are not of one run: max_nodes is null in",
    );
    // Another version's shard.
    let newer = path_in(&dir, "newer.jsonl");
    let text_b = std::fs::read_to_string(b).unwrap();
    let version = format!("\"version\":\"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text_b.contains(&version));
    std::fs::write(
        &newer,
        text_b.replacen(&version, "\"version\":\"99.0.0\"", 1),
    )
    .unwrap();
    refused(
        &merge(&[], &[a, &newer, c]),
        &format!("ply version is {} in", env!("CARGO_PKG_VERSION")),
    );
    // Another command's log.
    let solo = path_in(&dir, "solo.jsonl");
    let instance = format!(
        "{}/../../data/ewn-solo/sample.in",
        env!("CARGO_MANIFEST_DIR")
    );
    ok(&ply(
        &["ewn", "solo", "bench", &instance, "--log", &solo],
        "",
    ));
    refused(
        &merge(&[], &[a, &solo]),
        "1.jsonl is a log of `ply npuzzle bench`, ",
    );
    // A shard whose log misses items (its run was stopped), and one that is no log.
    let good = lines(b);
    std::fs::write(b, good[..2].join("\n") + "\n").unwrap();
    refused(
        &merge(&[], &[a, b, c]),
        "2.jsonl (shard 2/3) lacks 2 of its 3 instances: 5, 8; run its shard again with \
         --resume",
    );
    refused(&merge(&["--check"], &[b]), "lacks 2 of its 3 instances");
    ok(&merge(&["--check"], &[a, c]));
    refused(
        &merge(&[], &[&path_in(&dir, "boards.txt")]),
        "boards.txt:1: not a batch log",
    );
}

#[test]
fn a_tournament_shard_stopped_by_a_signal_goes_on_from_its_log() {
    use std::io::BufRead;
    let agent = |kind: &str| format!("{} ewn agent {kind}", env!("CARGO_BIN_EXE_ply"));
    let (a, b) = (
        format!("a={}", agent("random --seed 1")),
        format!("b={}", agent("alphabeta --depth 2")),
    );
    let dir = scratch_dir();
    let args: Vec<String> = ["ewn", "tournament", &a, &b, "--openings", "6", "-j", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let whole = run(&with(&args, &["--json"]));
    ok(&whole);
    let (one, two) = (path_in(&dir, "1.jsonl"), path_in(&dir, "2.jsonl"));
    ok(&shard(&args, 2, 2, &two, &[]));
    // Slurm stops a task it requeues with SIGTERM: the shard ends after the game it was in.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(with(&args, &["--shard", "1/2", "--log", &one]))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut errors = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let first = errors.next().expect("a game").unwrap();
    assert!(first.starts_with("game 1: "), "{first}");
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let rest: Vec<String> = errors.map_while(Result::ok).collect();
    let status = child.wait().unwrap();
    // It may have played its last game before the signal came.
    assert!(
        matches!(status.code(), Some(0 | 143)),
        "{status:?} {rest:?}"
    );
    let out = shard(&args, 1, 2, &one, &["--resume"]);
    ok(&out);
    let games: Vec<u64> = lines(&one)[1..]
        .iter()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            value["game"]["pairing"]["index"].as_u64().unwrap()
        })
        .collect();
    let mut sorted = games.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [0, 2, 4, 6, 8, 10], "each game once: {games:?}");
    let merged = merge(&["--json"], &[&one, &two]);
    ok(&merged);
    assert_eq!(json_of(&merged), json_of(&whole));
}

#[test]
fn emit_slurm_prints_a_script_and_checks_its_options() {
    let dir = scratch_dir();
    let args = bench(&dir);
    let out_dir = path_in(&dir, "out");
    let out = run(&with(
        &args,
        &[
            "--emit-slurm",
            "4",
            "--out",
            &out_dir,
            "--slurm-throttle",
            "2",
            "--slurm-partition",
            "short",
            "--slurm-time",
            "0:10:00",
            "--slurm-mem",
            "1G",
            "--slurm-cpus",
            "1",
        ],
    ));
    ok(&out);
    let script = text(&out.stdout);
    for expected in [
        "#!/bin/bash\n",
        "#SBATCH --array=1-4%2\n",
        "#SBATCH --requeue\n",
        "#SBATCH --open-mode=append\n",
        &format!("#SBATCH --output={out_dir}/slurm-%A_%a.out\n"),
        "#SBATCH --partition=short\n",
        "#SBATCH --time=0:10:00\n",
        "#SBATCH --mem=1G\n",
        "#SBATCH --cpus-per-task=1\n",
        "--dependency=\"afterok:$SLURM_ARRAY_JOB_ID\" --kill-on-invalid-dep=yes",
        &format!("ply={}\n", shell_quote(env!("CARGO_BIN_EXE_ply"))),
        "'npuzzle' 'bench' ",
        "'--heuristic' 'linear-conflict' --shard \"$task/4\" --log \"$log\" --resume\n",
    ] {
        assert!(script.contains(expected), "{expected}\n{script}");
    }
    assert!(!script.contains("--slurm-mem'"), "{script}");
    assert!(std::path::Path::new(&out_dir).is_dir(), "--out is created");
    // Usage errors.
    for (extra, says) in [
        (vec!["--emit-slurm", "4"], "--out"),
        (vec!["--emit-slurm", "0", "--out", "x"], "0"),
        (
            vec!["--emit-slurm", "2", "--out", "x", "--shard", "1/2"],
            "--shard",
        ),
        (vec!["--slurm-time", "10"], "--emit-slurm"),
        (vec!["--shard", "3/2"], "K must be from 1 to N"),
        (vec!["--resume"], "--log"),
    ] {
        let out = run(&with(&args, &extra));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(
            stderr.starts_with("ply: error: ") && stderr.contains(says),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// `text` quoted for `sh`, as the script quotes it.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[test]
fn the_slurm_script_runs_task_by_task_without_slurm_and_merges_to_the_whole_run() {
    let dir = scratch_dir();
    let args = bench(&dir);
    let whole = run(&args);
    ok(&whole);
    let out_dir = path_in(&dir, "out");
    let emitted = run(&with(&args, &["--emit-slurm", "3", "--out", &out_dir]));
    ok(&emitted);
    let script = path_in(&dir, "job.sh");
    std::fs::write(&script, &emitted.stdout).unwrap();
    // An `sbatch` that records what it was asked, in place of Slurm's.
    let bin = path_in(&dir, "bin");
    std::fs::create_dir(&bin).unwrap();
    let sbatch = format!("{bin}/sbatch");
    let calls = path_in(&dir, "sbatch-calls");
    std::fs::write(
        &sbatch,
        format!("#!/bin/sh\nprintf '%s\\n' \"$@\" >> '{calls}'\necho Submitted batch job 8\n"),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&sbatch).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&sbatch, permissions).unwrap();
    let path = format!("{bin}:{}", std::env::var("PATH").unwrap_or_default());
    for task in ["2", "3", "1"] {
        let out = Command::new("bash")
            .arg(&script)
            .env("PATH", &path)
            .env("SLURM_ARRAY_TASK_ID", task)
            .env("SLURM_ARRAY_JOB_ID", "7")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        ok(&out);
    }
    // The first task submitted the merge, and only it.
    let calls = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(
        calls.matches("--dependency=afterok:7").count(),
        1,
        "{calls}"
    );
    let wrap = calls
        .lines()
        .find_map(|l| l.strip_prefix("--wrap="))
        .expect("the merge's command");
    let merged = Command::new("sh")
        .args(["-c", wrap])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    ok(&merged);
    let result = |name: &str| Output {
        status: merged.status,
        stdout: std::fs::read(format!("{out_dir}/{name}")).unwrap(),
        stderr: Vec::new(),
    };
    assert_eq!(
        table_of(&result("result.txt"), &[5], &["generated per second"]),
        table_of(&whole, &[5], &["generated per second"])
    );
    let whole_json = run(&with(&args, &["--json"]));
    assert_eq!(json_of(&result("result.json")), json_of(&whole_json));
}

#[test]
fn a_log_in_use_by_another_run_is_refused() {
    // This test holds the log's lock as a running batch does: a second run on the same log
    // is refused at once, with --resume or --force alike, and the log is left as it was.
    let dir = scratch_dir();
    let args = bench(&dir);
    let log = path_in(&dir, "busy.jsonl");
    ok(&shard(&args, 1, 1, &log, &[]));
    let before = std::fs::read(&log).unwrap();
    let held = std::fs::File::open(&log).unwrap();
    held.lock().unwrap();
    for extra in [&["--resume"][..], &["--force"][..]] {
        let out = shard(&args, 1, 1, &log, extra);
        refused(&out, "busy.jsonl is in use by another run of ply");
    }
    assert_eq!(std::fs::read(&log).unwrap(), before);
    held.unlock().unwrap();
    ok(&shard(&args, 1, 1, &log, &["--resume"]));
}

#[test]
fn an_existing_log_suggests_resume_and_an_empty_path_is_named() {
    let dir = scratch_dir();
    let args = bench(&dir);
    let log = path_in(&dir, "done.jsonl");
    ok(&shard(&args, 1, 1, &log, &[]));
    refused(
        &shard(&args, 1, 1, &log, &[]),
        "done.jsonl exists (use --resume to go on with it, or --force to overwrite it)",
    );
    refused(&shard(&args, 1, 1, "", &[]), "the log's path is empty");
}

#[test]
fn an_input_edited_between_shards_or_before_a_resume_is_refused() {
    let dir = scratch_dir();
    let args = bench(&dir);
    let boards = &args[2];
    let (a, b) = (path_in(&dir, "e1.jsonl"), path_in(&dir, "e2.jsonl"));
    ok(&shard(&args, 1, 2, &a, &[]));
    // Instance 2 becomes a one-move board: under the same file name, another input.
    let edited = BOARDS.replacen(
        "8 3 0 1 5 4 2 7 9 14 6 10 12 13 15 11",
        "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        1,
    );
    std::fs::write(boards, edited).unwrap();
    ok(&shard(&args, 2, 2, &b, &[]));
    refused(
        &merge(&[], &[&a, &b]),
        "input files' contents (size and hash)",
    );
    refused(
        &shard(&args, 1, 2, &a, &["--resume"]),
        "e1.jsonl:1: the log is of another bench: its input files' contents",
    );
}

#[test]
fn resume_with_another_commands_log_names_the_command_first() {
    let dir = scratch_dir();
    let args = bench(&dir);
    let log = path_in(&dir, "npuzzle.jsonl");
    ok(&shard(&args, 1, 1, &log, &[]));
    let out = ply(
        &[
            "ewn",
            "solo",
            "bench",
            "../../data/ewn-solo/sample.in",
            "--log",
            &log,
            "--resume",
        ],
        "",
    );
    refused(
        &out,
        "npuzzle.jsonl:1: the log is of another bench: its command is `ply npuzzle bench`, \
         this run's `ply ewn solo bench`",
    );
}

#[test]
fn merge_checks_each_row_not_only_its_recorded_problem() {
    // Korf's first instance with a row edited to a 3-move optimum: below its bound and unlike
    // the file's 57, with no problem recorded.
    let dir = scratch_dir();
    let log = path_in(&dir, "k.jsonl");
    let out = run(&with(
        &[
            "npuzzle".into(),
            "bench".into(),
            "--first".into(),
            "1".into(),
            "--heuristic".into(),
            "linear-conflict".into(),
        ],
        &["--log", &log],
    ));
    ok(&out);
    let text_log = std::fs::read_to_string(&log).unwrap();
    let edited = text_log.replacen("\"optimal\":57", "\"optimal\":3", 1);
    assert_ne!(edited, text_log);
    std::fs::write(&log, edited).unwrap();
    let out = merge(&[], &[&log]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the row's optimum 3 is below its lower bound")
            && stderr.contains("the row's optimum 3 is not the file's 57"),
        "{stderr}"
    );
}
