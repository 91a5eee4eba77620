//! The one unsafe module: the shared-memory object and its channel regions, futexes on
//! shared words, descriptors inherited from the judge, and read-only maps of map files. Everything else is safe Rust.
//!
//! A region's layout is the contest's (spec, "Process protocol"): u32 `pending`, `sleeping`,
//! `done`, `skip_when_reopen`, `do_not_expand`, u16 `row`, `column`, i32 `count`, then
//! `count` entries of three u16 (row, column, number).
#![allow(unsafe_code)]

use std::fs::File;
use std::marker::PhantomData;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicI32, AtomicU16, AtomicU32};
use std::time::Duration;

use memmap2::{Mmap, MmapMut, MmapOptions};
use nix::fcntl::OFlag;
use nix::sys::mman::{shm_open, shm_unlink};
use nix::sys::stat::Mode;

/// One revealed cell as a channel's region holds it: row, column, number.
pub type Entry = [u16; 3];

/// Channels a player may open.
pub const CHANNELS: usize = 1024;
/// Bytes of shared memory per channel.
pub const REGION_SIZE: usize = 256 * 1024;
/// Bytes of the whole shared-memory object.
pub const SHM_SIZE: usize = CHANNELS * REGION_SIZE;
/// Where a region's entries start.
const ENTRIES_OFFSET: usize = 28;
/// The most entries a region can hold.
pub const MAX_ENTRIES: usize = (REGION_SIZE - ENTRIES_OFFSET) / 6;

/// A mapped POSIX shared-memory object of `SHM_SIZE` bytes.
#[derive(Debug)]
pub struct SharedMemory {
    map: MmapMut,
    name: String,
}

impl SharedMemory {
    /// Creates (exclusively) and maps the object `name`, sized for all channels.
    pub fn create(name: &str) -> std::io::Result<Self> {
        let fd = shm_open(
            name,
            OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_RDWR,
            Mode::S_IRUSR | Mode::S_IWUSR,
        )?;
        let file = File::from(fd);
        if let Err(e) = file.set_len(SHM_SIZE as u64) {
            let _ = shm_unlink(name);
            return Err(e);
        }
        Self::map(file, name)
    }

    /// Maps the existing object `name`.
    pub fn open(name: &str) -> std::io::Result<Self> {
        let file = File::from(shm_open(name, OFlag::O_RDWR, Mode::empty())?);
        let size = file.metadata()?.len();
        if size < SHM_SIZE as u64 {
            return Err(std::io::Error::other(format!(
                "shared memory {name} has {size} bytes, fewer than {SHM_SIZE}"
            )));
        }
        Self::map(file, name)
    }

    fn map(file: File, name: &str) -> std::io::Result<Self> {
        // SAFETY: a shared mapping of a shared-memory object; other processes write to it, which
        // is why every access below goes through atomics or the documented entry protocol.
        let map = unsafe { MmapOptions::new().len(SHM_SIZE).map_mut(&file)? };
        Ok(Self {
            map,
            name: name.to_string(),
        })
    }

    /// Removes the object's name (mappings stay valid until dropped).
    pub fn unlink(name: &str) -> std::io::Result<()> {
        Ok(shm_unlink(name)?)
    }

    /// The object's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Channel `id`'s region. Panics if `id >= CHANNELS`.
    pub fn region(&self, id: usize) -> Region<'_> {
        assert!(id < CHANNELS, "channel {id} out of range");
        Region {
            // SAFETY: id < CHANNELS, so the region lies inside the SHM_SIZE-byte mapping.
            base: unsafe { self.map.as_ptr().add(id * REGION_SIZE) as *mut u8 },
            _memory: PhantomData,
        }
    }
}

/// One channel's region of the shared memory.
#[derive(Debug, Clone, Copy)]
pub struct Region<'a> {
    base: *mut u8,
    _memory: PhantomData<&'a SharedMemory>,
}

// SAFETY: a region is plain shared memory accessed through atomics (header) or under the
// pending/done hand-over (entries), which is exactly what crossing threads needs.
unsafe impl Send for Region<'_> {}
// SAFETY: as above.
unsafe impl Sync for Region<'_> {}

impl<'a> Region<'a> {
    fn word(&self, offset: usize) -> &'a AtomicU32 {
        // SAFETY: offset is one of the header's 4-aligned u32 fields inside the region, and the
        // mapping outlives 'a.
        unsafe { AtomicU32::from_ptr(self.base.add(offset).cast()) }
    }

    /// `pending`: set by the player to submit a click.
    pub fn pending(&self) -> &'a AtomicU32 {
        self.word(0)
    }

    /// `sleeping`: set by the server thread before it waits on `pending`.
    pub fn sleeping(&self) -> &'a AtomicU32 {
        self.word(4)
    }

    /// `done`: set by the server when the answer is ready.
    pub fn done(&self) -> &'a AtomicU32 {
        self.word(8)
    }

    /// `skip_when_reopen` flag of the request.
    pub fn skip_when_reopen(&self) -> &'a AtomicU32 {
        self.word(12)
    }

    /// `do_not_expand` flag of the request.
    pub fn do_not_expand(&self) -> &'a AtomicU32 {
        self.word(16)
    }

    /// The clicked row.
    pub fn row(&self) -> &'a AtomicU16 {
        // SAFETY: offset 20 is a 2-aligned u16 field inside the region.
        unsafe { AtomicU16::from_ptr(self.base.add(20).cast()) }
    }

    /// The clicked column.
    pub fn column(&self) -> &'a AtomicU16 {
        // SAFETY: offset 22 is a 2-aligned u16 field inside the region.
        unsafe { AtomicU16::from_ptr(self.base.add(22).cast()) }
    }

    /// The answer: -1 mine, -2 skipped safe cell, -3 skipped mine, else the entry count.
    pub fn count(&self) -> &'a AtomicI32 {
        // SAFETY: offset 24 is a 4-aligned i32 field inside the region.
        unsafe { AtomicI32::from_ptr(self.base.add(24).cast()) }
    }

    /// The first `len` entries (at most `MAX_ENTRIES`). Read them only between seeing
    /// `done == 1` and the next request, when the server does not write them.
    pub fn entries(&self, len: usize) -> &'a [Entry] {
        let len = len.min(MAX_ENTRIES);
        // SAFETY: entries start at a 2-aligned offset and `len` of them fit in the region;
        // `[u16; 3]` has no invalid bit patterns.
        unsafe { std::slice::from_raw_parts(self.base.add(ENTRIES_OFFSET).cast(), len) }
    }

    /// Writes `entries` (at most `MAX_ENTRIES`; the rest are dropped) before `done` is set.
    pub fn write_entries(&self, entries: &[Entry]) {
        let len = entries.len().min(MAX_ENTRIES);
        // SAFETY: the destination lies inside the region (len <= MAX_ENTRIES), the player
        // does not read it until `done` is stored with release ordering after this copy.
        unsafe {
            std::ptr::copy_nonoverlapping(
                entries.as_ptr(),
                self.base.add(ENTRIES_OFFSET).cast::<Entry>(),
                len,
            );
        }
    }
}

/// Sleeps while `word == expected`, at most `timeout` (a shared, not process-private,
/// futex, as the contest's processes use).
pub fn futex_wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    let spec = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: FUTEX_WAIT reads the aligned u32 behind `word` and the timespec; both outlive
    // the call.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &spec as *const libc::timespec,
            std::ptr::null::<u32>(),
            0,
        );
    }
}

/// Wakes every waiter on `word` (shared futex).
pub fn futex_wake(word: &AtomicU32) {
    // SAFETY: FUTEX_WAKE only uses the address of the aligned u32 behind `word`.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE,
            i32::MAX,
            std::ptr::null::<libc::timespec>(),
            std::ptr::null::<u32>(),
            0,
        );
    }
}

/// Maps a whole file read-only, populating the page tables up front (map files).
pub(crate) fn map_file(file: &File) -> std::io::Result<Mmap> {
    // SAFETY: the map is read-only and private to this process; ply never writes map files
    // in place (it writes a temporary file and renames it), so the bytes cannot change
    // under the map unless another program truncates the file, which the format forbids.
    unsafe { MmapOptions::new().populate().map(file) }
}

/// Takes ownership of descriptor `raw`, inherited from the parent, after checking it is open.
pub(crate) fn inherited_fd(raw: RawFd) -> std::io::Result<File> {
    // SAFETY: F_GETFD only inspects the descriptor table.
    if raw < 0 || unsafe { libc::fcntl(raw, libc::F_GETFD) } < 0 {
        return Err(std::io::Error::other(format!(
            "descriptor {raw} is not open"
        )));
    }
    // SAFETY: the descriptor is open and was handed to this process to own (by environment
    // variable); nothing else in the process uses it.
    Ok(unsafe { File::from_raw_fd(raw) })
}

/// Duplicates `fd` onto the lowest free descriptor >= `min`, close-on-exec.
pub(crate) fn dup_at_least(fd: &OwnedFd, min: RawFd) -> std::io::Result<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC creates a new descriptor or fails; no memory is involved.
    let raw = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, min) };
    if raw < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `raw` was just created by fcntl and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(raw) })
}

/// `len` zeroed atomic bytes from the allocator's zeroed pages (for large `len` the pages are
/// mapped lazily, so untouched parts of a 4 GiB board cost no memory).
///
/// # Panics
/// When the allocation fails (like `Vec` does).
pub(crate) fn zeroed_atomic_bytes(len: usize) -> Box<[std::sync::atomic::AtomicU8]> {
    use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
    use std::sync::atomic::AtomicU8;
    if len == 0 {
        return Box::new([]);
    }
    let layout = Layout::array::<AtomicU8>(len).expect("a byte array layout");
    // SAFETY: the layout is non-zero-sized; a zeroed byte is a valid `AtomicU8` (same size and
    // alignment as `u8`), and the slice owns exactly the allocation made with this layout.
    let bytes = unsafe {
        let ptr = alloc_zeroed(layout).cast::<AtomicU8>();
        if ptr.is_null() {
            handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
    };
    // A cell's three rows lie on three 4 KiB pages apart at N >= 4096, so with small pages
    // nearly every examination of a board of gigabytes misses the TLB; the pages are not
    // touched yet, so they are huge from the start.
    ply_search::advise_huge_pages(&bytes);
    bytes
}

/// Has the child started by `command` killed when the thread that starts it ends, so that a
/// judge killed outright (SIGKILL, which no handler sees) leaves no player or server behind.
pub(crate) fn die_with_parent(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    let parent = nix::unistd::getpid();
    // SAFETY: the closure runs in the child between fork and exec; it makes two system calls
    // (prctl, getppid), both async-signal-safe, and reads only a copied pid.
    unsafe {
        command.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)
                .map_err(std::io::Error::from)?;
            // A parent that died before the signal was armed sends none: do not start.
            if nix::unistd::getppid() != parent {
                return Err(std::io::Error::other("the judge is gone"));
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn regions_are_shared_between_mappings_and_the_name_goes_away() {
        let name = format!("/ply_mines_test_{}", std::process::id());
        let a = SharedMemory::create(&name).unwrap();
        assert!(
            SharedMemory::create(&name).is_err(),
            "creation is exclusive"
        );
        let b = SharedMemory::open(&name).unwrap();
        a.region(3).count().store(2, Ordering::Release);
        a.region(3).write_entries(&[[1, 2, 3], [4, 5, 6]]);
        a.region(1023).row().store(65535, Ordering::Release);
        assert_eq!(b.region(3).count().load(Ordering::Acquire), 2);
        assert_eq!(b.region(3).entries(2), &[[1, 2, 3], [4, 5, 6]]);
        assert_eq!(b.region(1023).row().load(Ordering::Acquire), 65535);
        assert_eq!(b.region(1022).row().load(Ordering::Acquire), 0);
        SharedMemory::unlink(&name).unwrap();
        assert!(SharedMemory::open(&name).is_err());
        assert_eq!(MAX_ENTRIES, 43_686);
    }
}
