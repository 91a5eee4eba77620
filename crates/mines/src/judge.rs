//! The judge: sets up the shared memory and pipes, starts a server and a player, enforces the
//! wall-clock limit, collects the counts and scores them by the contest's formula.

use ply_search::StopFlag;
use std::ffi::OsString;
use std::fs::File;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, FdFlag, OFlag, fcntl};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::{Pid, pipe2};
use serde::{Deserialize, Serialize};

use crate::error::MinesError;
use crate::map::{MineMap, check_size};
use crate::opening::Counts;
use crate::protocol::{self, Received, Report};
use crate::sys::{self, SharedMemory};

/// How long the server may take to answer `F` (it keeps its counts as it goes, so a live
/// server answers at once).
const REPORT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long an interrupted judge waits for the server's counts: a user who pressed Ctrl-C
/// wants the verdict now.
const INTERRUPTED_REPORT_TIMEOUT: Duration = Duration::from_secs(2);

/// The contest's score for one test, in [0, 100]:
/// `(safe - A * (mines - 0.0002 K)) / ((N*N - K) * 0.9998) * 100`.
pub fn score(n: u64, k: u64, safe: u64, mines: u64, a: i64) -> f64 {
    let safe_cells = (n * n - k) as f64;
    if safe_cells <= 0.0 {
        return 100.0;
    }
    let raw = (safe as f64 - a as f64 * (mines as f64 - 0.0002 * k as f64)) / (safe_cells * 0.9998)
        * 100.0;
    raw.clamp(0.0, 100.0)
}

/// Checks that a score's counts can happen: `n` a board size ([`check_size`]), `k` mines that
/// fit on it, `safe` and `mines` opened of the safe cells and the mines there are, and the
/// constant `a` not negative (the contest's is 0 or 8). [`score`] of impossible counts is
/// meaningless (it is clamped to [0, 100]).
///
/// ```
/// use ply_mines::check_score;
/// assert!(check_score(16, 32, 224, 0, 8).is_ok());
/// assert_eq!(
///     check_score(16, 32, 250, 0, 8).unwrap_err().to_string(),
///     "250 safe cells opened, of 224"
/// );
/// ```
///
/// # Errors
/// [`MinesError::BadParameters`] naming the first impossible count.
pub fn check_score(n: u64, k: u64, safe: u64, mines: u64, a: i64) -> Result<(), MinesError> {
    let n = u64::from(check_size(n)?);
    let cells = n * n;
    let bad = |why: String| Err(MinesError::BadParameters(why));
    if k > cells {
        return bad(format!("{k} mines do not fit in {cells} cells"));
    }
    if safe > cells - k {
        return bad(format!("{safe} safe cells opened, of {}", cells - k));
    }
    if mines > k {
        return bad(format!("{mines} mines opened, of {k}"));
    }
    if a < 0 {
        return bad(format!("a {a} is negative"));
    }
    Ok(())
}

/// The contest's time limit for a board of side `n` and constant `a` (spec: mines.md, the
/// test table: 2 s at 512, 8 s at 2048, 32 s at 8192, 18 s (A = 0) or 20 s at 16384, 68 s at
/// 32768, 256 s at 65536); a side between two of the table's takes the larger side's limit,
/// and one below 512 takes 512's.
#[must_use]
pub fn contest_time_limit(n: u64, a: i64) -> Duration {
    let table: [(u64, u64); 6] = [
        (512, 2),
        (2048, 8),
        (8192, 32),
        (16384, if a == 0 { 18 } else { 20 }),
        (32768, 68),
        (65536, 256),
    ];
    let secs = table
        .iter()
        .find(|&&(side, _)| n <= side)
        .map_or(256, |&(_, secs)| secs);
    Duration::from_secs(secs)
}

/// What to judge.
#[derive(Debug, Clone)]
pub struct JudgeConfig {
    /// The player's command line (run with `sh -c`, in its own process group).
    pub player: String,
    /// The map file.
    pub map: PathBuf,
    /// The score's constant A.
    pub constant_a: i64,
    /// The wall-clock limit from the start of both processes; `None` for no limit.
    pub time_limit: Option<Duration>,
    /// The server's command line (run with `sh -c`).
    pub server: String,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The player exited with this status.
    Exited(i32),
    /// The player was killed by this signal (not by the judge).
    Signalled(i32),
    /// The player was still running at the time limit and was killed.
    TimeLimit,
    /// The server reported this error (a protocol violation by the player, or an opening
    /// too large for a channel); the game ends at once and scores 0, as in the contest.
    ServerError(String),
    /// The judge was interrupted (Ctrl-C or a termination signal).
    Interrupted,
    /// The server ended, stopped answering or answered nonsense (a player may have killed it
    /// or truncated the shared memory under it), so no count is known: the game scores 0.
    ServerFailed(String),
}

/// The name of signal `number` ("SIGSEGV"), if it is one.
fn signal_name(number: i32) -> Option<&'static str> {
    Signal::try_from(number).ok().map(Signal::as_str)
}

/// How the player ended, for people: "exited normally", "was killed by signal 11 (SIGSEGV)".
/// The player runs under `sh -c`, which reports a command killed by signal N as exit status
/// 128 + N; such a status is named with its signal.
impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Exited(0) => f.write_str("exited normally"),
            Ending::Exited(code) => match signal_name(code - 128).filter(|_| *code > 128) {
                Some(name) => write!(
                    f,
                    "exited with status {code} (the shell's report of signal {}, {name})",
                    code - 128
                ),
                None => write!(f, "exited with status {code}"),
            },
            Ending::Signalled(signal) => match signal_name(*signal) {
                Some(name) => write!(f, "was killed by signal {signal} ({name})"),
                None => write!(f, "was killed by signal {signal}"),
            },
            Ending::TimeLimit => f.write_str("was stopped at the time limit"),
            Ending::ServerError(e) => write!(f, "was stopped by a server error: {e}"),
            Ending::Interrupted => f.write_str("was interrupted"),
            Ending::ServerFailed(e) => write!(f, "was stopped: {e}"),
        }
    }
}

/// The judge's result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Verdict {
    /// Board side.
    pub n: u64,
    /// Mines on the board.
    pub k: u64,
    /// The constant A.
    pub constant_a: i64,
    /// Distinct safe cells opened.
    pub safe_opened: u64,
    /// Distinct mines opened.
    pub mines_opened: u64,
    /// The score in [0, 100].
    pub score: f64,
    /// Seconds from the start of the processes to the end of the player.
    pub elapsed: f64,
    /// The time limit applied, in seconds; `None` for none (and in logs written before it
    /// was recorded).
    #[serde(default)]
    pub time_limit: Option<f64>,
    /// How the game ended.
    pub ending: Ending,
}

/// How a judged game stands, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Time since the start of the server and the player.
    pub elapsed: Duration,
    /// The time limit, if any.
    pub limit: Option<Duration>,
    /// The safe cells of the board (the score's 100 %).
    pub safe_cells: u64,
    /// The distinct cells opened so far, as the server last reported them; `None` until a
    /// report comes (a server other than ply's sends none).
    pub opened: Option<Counts>,
}

/// The pipes of one judged game, on descriptors >= 102.
struct Pipes {
    gs_from_pl: OwnedFd,
    pl_to_gs: OwnedFd,
    pl_from_gs: OwnedFd,
    gs_to_pl: OwnedFd,
    ju_from_gs: OwnedFd,
    gs_to_ju: OwnedFd,
    gs_from_ju: OwnedFd,
    ju_to_gs: OwnedFd,
    ju_progress: OwnedFd,
    gs_progress: OwnedFd,
}

fn pipe_pair() -> Result<(OwnedFd, OwnedFd), MinesError> {
    let (read, write) = pipe2(OFlag::O_CLOEXEC)?;
    let high = |fd: OwnedFd| {
        sys::dup_at_least(&fd, protocol::FIRST_FD).map_err(|e| MinesError::io("moving a pipe", e))
    };
    Ok((high(read)?, high(write)?))
}

impl Pipes {
    fn new() -> Result<Self, MinesError> {
        let (gs_from_pl, pl_to_gs) = pipe_pair()?;
        let (pl_from_gs, gs_to_pl) = pipe_pair()?;
        let (ju_from_gs, gs_to_ju) = pipe_pair()?;
        let (gs_from_ju, ju_to_gs) = pipe_pair()?;
        let (ju_progress, gs_progress) = pipe_pair()?;
        // The judge looks at the progress without waiting for it.
        fcntl(ju_progress.as_fd(), FcntlArg::F_SETFL(OFlag::O_NONBLOCK))?;
        Ok(Self {
            gs_from_pl,
            pl_to_gs,
            pl_from_gs,
            gs_to_pl,
            ju_from_gs,
            gs_to_ju,
            gs_from_ju,
            ju_to_gs,
            ju_progress,
            gs_progress,
        })
    }

    /// The judge's own two ends; the children's copies close when this returns, so that a dead
    /// server shows as end of file.
    fn into_judge_ends(self) -> (OwnedFd, OwnedFd, OwnedFd) {
        let Pipes {
            ju_from_gs,
            ju_to_gs,
            ju_progress,
            ..
        } = self;
        (ju_from_gs, ju_to_gs, ju_progress)
    }
}

/// Removes the shared-memory object when dropped, on every exit path.
struct ShmGuard(SharedMemory);

impl Drop for ShmGuard {
    fn drop(&mut self) {
        let _ = SharedMemory::unlink(self.0.name());
    }
}

/// A started process in its own group, killed (group and all) when dropped.
struct Proc {
    child: Child,
    status: Option<ExitStatus>,
}

impl Proc {
    fn start(
        command: &str,
        env: &[(&str, OsString)],
        remove: &[&str],
        inherit: &[&OwnedFd],
        stdout: Stdio,
    ) -> Result<Self, MinesError> {
        let set_inherit = |on: bool| -> Result<(), MinesError> {
            for fd in inherit {
                let flags = if on {
                    FdFlag::empty()
                } else {
                    FdFlag::FD_CLOEXEC
                };
                fcntl(fd.as_fd(), FcntlArg::F_SETFD(flags))?;
            }
            Ok(())
        };
        set_inherit(true)?;
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c")
            .arg(command)
            .process_group(0)
            .stdin(Stdio::inherit())
            .stdout(stdout);
        sys::die_with_parent(&mut cmd);
        for name in remove {
            cmd.env_remove(name);
        }
        for (name, value) in env {
            cmd.env(name, value);
        }
        let spawned = cmd.spawn();
        set_inherit(false)?;
        let child = spawned.map_err(|e| MinesError::io(format!("starting `{command}`"), e))?;
        Ok(Self {
            child,
            status: None,
        })
    }

    fn try_wait(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status
    }

    fn kill(&mut self) -> Option<ExitStatus> {
        let _ = killpg(Pid::from_raw(self.child.id() as i32), Signal::SIGKILL);
        if self.status.is_none() {
            self.status = self.child.wait().ok();
        }
        self.status
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The latest `safe mines` line a server wrote on its progress pipe, read without waiting.
struct ProgressReader {
    file: File,
    pending: Vec<u8>,
    latest: Option<Counts>,
}

impl ProgressReader {
    /// Reads what has come and keeps the last complete line's counts.
    fn poll(&mut self) -> Option<Counts> {
        let mut buf = [0u8; 512];
        // A few reads at most per look: a server cannot hold the judge here.
        for _ in 0..4 {
            match std::io::Read::read(&mut self.file, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(got) => self.pending.extend_from_slice(&buf[..got]),
            }
        }
        if let Some(end) = self.pending.iter().rposition(|&b| b == b'\n') {
            let lines = String::from_utf8_lossy(&self.pending[..end]).into_owned();
            if let Some(line) = lines.lines().last() {
                let numbers: Vec<u64> = line
                    .split_ascii_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect();
                if let [safe, mines] = numbers[..] {
                    self.latest = Some(Counts { safe, mines });
                }
            }
            self.pending.drain(..=end);
        }
        // Nonsense without line breaks is dropped, not kept.
        if self.pending.len() > 4096 {
            self.pending.clear();
        }
        self.latest
    }
}

/// Judges one game. `interrupted` is polled: once it is raised the game stops, both
/// processes are killed and the result says so.
pub fn judge(config: &JudgeConfig, interrupted: &StopFlag) -> Result<Verdict, MinesError> {
    judge_with_progress(config, interrupted, &mut |_| {})
}

/// [`judge`], calling `progress` every few milliseconds while the player runs (cheaply: it
/// only reads what the server last reported).
pub fn judge_with_progress(
    config: &JudgeConfig,
    interrupted: &StopFlag,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Verdict, MinesError> {
    let (n, k) = checked_map(config)?;
    let name = format!("/minesweeper_shm_{}", rand::random::<u64>());
    let shm = ShmGuard(
        SharedMemory::create(&name)
            .map_err(|e| MinesError::io(format!("creating shared memory {name}"), e))?,
    );
    let pipes = Pipes::new()?;
    let map_path = std::path::absolute(&config.map)
        .map_err(|e| MinesError::io(format!("{}", config.map.display()), e))?;

    let start = Instant::now();
    let server = start_server(config, &pipes, map_path.into_os_string(), shm.0.name())?;
    let player = start_player(config, &pipes, shm.0.name())?;
    let (ju_from_gs, ju_to_gs, ju_progress) = pipes.into_judge_ends();
    let mut game = Watched {
        from_server: File::from(ju_from_gs),
        to_server: File::from(ju_to_gs),
        reader: ProgressReader {
            file: File::from(ju_progress),
            pending: Vec::new(),
            latest: None,
        },
        server,
        player,
    };
    let ending = game.watch(config, n * n - k, start, interrupted, progress)?;
    let elapsed = start.elapsed();
    game.player.kill();
    let verdict = |ending, safe_opened, mines_opened, score| Verdict {
        n,
        k,
        constant_a: config.constant_a,
        safe_opened,
        mines_opened,
        score,
        elapsed: elapsed.as_secs_f64(),
        time_limit: config.time_limit.map(|t| t.as_secs_f64()),
        ending,
    };
    if matches!(ending, Ending::ServerFailed(_)) {
        return Ok(verdict(ending, 0, 0, 0.0));
    }
    let (report, ending) = match game.final_counts(ending, n, k, interrupted) {
        Ok(counted) => counted,
        Err(ending) => return Ok(verdict(ending, 0, 0, 0.0)),
    };
    game.server.kill();
    if (report.n, report.k) != (n, k) {
        return Err(MinesError::Protocol(format!(
            "the server reports a {} x {} map with {} mines; the map file has {n} x {n} with {k}",
            report.n, report.n, report.k
        )));
    }
    let score = match ending {
        Ending::ServerError(_) => 0.0,
        _ => score(n, k, report.safe, report.mines, config.constant_a),
    };
    drop(shm);
    Ok(verdict(ending, report.safe, report.mines, score))
}

/// The map's side and mines, once its bits are counted: the score divides by the header's K,
/// so a header that lies would score a player against the wrong board.
fn checked_map(config: &JudgeConfig) -> Result<(u64, u64), MinesError> {
    let map = MineMap::open(&config.map)?;
    let (n, k) = (u64::from(map.n()), map.k());
    let counted = map.count_mines();
    if counted != k {
        return Err(MinesError::BadParameters(format!(
            "{}: the header says {k} mines but the bits hold {counted}",
            config.map.display()
        )));
    }
    Ok((n, k))
}

/// A descriptor number as the contest's environment variables carry it.
fn fd_var(f: &OwnedFd) -> OsString {
    OsString::from(std::os::fd::AsRawFd::as_raw_fd(f).to_string())
}

/// Starts the game server with its ends of the pipes, the map and the shared memory; the
/// player's variables are removed from its environment.
fn start_server(
    config: &JudgeConfig,
    pipes: &Pipes,
    map_path: OsString,
    shm_name: &str,
) -> Result<Proc, MinesError> {
    Proc::start(
        &config.server,
        &[
            (protocol::GS_TO_PL, fd_var(&pipes.gs_to_pl)),
            (protocol::GS_FROM_PL, fd_var(&pipes.gs_from_pl)),
            (protocol::GS_TO_JU, fd_var(&pipes.gs_to_ju)),
            (protocol::GS_FROM_JU, fd_var(&pipes.gs_from_ju)),
            // The path as it is (`display` would mangle a name that is not UTF-8).
            (protocol::MAP_FILE_PATH, map_path),
            (protocol::SHM_NAME, OsString::from(shm_name)),
            (protocol::LAUNCHED_BY_JUDGER, OsString::from("1")),
            (protocol::PROGRESS_FD, fd_var(&pipes.gs_progress)),
        ],
        &[
            protocol::PL_TO_GS,
            protocol::PL_FROM_GS,
            protocol::CONSTANT_A,
        ],
        &[
            &pipes.gs_to_pl,
            &pipes.gs_from_pl,
            &pipes.gs_to_ju,
            &pipes.gs_from_ju,
            &pipes.gs_progress,
        ],
        Stdio::inherit(),
    )
}

/// Starts the player with its ends of the pipes, A and the shared memory, its standard output
/// on the judge's standard error (the judge's own output is the verdict); the server's
/// variables are removed from its environment.
fn start_player(config: &JudgeConfig, pipes: &Pipes, shm_name: &str) -> Result<Proc, MinesError> {
    let player_stdout = std::io::stderr()
        .as_fd()
        .try_clone_to_owned()
        .map_err(|e| MinesError::io("duplicating stderr", e))?;
    Proc::start(
        &config.player,
        &[
            (protocol::PL_TO_GS, fd_var(&pipes.pl_to_gs)),
            (protocol::PL_FROM_GS, fd_var(&pipes.pl_from_gs)),
            (
                protocol::CONSTANT_A,
                OsString::from(config.constant_a.to_string()),
            ),
            (protocol::SHM_NAME, OsString::from(shm_name)),
            (protocol::LAUNCHED_BY_JUDGER, OsString::from("1")),
        ],
        &[
            protocol::GS_TO_PL,
            protocol::GS_FROM_PL,
            protocol::GS_TO_JU,
            protocol::GS_FROM_JU,
            protocol::MAP_FILE_PATH,
            protocol::PROGRESS_FD,
        ],
        &[&pipes.pl_to_gs, &pipes.pl_from_gs],
        Stdio::from(player_stdout),
    )
}

/// A game under way: both processes and the judge's ends of its pipes.
struct Watched {
    from_server: File,
    to_server: File,
    reader: ProgressReader,
    server: Proc,
    player: Proc,
}

impl Watched {
    /// Watches the game until it ends: the player exits or is killed, the server fails or
    /// sends an error, the time runs out or `interrupted` is raised; `progress` hears the
    /// counts every few milliseconds.
    fn watch(
        &mut self,
        config: &JudgeConfig,
        safe_cells: u64,
        start: Instant,
        interrupted: &StopFlag,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Ending, MinesError> {
        Ok(loop {
            progress(&Progress {
                elapsed: start.elapsed(),
                limit: config.time_limit,
                safe_cells,
                opened: self.reader.poll(),
            });
            if interrupted.is_stopped() {
                break Ending::Interrupted;
            }
            if let Some(status) = self.player.try_wait() {
                break match status.signal() {
                    Some(signal) => Ending::Signalled(signal),
                    None => Ending::Exited(status.code().unwrap_or(-1)),
                };
            }
            if self.server.try_wait().is_some() {
                break Ending::ServerFailed(server_gone_reason(&mut self.server));
            }
            let left = config
                .time_limit
                .map(|limit| limit.saturating_sub(start.elapsed()));
            if left.is_some_and(|left| left.is_zero()) {
                break Ending::TimeLimit;
            }
            let wait = left.map_or(Duration::from_millis(10), |l| {
                l.min(Duration::from_millis(10))
            });
            // One read per look, so that a server sending only NULs (or nothing after a NUL)
            // cannot keep the judge from its deadline and its interrupt flag.
            if protocol::readable(&self.from_server, wait)? {
                let received = protocol::receive_once(&mut self.from_server)
                    .map_err(|e| MinesError::io("reading from the server", e))?;
                match received {
                    Received::Message(text) => break Ending::ServerError(text.trim().to_string()),
                    Received::Closed => {
                        break Ending::ServerFailed(server_gone_reason(&mut self.server));
                    }
                    Received::Nothing => {}
                }
            }
        })
    }

    /// The server's counts after the game ended by `ending`, or the ending of a game that
    /// scores nothing when there are none.
    ///
    /// An interrupted game still reports what was played: the server is asked for its counts
    /// as after any other ending, briefly and whatever the flag says, and failing that the
    /// last counts of its progress pipe stand.
    fn final_counts(
        &mut self,
        ending: Ending,
        n: u64,
        k: u64,
        interrupted: &StopFlag,
    ) -> Result<(Report, Ending), Ending> {
        let (stop, wait) = match ending {
            Ending::Interrupted => (None, INTERRUPTED_REPORT_TIMEOUT),
            _ => (Some(interrupted), REPORT_TIMEOUT),
        };
        let server = &mut self.server;
        let report = protocol::send(&mut self.to_server, "F")
            .map_err(|_| server_gone(server))
            .and_then(|()| read_report(&mut self.from_server, server, stop, wait));
        match (report, ending) {
            (Ok(report), ending) => Ok((report, ending)),
            (Err(_), Ending::Interrupted) => match self.reader.poll() {
                Some(counts) => Ok((
                    Report {
                        n,
                        k,
                        safe: counts.safe,
                        mines: counts.mines,
                    },
                    Ending::Interrupted,
                )),
                None => Err(Ending::Interrupted),
            },
            (Err(MinesError::Protocol(why)), _) if why.starts_with("interrupted") => {
                Err(Ending::Interrupted)
            }
            (Err(MinesError::Protocol(why)), _) => Err(Ending::ServerFailed(why)),
            (Err(why), _) => Err(Ending::ServerFailed(why.to_string())),
        }
    }
}

/// The longest report accepted: `0 N K safe mines` takes under 80 bytes.
const MAX_REPORT: usize = 4096;

/// Reads the server's counts after `F`: the first message ended by a NUL (or by the end of
/// file), stray NULs before it skipped.
fn read_report(
    from_server: &mut File,
    server: &mut Proc,
    interrupted: Option<&StopFlag>,
    timeout: Duration,
) -> Result<Report, MinesError> {
    let deadline = Instant::now() + timeout;
    let mut text = String::new();
    loop {
        if interrupted.is_some_and(|flag| flag.is_stopped()) {
            return Err(MinesError::Protocol(
                "interrupted while waiting for the server".into(),
            ));
        }
        if Instant::now() >= deadline {
            return Err(MinesError::Protocol(format!(
                "the server did not report its counts within {} s",
                timeout.as_secs_f64()
            )));
        }
        if !protocol::readable(from_server, Duration::from_millis(100))? {
            if server.try_wait().is_some() {
                return Err(server_gone(server));
            }
            continue;
        }
        let mut buf = [0u8; 256];
        let got = match std::io::Read::read(from_server, &mut buf) {
            Ok(got) => got,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(MinesError::io("reading the server's counts", e)),
        };
        let closed = got == 0;
        text.push_str(&String::from_utf8_lossy(&buf[..got]));
        // Every piece but the last is ended by a NUL; the last only by the end of file.
        let pieces: Vec<&str> = text.split('\0').collect();
        let complete = if closed {
            &pieces[..]
        } else {
            &pieces[..pieces.len() - 1]
        };
        if let Some(first) = complete.iter().find(|s| !s.trim().is_empty()) {
            return Report::decode(first).ok_or_else(|| {
                MinesError::Protocol(format!(
                    "the server answered {first:?}, expected `0 N K safe mines`"
                ))
            });
        }
        if closed {
            return Err(server_gone(server));
        }
        if text.len() > MAX_REPORT {
            return Err(MinesError::Protocol(format!(
                "the server sent {} bytes without a report",
                text.len()
            )));
        }
    }
}

/// The error for a server that went away.
fn server_gone(server: &mut Proc) -> MinesError {
    MinesError::Protocol(server_gone_reason(server))
}

/// Why the server went away, for a verdict.
fn server_gone_reason(server: &mut Proc) -> String {
    match server.kill() {
        Some(status) => format!("the server ended unexpectedly ({status})"),
        None => "the server closed its pipe".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contests_time_table() {
        let secs = |n, a| contest_time_limit(n, a).as_secs();
        assert_eq!(
            [secs(512, 0), secs(512, 8), secs(2048, 8), secs(8192, 8)],
            [2, 2, 8, 32]
        );
        assert_eq!(
            [secs(16384, 0), secs(16384, 8), secs(32768, 8)],
            [18, 20, 68]
        );
        assert_eq!(
            [secs(65536, 8), secs(16, 8), secs(1024, 0), secs(4096, 8)],
            [256, 2, 8, 32]
        );
    }

    #[test]
    fn the_score_formula() {
        // Everything opened, no mine: full marks (the 0.02 % slack caps at 100).
        assert_eq!(score(512, 32768, 229376, 0, 8), 100.0);
        // The spec's budget at N = 512: unopened + 8 * mines <= 0.000375 N^2 = 98.3.
        assert_eq!(score(512, 32768, 229376, 12, 8), 100.0);
        assert!(score(512, 32768, 229376, 13, 8) < 100.0);
        assert!(score(512, 32768, 229376 - 3, 12, 8) < 100.0);
        // Nothing opened scores 0 with A = 0 and is clamped at 0 with mines.
        assert_eq!(score(512, 32768, 0, 0, 0), 0.0);
        assert_eq!(score(512, 32768, 0, 1000, 8), 0.0);
        // Half the safe cells with A = 0: about 50.
        let half = score(512, 32768, 229376 / 2, 0, 0);
        assert!((half - 50.01).abs() < 0.01, "{half}");
    }
}
