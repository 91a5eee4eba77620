//! Agents as child processes: each in its own process group, its output read on a thread and
//! bounded, killed with its whole group, and with what it started outside the group
//! ([`escaped`](super::escaped)), when it is dropped.

use super::escaped::{adopt_orphans, kill_escaped};
use super::player::{Forfeit, Player};
use crate::duel::agents::{HOST_MOVE_TIME_VAR, HOST_PONDER_VAR};
use crate::duel::protocol::{Setup, encode_move, parse_move, role_char};
use crate::duel::rules::{Board, Color, DuelMove};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use ply_search::StopFlag;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A piece of an agent's output, or the end of it.
enum Output {
    Bytes(Vec<u8>),
    End(String),
}

/// Pieces of output held between the reader thread and the referee: when they are full the
/// reader stops reading, the pipe fills and the agent blocks, so a flooding agent costs the
/// referee a bounded amount of memory.
const QUEUED_PIECES: usize = 16;

/// The most bytes (whitespace included) an agent may send for one move: a move is two
/// characters, and anything far beyond that is a flood.
const MAX_MOVE_BYTES: usize = 4096;

/// The process groups of every agent this process has running, so that a program being
/// stopped can stop them all ([`stop_all_agents`]) even while a game holds the players.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Kills the process group of every agent this process has started and not yet stopped: for a
/// program that is being interrupted and cannot wait for its games to notice.
pub fn stop_all_agents() {
    let groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
    for &group in groups.iter() {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
}

/// Has the child started by `command` killed when the thread that starts it ends, so that a
/// referee killed outright (SIGKILL, which no handler sees) leaves no agent behind.
#[allow(unsafe_code)]
fn die_with_parent(command: &mut Command) {
    let parent = nix::unistd::getpid();
    // SAFETY: the closure runs in the child between fork and exec; it makes two system calls
    // (prctl, getppid), both async-signal-safe, and reads only a copied pid.
    unsafe {
        command.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(std::io::Error::from)?;
            // A parent that died before the signal was armed sends none: do not start.
            if nix::unistd::getppid() != parent {
                return Err(std::io::Error::other("the referee is gone"));
            }
            Ok(())
        });
    }
}

/// How often a waiting referee looks at its stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// An agent process speaking the protocol on its stdin/stdout, started with `sh -c` in a
/// process group of its own so that everything it spawned can be killed together.
pub struct ProcessPlayer {
    name: String,
    command: String,
    running: Option<Running>,
    stop: Option<StopFlag>,
    move_time: Option<Duration>,
    ponder: Option<bool>,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    output: Receiver<Output>,
    /// Bytes received after the last move, read before anything new.
    pending: Vec<u8>,
    last_sent: Instant,
}

impl ProcessPlayer {
    /// A player running the shell command line `command` (started at the first game).
    #[must_use]
    pub fn new(name: &str, command: &str) -> Self {
        ProcessPlayer {
            name: name.to_string(),
            command: command.to_string(),
            running: None,
            stop: None,
            move_time: None,
            ponder: None,
        }
    }

    /// The same player, told whether it may think during the opponent's time: the agent
    /// process finds it in `PLY_EWN_HOST_PONDER` (ply's agents ponder only when allowed; see
    /// [`pondering_fits`](crate::duel::agents::pondering_fits)).
    #[must_use]
    pub fn with_ponder(mut self, allowed: bool) -> Self {
        self.ponder = Some(allowed);
        self
    }

    /// The same player, told the host's time per move: the agent process finds it in
    /// [`HOST_MOVE_TIME_VAR`], so that ply's agents think within it
    /// ([`thinking_time`](crate::duel::agents::thinking_time)) whatever their own setting.
    #[must_use]
    pub fn with_move_time(mut self, limit: Duration) -> Self {
        self.move_time = Some(limit);
        self
    }

    /// The same player, giving up a move it waits for as soon as `stop` is set (the referee
    /// is being stopped).
    #[must_use]
    pub fn with_stop(mut self, stop: StopFlag) -> Self {
        self.stop = Some(stop);
        self
    }

    fn running(&mut self) -> Result<&mut Running, Forfeit> {
        if self.running.is_none() {
            let mut command = Command::new("sh");
            command
                .arg("-c")
                .arg(&self.command)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .process_group(0);
            if let Some(limit) = self.move_time {
                command.env(HOST_MOVE_TIME_VAR, limit.as_secs_f64().to_string());
            }
            if let Some(allowed) = self.ponder {
                command.env(HOST_PONDER_VAR, if allowed { "1" } else { "0" });
            }
            die_with_parent(&mut command);
            adopt_orphans(&mut command);
            let mut child = command
                .spawn()
                .map_err(|e| Forfeit::Unstartable(e.to_string()))?;
            if let Ok(group) = i32::try_from(child.id()) {
                GROUPS
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(group);
            }
            let stdin = child.stdin.take().expect("piped stdin");
            let mut stdout = child.stdout.take().expect("piped stdout");
            let (send, output) = mpsc::sync_channel(QUEUED_PIECES);
            std::thread::spawn(move || {
                let mut buffer = [0u8; 256];
                loop {
                    match stdout.read(&mut buffer) {
                        Ok(0) => {
                            let _ = send.send(Output::End("end of output".into()));
                            return;
                        }
                        Ok(n) => {
                            if send.send(Output::Bytes(buffer[..n].to_vec())).is_err() {
                                return;
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            let _ = send.send(Output::End(e.to_string()));
                            return;
                        }
                    }
                }
            });
            self.running = Some(Running {
                child,
                stdin,
                output,
                pending: Vec::new(),
                last_sent: Instant::now(),
            });
        }
        Ok(self.running.as_mut().expect("started above"))
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), Forfeit> {
        let running = self.running()?;
        if running
            .stdin
            .write_all(bytes)
            .and_then(|()| running.stdin.flush())
            .is_err()
        {
            std::thread::sleep(Duration::from_millis(20));
            return Err(match Self::exit_status(running) {
                Some(status) => Forfeit::Closed(status),
                None => Forfeit::Unreachable,
            });
        }
        running.last_sent = Instant::now();
        Ok(())
    }

    /// Kills what the running agent started outside its process group.
    fn kill_escaped(&self) {
        if let Some(pid) = self
            .running
            .as_ref()
            .and_then(|r| i32::try_from(r.child.id()).ok())
        {
            kill_escaped(pid);
        }
    }

    /// Describes how the process ended, if it has.
    fn exit_status(running: &mut Running) -> Option<String> {
        running.child.try_wait().ok().flatten().map(describe)
    }
}

/// How a process ended, for people. An agent runs under `sh -c`, which reports a command
/// killed by signal N as exit status 128 + N; such a status is named with its signal.
fn describe(status: std::process::ExitStatus) -> String {
    let name = |n: i32| Signal::try_from(n).ok().map(Signal::as_str);
    match (status.code(), status.signal()) {
        (_, Some(n)) => match name(n) {
            Some(sig) => format!("killed by signal {n}, {sig}"),
            None => format!("killed by signal {n}"),
        },
        (Some(code), _) if code > 128 && name(code - 128).is_some() => format!(
            "exit status {code}, the shell's report of signal {}, {}",
            code - 128,
            name(code - 128).unwrap_or_default()
        ),
        (Some(code), _) => format!("exit status {code}"),
        (None, None) => "ended".to_string(),
    }
}

/// Moves the non-whitespace bytes of `bytes` into `got` until it holds a move's two, and
/// whatever follows into `pending`.
fn take(bytes: &[u8], got: &mut Vec<u8>, pending: &mut Vec<u8>) {
    for (i, &b) in bytes.iter().enumerate() {
        if got.len() == 2 {
            pending.extend_from_slice(&bytes[i..]);
            return;
        }
        if !b.is_ascii_whitespace() {
            got.push(b);
        }
    }
}

impl Player for ProcessPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, setup: &Setup, color: Color) -> Result<(), Forfeit> {
        let mut message = setup.encode().into_bytes();
        message.push(role_char(color));
        self.send(&message)
    }

    fn request_move(
        &mut self,
        _: &Board,
        limit: Duration,
    ) -> Result<(Option<DuelMove>, Duration), Forfeit> {
        let stopped = self.stop.clone();
        let running = self.running()?;
        let start = running.last_sent;
        // A limit past what the clock can represent is no limit.
        let deadline = start.checked_add(limit);
        let mut got = Vec::with_capacity(2);
        let mut received = 0usize;
        let earlier = std::mem::take(&mut running.pending);
        received += earlier.len();
        take(&earlier, &mut got, &mut running.pending);
        while got.len() < 2 {
            // The clock runs from the request, whatever arrives meanwhile: an agent that
            // keeps sending whitespace is out of time all the same.
            let now = Instant::now();
            if deadline.is_some_and(|deadline| now >= deadline) {
                return Err(Forfeit::Timeout(limit.as_secs_f64()));
            }
            if stopped.as_ref().is_some_and(StopFlag::is_stopped) {
                return Err(Forfeit::Closed("the referee was stopped".into()));
            }
            // With a stop flag, wake up now and then to look at it (and without a deadline,
            // now and then all the same).
            let left = deadline.map_or(STOP_POLL, |deadline| deadline - now);
            let wait = if stopped.is_some() {
                left.min(STOP_POLL)
            } else {
                left
            };
            match running.output.recv_timeout(wait) {
                Ok(Output::Bytes(bytes)) => {
                    received += bytes.len();
                    take(&bytes, &mut got, &mut running.pending);
                    if got.len() < 2 && received > MAX_MOVE_BYTES {
                        return Err(Forfeit::Malformed(format!(
                            "more than {MAX_MOVE_BYTES} bytes without a move"
                        )));
                    }
                }
                Ok(Output::End(why)) => {
                    // Give the process a moment to be reaped so the status can be named.
                    std::thread::sleep(Duration::from_millis(20));
                    let status = Self::exit_status(running).unwrap_or(why);
                    return Err(Forfeit::Closed(status));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Forfeit::Closed("output reader stopped".into()));
                }
            }
        }
        let took = start.elapsed();
        if running.pending.len() > MAX_MOVE_BYTES {
            return Err(Forfeit::Malformed(format!(
                "more than {MAX_MOVE_BYTES} bytes after a move"
            )));
        }
        let text = [got[0], got[1]];
        if text == *b"??" {
            return Ok((None, took));
        }
        match parse_move(text) {
            Ok(mv) => Ok((Some(mv), took)),
            Err(e) => Err(Forfeit::Malformed(format!(
                "{:?}: {e}",
                String::from_utf8_lossy(&text)
            ))),
        }
    }

    fn tell(&mut self, mv: Option<DuelMove>) -> Result<(), Forfeit> {
        let bytes = mv.map_or(*b"??", encode_move);
        self.send(&bytes)
    }

    fn end_game(&mut self, more: bool) {
        if !more {
            // Before the agent may leave on its own: what it started outside its group would
            // then be no longer its own.
            self.kill_escaped();
        }
        if self.send(if more { b"y" } else { b"n" }).is_err() {
            self.reset();
        }
    }

    fn reset(&mut self) {
        self.kill_escaped();
        if let Some(mut running) = self.running.take() {
            if let Ok(pid) = i32::try_from(running.child.id()) {
                let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
                GROUPS
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .retain(|&g| g != pid);
            }
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}

impl Drop for ProcessPlayer {
    fn drop(&mut self) {
        self.reset();
    }
}
