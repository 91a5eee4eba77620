//! The player's side of the protocol, like the contest's `minesweeper_helpers`: a
//! [`Session`] (from `minesweeper_init`), its [`Channel`]s (from `create_channel`) and their
//! clicks, whose results borrow the channel's shared-memory region (no copy).
//!
//! ```no_run
//! # fn main() -> Result<(), ply_mines::MinesError> {
//! let session = ply_mines::Session::connect()?;
//! let mut channel = session.channel()?;
//! if let ply_mines::ClickResult::Opened(cells) = channel.click(0, 0, true)? {
//!     for &[r, c, number] in cells {
//!         println!("({r}, {c}) shows {number}");
//!     }
//! }
//! # Ok(())
//! # }
//! ```

use std::fs::File;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::backoff::{Backoff, Policy};
use crate::error::MinesError;
use crate::protocol;
use crate::protocol::Entry;
use crate::sys::{self, MAX_ENTRIES, Region, SharedMemory};

/// How long a player spins for an answer before it naps, contended cores or not (see
/// [`Policy::Hold`]). An answer to a single cell takes about a microsecond and a large
/// opening up to milliseconds; on a shared machine the server thread may be off its core for
/// several of the scheduler's slices of a few milliseconds each, and a player that naps
/// through them gets put on the server thread's core.
const SPIN: Duration = Duration::from_millis(20);
/// The first nap after spinning, doubling up to `MAX_NAP` (a nap also bounds how late a slow
/// answer is seen).
const FIRST_NAP: Duration = Duration::from_micros(5);
const MAX_NAP: Duration = Duration::from_millis(1);

std::thread_local! {
    static PRECISE_NAPS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Asks, once per thread, for timers as precise as the kernel gives: a player thread naps
/// while it waits for answers, and the default 50 µs of timer slack would make every nap,
/// and so every answer seen while napping, 50 µs late.
fn precise_naps() {
    PRECISE_NAPS.with(|done| {
        if !done.replace(true) {
            let _ = nix::sys::prctl::set_timerslack(1000);
        }
    });
}

/// The most channels, so worker threads, a player asks for: the spec's 1,024 channels less
/// one, as the CLI has always allowed, so that a player never meets a server's limit
/// exactly at its edge.
pub const MAX_PLAYER_THREADS: usize = sys::CHANNELS - 1;

/// A connection to a game server, made from the environment a judge provides.
#[derive(Debug)]
pub struct Session {
    n: u32,
    k: u64,
    constant_a: i64,
    memory: SharedMemory,
    pipes: Mutex<(File, File)>,
}

impl Session {
    /// Connects: checks the judge's environment, maps the shared memory and reads `N K` from
    /// the server (blocking until the server has loaded the map).
    pub fn connect() -> Result<Self, MinesError> {
        protocol::require_judge()?;
        let shm = protocol::env(protocol::SHM_NAME)?;
        let to_server = protocol::env_fd(protocol::PL_TO_GS)?;
        let from_server = protocol::env_fd(protocol::PL_FROM_GS)?;
        let constant_a = protocol::env_number(protocol::CONSTANT_A)?;
        Self::from_parts(&shm, to_server, from_server, constant_a)
    }

    /// Connects with explicit parts: the shared-memory name, the pipes to and from the
    /// server, and the constant A (for embedding a server and a player in one program).
    pub fn from_parts(
        shm: &str,
        to_server: File,
        mut from_server: File,
        constant_a: i64,
    ) -> Result<Self, MinesError> {
        let memory = SharedMemory::open(shm)
            .map_err(|e| MinesError::io(format!("opening shared memory {shm}"), e))?;
        let hello = protocol::receive(&mut from_server)
            .map_err(|e| MinesError::io("reading N and K from the server", e))?
            .ok_or_else(|| {
                MinesError::Protocol("the server closed its pipe before `N K`".into())
            })?;
        let numbers: Vec<u64> = hello
            .split_ascii_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let [n, k] = numbers[..] else {
            return Err(MinesError::Protocol(format!(
                "the server sent {hello:?}, expected `N K`"
            )));
        };
        let n = crate::map::check_size(n)?;
        Ok(Self {
            n,
            k,
            constant_a,
            memory,
            pipes: Mutex::new((to_server, from_server)),
        })
    }

    /// The board side N.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The number of mines K.
    pub fn k(&self) -> u64 {
        self.k
    }

    /// The score's constant A (the cost of a mine in safe cells).
    pub fn constant_a(&self) -> i64 {
        self.constant_a
    }

    /// Asks the server for a new channel (thread-safe; one channel per thread).
    pub fn channel(&self) -> Result<Channel<'_>, MinesError> {
        let mut pipes = self.pipes.lock().unwrap_or_else(|e| e.into_inner());
        let (to_server, from_server) = &mut *pipes;
        std::io::Write::write_all(to_server, &[protocol::CREATE_CHANNEL])
            .map_err(|e| MinesError::io("asking the server for a channel", e))?;
        let reply = protocol::receive(from_server)
            .map_err(|e| MinesError::io("reading a channel id", e))?
            .ok_or_else(|| MinesError::Protocol("the server closed its pipe".into()))?;
        let id: usize = reply.trim().parse().map_err(|_| {
            MinesError::Protocol(format!("the server sent {reply:?}, expected a channel id"))
        })?;
        if id >= sys::CHANNELS {
            return Err(MinesError::Protocol(format!(
                "the server gave channel {id}; there are only {}",
                sys::CHANNELS
            )));
        }
        Ok(Channel {
            id,
            n: self.n,
            region: self.memory.region(id),
            backoff: Backoff::new(Policy::Hold),
        })
    }
}

/// The answer to a click, borrowing the channel's region until the next click.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClickResult<'a> {
    /// The cell is a mine.
    Mine,
    /// Skipped: the cell was already open (`skip_when_reopen`); `mine` says what it is.
    Skipped {
        /// Whether the cell is a mine.
        mine: bool,
    },
    /// Safe: the opened cells as (row, column, number), the clicked cell first.
    Opened(&'a [Entry]),
}

/// One channel to the server. Use each from one thread at a time (it is `Send`).
#[derive(Debug)]
pub struct Channel<'s> {
    id: usize,
    n: u32,
    region: Region<'s>,
    backoff: Backoff,
}

impl Channel<'_> {
    /// The channel's id.
    pub fn id(&self) -> usize {
        self.id
    }

    /// Clicks (r, c): a zero opens its whole region (cells opened before included);
    /// `skip_when_reopen` answers `Skipped` at once for a cell already open.
    pub fn click(
        &mut self,
        r: u32,
        c: u32,
        skip_when_reopen: bool,
    ) -> Result<ClickResult<'_>, MinesError> {
        self.request(r, c, skip_when_reopen, false)
    }

    /// Opens exactly cell (r, c), never expanding (O(1) on the server).
    pub fn click_do_not_expand(&mut self, r: u32, c: u32) -> Result<ClickResult<'_>, MinesError> {
        self.request(r, c, false, true)
    }

    fn request(
        &mut self,
        r: u32,
        c: u32,
        skip: bool,
        do_not_expand: bool,
    ) -> Result<ClickResult<'_>, MinesError> {
        self.send(r, c, skip, do_not_expand)?;
        self.answer()
    }

    /// Sends a click without waiting for its answer: `click` (`skip_when_reopen` as given)
    /// or, with `do_not_expand`, `click_do_not_expand`. Collect the answer with
    /// [`Channel::answer`] before sending the next one; [`Channel::answered`] tells whether
    /// that would wait.
    ///
    /// # Errors
    /// When the cell is off the board.
    pub fn send(
        &mut self,
        r: u32,
        c: u32,
        skip_when_reopen: bool,
        do_not_expand: bool,
    ) -> Result<(), MinesError> {
        if r >= self.n || c >= self.n {
            return Err(MinesError::Protocol(format!(
                "click ({r}, {c}) is off the {n} x {n} board",
                n = self.n
            )));
        }
        let region = self.region;
        // `done` of the previous answer is cleared here, with the new request, rather than
        // right after reading the answer: the player's writes then reach the shared line in one
        // burst (the server never reads `done`).
        region.done().store(0, Ordering::Relaxed);
        region.row().store(r as u16, Ordering::Relaxed);
        region.column().store(c as u16, Ordering::Relaxed);
        region
            .skip_when_reopen()
            .store(u32::from(skip_when_reopen), Ordering::Relaxed);
        region
            .do_not_expand()
            .store(u32::from(do_not_expand), Ordering::Relaxed);
        // No fence between the store and the load (a full fence waits for the shared line on
        // every click): if the server falls asleep unseen, `answer` wakes it.
        region.pending().store(1, Ordering::Release);
        if region.sleeping().load(Ordering::Relaxed) != 0 {
            sys::futex_wake(region.pending());
        }
        Ok(())
    }

    /// Whether the click sent last has its answer (so [`Channel::answer`] returns at once).
    pub fn answered(&self) -> bool {
        self.region.done().load(Ordering::Acquire) != 0
    }

    /// Waits for the answer to the click sent last and reads it.
    ///
    /// # Errors
    /// When the server's answer breaks the protocol.
    pub fn answer(&mut self) -> Result<ClickResult<'_>, MinesError> {
        let region = self.region;
        // A server thread that fell asleep without seeing the request (`send` has no fence
        // between its store and its load) is woken here.
        let wake_if_asleep = || {
            if region.sleeping().load(Ordering::SeqCst) != 0
                && region.pending().load(Ordering::SeqCst) != 0
            {
                sys::futex_wake(region.pending());
            }
        };
        let mut looks = 0u32;
        self.backoff.wait(
            || {
                if region.done().load(Ordering::Acquire) != 0 {
                    return true;
                }
                looks = looks.wrapping_add(1);
                if looks.is_multiple_of(256) {
                    wake_if_asleep();
                }
                false
            },
            SPIN,
            // Nothing wakes this futex (servers only store `done`): it is a nap that ends
            // early only if the answer is already there.
            |nap| {
                wake_if_asleep();
                precise_naps();
                sys::futex_wait(region.done(), 0, nap);
            },
            FIRST_NAP,
            MAX_NAP,
        );
        let count = region.count().load(Ordering::Relaxed);
        match count {
            -1 => Ok(ClickResult::Mine),
            -2 => Ok(ClickResult::Skipped { mine: false }),
            -3 => Ok(ClickResult::Skipped { mine: true }),
            len if len > 0 && len as usize <= MAX_ENTRIES => {
                Ok(ClickResult::Opened(region.entries(len as usize)))
            }
            other => Err(MinesError::Protocol(format!(
                "channel {}: the server answered count {other} for ({}, {})",
                self.id,
                region.row().load(Ordering::Relaxed),
                region.column().load(Ordering::Relaxed)
            ))),
        }
    }
}
