//! The game server: one thread per channel over shared memory, the main thread on the pipes.
//!
//! A channel thread spins on `pending` for a short while after each answer and then sleeps
//! on a shared futex, so busy channels answer in well under a microsecond and idle ones cost
//! no CPU; on contended cores it spins only a few microseconds, so that it does not keep the
//! player it waits for from a core. Requests are checked (cell on the board, opening fits the region); a bad one is
//! answered with an empty result and reported to the judge, which ends the game.

use std::fs::File;
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::backoff::Backoff;
use crate::error::MinesError;
use crate::game::{Click, Game};
use crate::map::MineMap;
use crate::opening::Counts;
use crate::opening::Expander;
use crate::protocol::{self, Received, Report};
use crate::sys::{self, CHANNELS, MAX_ENTRIES, Region, SharedMemory};

/// How long a channel thread spins before it sleeps, unless the cores are contended (see
/// [`Backoff`]).
const SPIN: Duration = Duration::from_micros(200);
/// The longest futex sleep before a channel thread re-checks for shutdown.
const NAP: Duration = Duration::from_millis(50);

/// What a server needs: the map, the shared memory and its four pipes.
#[derive(Debug)]
pub struct ServerSetup {
    /// The map file.
    pub map: PathBuf,
    /// The shared-memory object's name.
    pub shm: String,
    /// Pipe to the player.
    pub to_player: File,
    /// Pipe from the player.
    pub from_player: File,
    /// Pipe to the judge.
    pub to_judge: File,
    /// Pipe from the judge.
    pub from_judge: File,
    /// Where to report progress (`safe mines` lines), if the judge asked for it.
    pub progress: Option<File>,
}

impl ServerSetup {
    /// Reads the setup from the environment a judge provides.
    pub fn from_env() -> Result<Self, MinesError> {
        protocol::require_judge()?;
        Ok(Self {
            map: protocol::env_path(protocol::MAP_FILE_PATH)?,
            shm: protocol::env(protocol::SHM_NAME)?,
            to_player: protocol::env_fd(protocol::GS_TO_PL)?,
            from_player: protocol::env_fd(protocol::GS_FROM_PL)?,
            to_judge: protocol::env_fd(protocol::GS_TO_JU)?,
            from_judge: protocol::env_fd(protocol::GS_FROM_JU)?,
            progress: match std::env::var_os(protocol::PROGRESS_FD) {
                Some(_) => Some(protocol::env_fd(protocol::PROGRESS_FD)?),
                None => None,
            },
        })
    }
}

/// How often the progress is reported, and how often the reporter looks for shutdown.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);
const PROGRESS_NAP: Duration = Duration::from_millis(50);

/// One channel's tally of the cells it opened first, on a cache line of its own so that the
/// channel's stores after each click never contend with another channel's.
#[derive(Default)]
#[repr(align(128))]
struct Tally {
    safe: AtomicU64,
    mines: AtomicU64,
}

/// State shared by the main thread and the channel threads.
struct Shared {
    game: Game,
    stop: AtomicBool,
    to_judge: Mutex<File>,
    reported: AtomicBool,
    tallies: Box<[Tally]>,
}

impl Shared {
    /// Sends an error to the judge (the first one only: the judge ends the game on it).
    fn report(&self, message: &str) {
        if !self.reported.swap(true, Ordering::SeqCst) {
            let mut to_judge = self.to_judge.lock().unwrap_or_else(|e| e.into_inner());
            let _ = protocol::send(&mut to_judge, message);
        }
    }
}

/// Runs a server until the judge asks for the counts (which it then sends) or goes away.
pub fn serve(setup: ServerSetup) -> Result<Counts, MinesError> {
    let ServerSetup {
        map,
        shm,
        mut to_player,
        mut from_player,
        to_judge,
        mut from_judge,
        progress,
    } = setup;
    let map = MineMap::open(&map)?;
    let memory = SharedMemory::open(&shm)
        .map_err(|e| MinesError::io(format!("opening shared memory {shm}"), e))?;
    let (n, k) = (map.n(), map.k());
    let shared = Shared {
        game: Game::new(map),
        stop: AtomicBool::new(false),
        to_judge: Mutex::new(to_judge),
        reported: AtomicBool::new(false),
        tallies: (0..CHANNELS).map(|_| Tally::default()).collect(),
    };
    // A player that is already gone just never clicks.
    let _ = protocol::send(&mut to_player, &format!("{n} {k}"));

    let outcome = std::thread::scope(|scope| {
        if let Some(progress) = progress {
            let shared = &shared;
            scope.spawn(move || report_progress(shared, progress));
        }
        let mut channels = 0usize;
        let mut player_open = true;
        let result = loop {
            let (player_ready, judge_ready) = match wait_for(&from_player, player_open, &from_judge)
            {
                Ok(ready) => ready,
                Err(e) => break Err(e),
            };
            if judge_ready {
                match protocol::receive_once(&mut from_judge) {
                    Ok(Received::Message(text)) if text.as_bytes().contains(&protocol::FINISH) => {
                        break Ok(());
                    }
                    Ok(Received::Message(text)) => {
                        break Err(MinesError::Protocol(format!(
                            "judge sent {text:?}, expected \"F\""
                        )));
                    }
                    Ok(Received::Nothing) => {}
                    Ok(Received::Closed) => {
                        break Err(MinesError::Protocol("the judge closed its pipe".into()));
                    }
                    Err(e) => break Err(MinesError::io("reading from the judge", e)),
                }
            }
            if player_ready {
                let mut buf = [0u8; 64];
                match std::io::Read::read(&mut from_player, &mut buf) {
                    Ok(0) | Err(_) => player_open = false,
                    Ok(got) => {
                        for &byte in &buf[..got] {
                            match byte {
                                protocol::CREATE_CHANNEL if channels < CHANNELS => {
                                    let region = memory.region(channels);
                                    reset(region);
                                    let shared = &shared;
                                    let id = channels;
                                    scope.spawn(move || channel_loop(shared, region, id, n));
                                    let _ = protocol::send(&mut to_player, &channels.to_string());
                                    channels += 1;
                                }
                                protocol::CREATE_CHANNEL => shared.report(&format!(
                                    "the player asked for more than {CHANNELS} channels"
                                )),
                                0 | b'\n' | b' ' => {}
                                other => shared.report(&format!(
                                    "the player sent byte 0x{other:02x} on its pipe; only 'C' is allowed"
                                )),
                            }
                        }
                    }
                }
            }
        };
        shared.stop.store(true, Ordering::SeqCst);
        for id in 0..channels {
            sys::futex_wake(memory.region(id).pending());
        }
        result
    });
    outcome?;
    let counts = shared.game.counts();
    let report = Report {
        n: u64::from(n),
        k,
        safe: counts.safe,
        mines: counts.mines,
    };
    let mut to_judge = shared.to_judge.lock().unwrap_or_else(|e| e.into_inner());
    protocol::send(&mut to_judge, &report.encode())
        .map_err(|e| MinesError::io("sending the counts to the judge", e))?;
    Ok(counts)
}

/// Writes the distinct cells opened so far (`safe mines\n`) to `to` every `PROGRESS_EVERY`
/// until shutdown. The descriptor is made non-blocking: a judge that does not read it loses
/// lines, and never slows the game.
fn report_progress(shared: &Shared, mut to: File) {
    let _ = nix::fcntl::fcntl(
        &to,
        nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_NONBLOCK),
    );
    let mut last = None;
    let mut since = Instant::now();
    while !shared.stop.load(Ordering::Relaxed) {
        std::thread::sleep(PROGRESS_NAP);
        if since.elapsed() < PROGRESS_EVERY {
            continue;
        }
        since = Instant::now();
        let (safe, mines) = shared.tallies.iter().fold((0, 0), |(s, m), t| {
            (
                s + t.safe.load(Ordering::Relaxed),
                m + t.mines.load(Ordering::Relaxed),
            )
        });
        if last != Some((safe, mines)) {
            last = Some((safe, mines));
            let _ = std::io::Write::write_all(&mut to, format!("{safe} {mines}\n").as_bytes());
        }
    }
}

/// Waits until the player's or the judge's pipe has something.
fn wait_for(
    from_player: &File,
    player_open: bool,
    from_judge: &File,
) -> Result<(bool, bool), MinesError> {
    loop {
        let mut fds = vec![PollFd::new(from_judge.as_fd(), PollFlags::POLLIN)];
        if player_open {
            fds.push(PollFd::new(from_player.as_fd(), PollFlags::POLLIN));
        }
        match poll(&mut fds, PollTimeout::NONE) {
            Ok(_) => {
                let ready = |fd: &PollFd| fd.revents().is_some_and(|r| !r.is_empty());
                let judge = ready(&fds[0]);
                let player = fds.get(1).is_some_and(ready);
                if judge || player {
                    return Ok((player, judge));
                }
            }
            Err(nix::Error::EINTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

/// Clears a region's header before its channel is handed out.
fn reset(region: Region<'_>) {
    for word in [
        region.pending(),
        region.sleeping(),
        region.done(),
        region.skip_when_reopen(),
        region.do_not_expand(),
    ] {
        word.store(0, Ordering::SeqCst);
    }
    region.count().store(0, Ordering::SeqCst);
}

/// Serves one channel until shutdown.
fn channel_loop(shared: &Shared, region: Region<'_>, id: usize, n: u32) {
    let mut expander = Expander::default();
    let mut out = Vec::with_capacity(1024);
    let mut backoff = Backoff::default();
    while wait_request(shared, region, &mut backoff) {
        let (r, c) = (
            region.row().load(Ordering::Relaxed),
            region.column().load(Ordering::Relaxed),
        );
        let skip = region.skip_when_reopen().load(Ordering::Relaxed) != 0;
        let do_not_expand = region.do_not_expand().load(Ordering::Relaxed) != 0;
        let count = if u32::from(r) >= n || u32::from(c) >= n {
            shared.report(&format!(
                "channel {id}: click ({r}, {c}) is off the {n} x {n} board"
            ));
            0
        } else {
            let click = shared.game.click(
                r,
                c,
                skip,
                do_not_expand,
                &mut expander,
                &mut out,
                MAX_ENTRIES,
            );
            match click {
                Ok(Click::Mine) => -1,
                Ok(Click::Skipped { mine: false }) => -2,
                Ok(Click::Skipped { mine: true }) => -3,
                Ok(Click::Opened(len)) => {
                    region.write_entries(&out);
                    len as i32
                }
                Err(_) => {
                    shared.report(&format!(
                        "channel {id}: the opening at ({r}, {c}) has more than {MAX_ENTRIES} cells, more than a channel's region holds"
                    ));
                    0
                }
            }
        };
        // The answer's writes come together, after the work, so the line holding the header
        // changes hands once per click rather than bouncing while the player polls `done`.
        region.pending().store(0, Ordering::Relaxed);
        if region.sleeping().load(Ordering::Relaxed) != 0 {
            region.sleeping().store(0, Ordering::Relaxed);
        }
        region.count().store(count, Ordering::Relaxed);
        region.done().store(1, Ordering::Release);
        // The progress tally after the answer, off the click's path.
        let opened = expander.opened();
        let tally = &shared.tallies[id];
        tally.safe.store(opened.safe, Ordering::Relaxed);
        tally.mines.store(opened.mines, Ordering::Relaxed);
    }
}

/// Waits for `pending`: spins for `SPIN` (briefly when this thread has been losing its core
/// lately), then sleeps on the futex, which the player wakes. False at shutdown.
fn wait_request(shared: &Shared, region: Region<'_>, backoff: &mut Backoff) -> bool {
    let pending = || region.pending().load(Ordering::Acquire) != 0;
    let stopping = || shared.stop.load(Ordering::Relaxed);
    backoff.wait(
        || pending() || stopping(),
        SPIN,
        |nap| {
            region.sleeping().store(1, Ordering::SeqCst);
            if region.pending().load(Ordering::SeqCst) == 0 && !shared.stop.load(Ordering::SeqCst) {
                sys::futex_wait(region.pending(), 0, nap);
            }
        },
        NAP,
        NAP,
    );
    !stopping()
}
