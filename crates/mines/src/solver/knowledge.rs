//! The shared knowledge map: one atomic byte per cell, written by every worker thread.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::sys::zeroed_atomic_bytes;

/// Nothing known about the cell.
pub(super) const UNKNOWN: u8 = 0;
/// Open with number `v - OPEN` (so `OPEN..=OPEN + 8`).
pub(super) const OPEN: u8 = 1;
/// Known to be a mine (deduced or hit).
pub(super) const MINE: u8 = 10;
/// Known safe and being clicked by the thread that claimed it.
pub(super) const CLAIMED: u8 = 11;
/// Being clicked as a guess: not known to be safe, so numbers around it wait for the answer.
pub(super) const GUESSING: u8 = 12;

/// A flag on an open number whose neighbours are all known (see [`Knowledge::set_resolved`]).
pub(super) const RESOLVED: u8 = 0x80;

/// A flag on an open number waiting in a work list (so it is queued once).
pub(super) const QUEUED: u8 = 0x40;
/// A flag on an open number waiting for the pair rule (so it is listed once).
pub(super) const FRESH: u8 = 0x20;
/// A flag on an open number waiting to seed an enumeration (so it is listed once).
pub(super) const SEEDED: u8 = 0x10;
/// The bits of a state byte that hold the state; the rest are flags.
const STATE_BITS: u8 = 0x0F;

/// Whether a state byte may be queued for examination: an open number, neither resolved nor
/// queued already, and not a zero unless `zeros`.
const fn queueable(raw: u8, zeros: bool) -> bool {
    let s = raw & STATE_BITS;
    s >= OPEN + if zeros { 0 } else { 1 } && s <= OPEN + 8 && raw & (RESOLVED | QUEUED) == 0
}

/// [`queueable`] of every byte, zeros excluded (a table: the test is hot and unpredictable).
const QUEUEABLE: [bool; 256] = queueable_table(false);
/// [`queueable`] of every byte, zeros included.
const QUEUEABLE_ZEROS: [bool; 256] = queueable_table(true);

/// [`queueable`] for every byte.
const fn queueable_table(zeros: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut raw = 0;
    while raw < 256 {
        table[raw] = queueable(raw as u8, zeros);
        raw += 1;
    }
    table
}

/// Whether a state is an open cell.
#[must_use]
pub(super) fn is_open(state: u8) -> bool {
    (OPEN..=OPEN + 8).contains(&state)
}

/// What every thread knows: cell states and the counts the stopping rules need.
pub(crate) struct Knowledge {
    n: u32,
    /// log2 of N (N is a power of two).
    shift: u32,
    k: u64,
    cells: Box<[AtomicU8]>,
    /// The counts, kept per band of rows: the workers own stripes of rows, and one shared
    /// counter, written on every cell and read before every deduction, would bounce its cache
    /// line between their cores on every cell, so that more workers would be slower.
    bands: Box<[Band]>,
    /// A cell's band is `cell >> band_shift`.
    band_shift: u32,
    /// Only one thread writes: updates are plain loads and stores instead of locked
    /// read-modify-write instructions (readers on other threads still see whole bytes).
    single_writer: bool,
}

/// The counts of one band of rows, on cache lines of its own.
#[derive(Default)]
#[repr(align(128))]
struct Band {
    /// Cells of the band no longer unknown.
    known: AtomicU64,
    /// Mines of the band known.
    mines: AtomicU64,
}

/// A cell's neighbours, on the stack.
pub(super) type Neighbours = ([u32; 8], usize);

impl Knowledge {
    /// An N x N board with K mines, nothing known (N a power of two).
    #[must_use]
    pub(crate) fn new(n: u32, k: u64) -> Self {
        Knowledge::with_bands(n, k, 1)
    }

    /// [`Knowledge::new`] with its counts split into `bands` bands of rows (rounded up to a
    /// power of two, at most N), one per worker, so that workers on their own stripes of rows
    /// count on cache lines of their own.
    #[must_use]
    pub(crate) fn with_bands(n: u32, k: u64, bands: usize) -> Self {
        let cells = u64::from(n) * u64::from(n);
        let shift = n.trailing_zeros();
        let bands = bands.max(1).next_power_of_two().min(n as usize);
        Knowledge {
            n,
            shift,
            k,
            cells: zeroed_atomic_bytes(cells as usize),
            bands: (0..bands).map(|_| Band::default()).collect(),
            band_shift: 2 * shift - bands.trailing_zeros(),
            single_writer: false,
        }
    }

    /// [`Knowledge::new`] for a map written by one thread only, which makes every update a
    /// plain load and store (about a third faster per cell than locked instructions).
    #[must_use]
    pub(crate) fn single_writer(n: u32, k: u64) -> Self {
        Knowledge {
            single_writer: true,
            ..Knowledge::new(n, k)
        }
    }

    /// Replaces `cell`'s byte `v` with `change(v)`; returns the byte before.
    #[inline]
    fn modify(&self, cell: u32, change: impl Fn(u8) -> u8) -> u8 {
        let byte = &self.cells[cell as usize];
        if self.single_writer {
            let old = byte.load(Ordering::Relaxed);
            byte.store(change(old), Ordering::Relaxed);
            old
        } else {
            match byte.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| Some(change(v))) {
                Ok(old) | Err(old) => old,
            }
        }
    }

    /// Stores `new` into `cell`'s byte; returns the byte before.
    #[inline]
    fn swap(&self, cell: u32, new: u8) -> u8 {
        let byte = &self.cells[cell as usize];
        if self.single_writer {
            let old = byte.load(Ordering::Relaxed);
            byte.store(new, Ordering::Release);
            old
        } else {
            byte.swap(new, Ordering::AcqRel)
        }
    }

    /// Replaces an [`UNKNOWN`] byte of `cell` with `new`; false if it was something else.
    #[inline]
    fn replace_unknown(&self, cell: u32, new: u8) -> bool {
        let byte = &self.cells[cell as usize];
        if self.single_writer {
            if byte.load(Ordering::Relaxed) != UNKNOWN {
                return false;
            }
            byte.store(new, Ordering::Release);
            true
        } else {
            byte.compare_exchange(UNKNOWN, new, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        }
    }

    /// Adds one to a counter.
    #[inline]
    fn count(&self, counter: &AtomicU64) {
        if self.single_writer {
            counter.store(counter.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        } else {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The band of `cell`.
    #[inline]
    fn band(&self, cell: u32) -> &Band {
        &self.bands[(cell >> self.band_shift) as usize]
    }

    /// Counts `cell` as no longer unknown.
    #[inline]
    fn count_known(&self, cell: u32) {
        self.count(&self.band(cell).known);
    }

    /// Counts a mine at `cell`.
    #[inline]
    fn count_mine(&self, cell: u32) {
        self.count(&self.band(cell).mines);
    }

    /// Mines known, summed over the bands.
    fn mines_known(&self) -> u64 {
        self.bands
            .iter()
            .map(|b| b.mines.load(Ordering::Relaxed))
            .sum()
    }

    /// The board side.
    #[must_use]
    pub(crate) fn n(&self) -> u32 {
        self.n
    }

    /// Cells on the board.
    #[must_use]
    pub(crate) fn len(&self) -> usize {
        self.cells.len()
    }

    /// The state of `cell`.
    #[must_use]
    #[inline]
    pub(crate) fn state(&self, cell: u32) -> u8 {
        self.cells[cell as usize].load(Ordering::Relaxed) & STATE_BITS
    }

    /// Flags the open number at `cell` as queued for examination; false if it needs none
    /// (not an open number, a zero unless `zeros`, resolved, or queued already).
    #[inline]
    pub(crate) fn enqueue(&self, cell: u32, zeros: bool) -> bool {
        let byte = &self.cells[cell as usize];
        let raw = byte.load(Ordering::Relaxed);
        let table = if zeros { &QUEUEABLE_ZEROS } else { &QUEUEABLE };
        if !table[usize::from(raw)] {
            return false;
        }
        if self.single_writer {
            byte.store(raw | QUEUED, Ordering::Relaxed);
            return true;
        }
        self.set_flag(cell, QUEUED)
    }

    /// Clears the queued flag of `cell` (it is being examined) and returns its state.
    #[inline]
    pub(crate) fn dequeue(&self, cell: u32) -> u8 {
        self.clear_flag(cell, QUEUED)
    }

    /// Sets `flag` on `cell`; true if it was not set.
    #[inline]
    pub(crate) fn set_flag(&self, cell: u32, flag: u8) -> bool {
        self.modify(cell, |v| v | flag) & flag == 0
    }

    /// Clears `flag` on `cell` and returns the cell's state.
    #[inline]
    pub(crate) fn clear_flag(&self, cell: u32, flag: u8) -> u8 {
        self.modify(cell, |v| v & !flag) & STATE_BITS
    }

    /// Flags the open number at `cell` as resolved: every neighbour is known, so it never
    /// needs examining again. (An expansion that reopens the cell may clear the flag, which
    /// costs only a needless examination.)
    #[inline]
    pub(crate) fn set_resolved(&self, cell: u32, state: u8) {
        self.cells[cell as usize].store(state | RESOLVED, Ordering::Relaxed);
    }

    /// Cells still unknown.
    #[must_use]
    pub(crate) fn unknown(&self) -> u64 {
        let known: u64 = self
            .bands
            .iter()
            .map(|b| b.known.load(Ordering::Relaxed))
            .sum();
        (self.cells.len() as u64).saturating_sub(known)
    }

    /// The number of mines K.
    #[must_use]
    pub(crate) fn k(&self) -> u64 {
        self.k
    }

    /// Cells known safe (open, or claimed and being clicked).
    #[must_use]
    pub(crate) fn safe_known(&self) -> u64 {
        (self.cells.len() as u64)
            .saturating_sub(self.unknown())
            .saturating_sub(self.mines_known())
    }

    /// Mines not yet known.
    #[must_use]
    pub(crate) fn mines_left(&self) -> u64 {
        self.k.saturating_sub(self.mines_known())
    }

    /// The density of mines among the unknown cells.
    #[must_use]
    pub(crate) fn density(&self) -> f64 {
        let unknown = self.unknown().max(1);
        (self.mines_left() as f64 / unknown as f64).min(1.0)
    }

    /// Row and column of `cell`.
    #[must_use]
    #[inline]
    pub(crate) fn coords(&self, cell: u32) -> (u32, u32) {
        (cell >> self.shift, cell & (self.n - 1))
    }

    /// The cell at row `r`, column `c`.
    #[must_use]
    #[inline]
    pub(crate) fn cell(&self, r: u32, c: u32) -> u32 {
        (r << self.shift) | c
    }

    /// The on-board neighbours of `cell`.
    #[must_use]
    #[inline]
    pub(crate) fn neighbours(&self, cell: u32) -> Neighbours {
        let (r, c) = self.coords(cell);
        let last = self.n - 1;
        if r > 0 && r < last && c > 0 && c < last {
            let n = self.n;
            let up = cell - n;
            let down = cell + n;
            return (
                [
                    up - 1,
                    up,
                    up + 1,
                    cell - 1,
                    cell + 1,
                    down - 1,
                    down,
                    down + 1,
                ],
                8,
            );
        }
        self.edge_neighbours(r, c)
    }

    /// [`Knowledge::neighbours`] of a cell on the board's edge.
    #[cold]
    fn edge_neighbours(&self, r: u32, c: u32) -> Neighbours {
        let last = self.n - 1;
        let mut out = ([0u32; 8], 0);
        for dr in [-1i64, 0, 1] {
            let rr = i64::from(r) + dr;
            if rr < 0 || rr > i64::from(last) {
                continue;
            }
            for dc in [-1i64, 0, 1] {
                let cc = i64::from(c) + dc;
                if (dr == 0 && dc == 0) || cc < 0 || cc > i64::from(last) {
                    continue;
                }
                out.0[out.1] = self.cell(rr as u32, cc as u32);
                out.1 += 1;
            }
        }
        out
    }

    /// Claims an unknown cell for clicking, as known safe ([`CLAIMED`]) or as a guess
    /// ([`GUESSING`]); false if it is no longer unknown.
    #[inline]
    pub(crate) fn claim(&self, cell: u32, state: u8) -> bool {
        let won = self.replace_unknown(cell, state);
        if won {
            self.count_known(cell);
        }
        won
    }

    /// Marks an unknown cell as a deduced mine; false if it was no longer unknown.
    #[inline]
    pub(crate) fn mark_mine(&self, cell: u32) -> bool {
        let won = self.replace_unknown(cell, MINE);
        if won {
            self.count_known(cell);
            self.count_mine(cell);
        }
        won
    }

    /// Records that a claimed (or unknown) cell turned out to be a mine.
    pub(crate) fn hit_mine(&self, cell: u32) {
        let before = self.swap(cell, MINE);
        if before != MINE {
            self.count_mine(cell);
        }
        if before == UNKNOWN {
            self.count_known(cell);
        }
    }

    /// Records an open cell's number unless it is open already; returns the state it had.
    #[inline]
    pub(crate) fn set_open(&self, cell: u32, number: u8) -> u8 {
        let now = self.state(cell);
        if is_open(now) {
            // Known already; its flags stay.
            return now;
        }
        let before = self.swap(cell, OPEN + number);
        if before == UNKNOWN {
            self.count_known(cell);
        }
        before & STATE_BITS
    }
}
