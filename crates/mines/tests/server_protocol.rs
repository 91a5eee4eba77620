//! The game server through the real protocol (shared memory, futexes, pipes), in process:
//! its answers against a straightforward model, its counts, and every error path.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use nix::fcntl::OFlag;
use nix::unistd::pipe2;
use ply_mines::Counts;
use ply_mines::MinesError;
use ply_mines::protocol::SharedMemory;
use ply_mines::protocol::{self, Report};
use ply_mines::{ClickResult, Session};
use ply_mines::{MineMap, write_map};
use ply_mines::{ServerSetup, serve};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A server running in a thread, with the judge's ends of its pipes.
struct Harness {
    shm: String,
    to_server: File,
    from_server: File,
    player: Option<(File, File)>,
    progress: std::io::BufReader<File>,
    server: Option<JoinHandle<Result<Counts, MinesError>>>,
    _memory: SharedMemory,
    map_path: std::path::PathBuf,
}

fn pipe() -> (File, File) {
    let (r, w) = pipe2(OFlag::O_CLOEXEC).expect("pipe");
    (File::from(r), File::from(w))
}

impl Harness {
    fn start(tag: &str, mines: &[(u32, u32)], n: u32) -> Self {
        let map = MineMap::from_mines(n, mines).unwrap();
        let map_path =
            std::env::temp_dir().join(format!("ply-mines-proto-{}-{tag}.map", std::process::id()));
        write_map(&map_path, n, map.k(), map.bits(), true).unwrap();
        let shm = format!("/ply_mines_proto_{}_{tag}", std::process::id());
        let memory = SharedMemory::create(&shm).unwrap();
        let (gs_from_pl, pl_to_gs) = pipe();
        let (pl_from_gs, gs_to_pl) = pipe();
        let (ju_from_gs, gs_to_ju) = pipe();
        let (gs_from_ju, ju_to_gs) = pipe();
        let (ju_progress, gs_progress) = pipe();
        let setup = ServerSetup {
            map: map_path.clone(),
            shm: shm.clone(),
            to_player: gs_to_pl,
            from_player: gs_from_pl,
            to_judge: gs_to_ju,
            from_judge: gs_from_ju,
            progress: Some(gs_progress),
        };
        let server = std::thread::spawn(move || serve(setup));
        Self {
            shm,
            to_server: ju_to_gs,
            from_server: ju_from_gs,
            player: Some((pl_to_gs, pl_from_gs)),
            progress: std::io::BufReader::new(ju_progress),
            server: Some(server),
            _memory: memory,
            map_path,
        }
    }

    fn session(&mut self) -> Session {
        let (to, from) = self.player.take().expect("one session");
        Session::from_parts(&self.shm, to, from, 8).unwrap()
    }

    /// The judge's view: an error message from the server, if one arrives within `wait`.
    fn error(&mut self, wait: Duration) -> Option<String> {
        if protocol::readable(&self.from_server, wait).unwrap() {
            protocol::receive(&mut self.from_server).unwrap()
        } else {
            None
        }
    }

    /// Reads the server's progress lines until one says `want` (safe, mines).
    fn progress_reaches(&mut self, want: (u64, u64)) {
        let mut seen = Vec::new();
        loop {
            if self.progress.buffer().is_empty() {
                let ready = protocol::readable(self.progress.get_ref(), Duration::from_secs(60));
                assert!(ready.unwrap(), "no progress after {seen:?}, never {want:?}");
            }
            let mut line = String::new();
            let read = std::io::BufRead::read_line(&mut self.progress, &mut line).unwrap();
            assert!(read > 0, "progress ended at {seen:?}, never {want:?}");
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            if numbers == [want.0, want.1] {
                return;
            }
            seen.push(numbers);
        }
    }

    fn finish(mut self) -> (Report, Counts) {
        protocol::send(&mut self.to_server, "F").unwrap();
        let counts = self.server.take().unwrap().join().unwrap().unwrap();
        let text = protocol::receive(&mut self.from_server).unwrap().unwrap();
        (Report::decode(&text).expect("a report"), counts)
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _ = SharedMemory::unlink(&self.shm);
        let _ = std::fs::remove_file(&self.map_path);
    }
}

/// The model: a plain flood fill over a grid, with its own opened set.
struct Model {
    n: i64,
    mine: Vec<bool>,
    opened: BTreeSet<(i64, i64)>,
}

impl Model {
    fn new(n: u32, mines: &[(u32, u32)]) -> Self {
        let n = i64::from(n);
        let mut mine = vec![false; (n * n) as usize];
        for &(r, c) in mines {
            mine[(i64::from(r) * n + i64::from(c)) as usize] = true;
        }
        Self {
            n,
            mine,
            opened: BTreeSet::new(),
        }
    }

    fn is_mine(&self, r: i64, c: i64) -> bool {
        r >= 0 && c >= 0 && r < self.n && c < self.n && self.mine[(r * self.n + c) as usize]
    }

    fn number(&self, r: i64, c: i64) -> u16 {
        let mut count = 0;
        for dr in -1..=1 {
            for dc in -1..=1 {
                count += u16::from((dr, dc) != (0, 0) && self.is_mine(r + dr, c + dc));
            }
        }
        count
    }

    /// Expected answer: Err(mine) for mines/skips as (skipped, mine), Ok(sorted cells).
    fn click(&mut self, r: i64, c: i64, skip: bool, dne: bool) -> Expected {
        if !dne && skip && self.opened.contains(&(r, c)) {
            return Expected::Skipped(self.is_mine(r, c));
        }
        if self.is_mine(r, c) {
            self.opened.insert((r, c));
            return Expected::Mine;
        }
        let mut cells = BTreeSet::new();
        let mut stack = vec![(r, c)];
        cells.insert((r, c));
        while let Some((r, c)) = stack.pop() {
            if dne || self.number(r, c) != 0 {
                continue;
            }
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (nr, nc) = (r + dr, c + dc);
                    if nr >= 0 && nc >= 0 && nr < self.n && nc < self.n && cells.insert((nr, nc)) {
                        stack.push((nr, nc));
                    }
                }
            }
        }
        self.opened.extend(cells.iter().copied());
        Expected::Cells(
            cells
                .into_iter()
                .map(|(r, c)| [r as u16, c as u16, self.number(r, c)])
                .collect(),
        )
    }

    fn counts(&self) -> (u64, u64) {
        let mines = self
            .opened
            .iter()
            .filter(|&&(r, c)| self.is_mine(r, c))
            .count() as u64;
        (self.opened.len() as u64 - mines, mines)
    }
}

#[derive(Debug, PartialEq)]
enum Expected {
    Mine,
    Skipped(bool),
    Cells(BTreeSet<[u16; 3]>),
}

fn random_mines(n: u32, count: usize, rng: &mut ChaCha8Rng) -> Vec<(u32, u32)> {
    let mut set = BTreeSet::new();
    while set.len() < count {
        set.insert((rng.random_range(0..n), rng.random_range(0..n)));
    }
    set.into_iter().collect()
}

#[test]
fn answers_and_counts_match_the_model_on_two_channels() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (case, (n, count)) in [(16, 32), (32, 128), (64, 130), (64, 512)]
        .into_iter()
        .enumerate()
    {
        let mines = random_mines(n, count, &mut rng);
        let mut harness = Harness::start(&format!("model{case}"), &mines, n);
        let session = harness.session();
        assert_eq!(
            (session.n(), session.k(), session.constant_a()),
            (n, count as u64, 8)
        );
        let mut channels = [session.channel().unwrap(), session.channel().unwrap()];
        assert_eq!((channels[0].id(), channels[1].id()), (0, 1));
        let mut model = Model::new(n, &mines);
        for step in 0..600 {
            let (r, c) = (rng.random_range(0..n), rng.random_range(0..n));
            let (skip, dne) = (rng.random_bool(0.5), rng.random_bool(0.3));
            let channel = &mut channels[step % 2];
            let got = if dne {
                channel.click_do_not_expand(r, c)
            } else {
                channel.click(r, c, skip)
            }
            .unwrap();
            let got = match got {
                ClickResult::Mine => Expected::Mine,
                ClickResult::Skipped { mine } => Expected::Skipped(mine),
                ClickResult::Opened(cells) => {
                    assert_eq!(
                        [cells[0][0], cells[0][1]],
                        [r as u16, c as u16],
                        "clicked cell first"
                    );
                    let set: BTreeSet<_> = cells.iter().copied().collect();
                    assert_eq!(set.len(), cells.len(), "no cell twice in one answer");
                    Expected::Cells(set)
                }
            };
            let want = model.click(r.into(), c.into(), skip, dne);
            assert_eq!(
                got, want,
                "n {n}, click {step} at ({r}, {c}) skip {skip} dne {dne}"
            );
        }
        drop(session);
        assert_eq!(harness.error(Duration::from_millis(10)), None);
        // The progress the server reports for a judge's bar comes to the same counts.
        harness.progress_reaches(model.counts());
        let (report, counts) = harness.finish();
        assert_eq!((report.safe, report.mines), model.counts());
        assert_eq!((counts.safe, counts.mines), model.counts());
        assert_eq!((report.n, report.k), (u64::from(n), count as u64));
    }
}

#[test]
fn an_off_board_click_is_answered_and_reported() {
    let mut harness = Harness::start("offboard", &[(1, 1)], 16);
    let session = harness.session();
    let mut channel = session.channel().unwrap();
    assert!(
        channel.click(16, 0, false).is_err(),
        "the client refuses it itself"
    );
    // Write the request by hand, as a player without the library could.
    let memory = SharedMemory::open(&harness.shm).unwrap();
    let region = memory.region(0);
    region.row().store(600, Ordering::Relaxed);
    region.column().store(3, Ordering::Relaxed);
    region.done().store(0, Ordering::Relaxed);
    region.pending().store(1, Ordering::SeqCst);
    ply_mines::protocol::futex_wake(region.pending());
    let start = std::time::Instant::now();
    while region.done().load(Ordering::Acquire) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the server answers"
        );
        std::hint::spin_loop();
    }
    assert_eq!(region.count().load(Ordering::Acquire), 0);
    let error = harness
        .error(Duration::from_secs(10))
        .expect("an error for the judge");
    assert!(
        error.contains("channel 0: click (600, 3) is off the 16 x 16 board"),
        "{error}"
    );
    // The server still answers good clicks and still reports its counts.
    assert_eq!(
        channel.click_do_not_expand(1, 1).unwrap(),
        ClickResult::Mine
    );
    let (report, _) = harness.finish();
    assert_eq!((report.safe, report.mines), (0, 1));
}

#[test]
fn an_opening_too_large_for_a_region_is_an_error_not_an_overflow() {
    // 256 x 256 with one mine: clicking a zero would open 65,535 cells (> 43,686).
    let mut harness = Harness::start("huge", &[(100, 100)], 256);
    let session = harness.session();
    let mut channel = session.channel().unwrap();
    let err = channel.click(0, 0, false).unwrap_err().to_string();
    assert!(err.contains("count 0"), "{err}");
    let error = harness.error(Duration::from_secs(10)).expect("reported");
    assert!(error.contains("more than 43686 cells"), "{error}");
    // Nothing was opened by the refused click; a number still opens alone.
    match channel.click(99, 99, false).unwrap() {
        ClickResult::Opened(cells) => assert_eq!(cells, &[[99, 99, 1]]),
        other => panic!("{other:?}"),
    }
    let (report, _) = harness.finish();
    assert_eq!((report.safe, report.mines), (1, 0));
}

#[test]
fn too_many_channels_are_reported_and_the_server_survives() {
    let mut harness = Harness::start("garbage", &[(0, 0)], 16);
    let (mut to, mut from) = harness.player.take().unwrap();
    assert!(
        protocol::receive(&mut from)
            .unwrap()
            .unwrap()
            .starts_with("16 1")
    );
    to.write_all(&[b'C'; 1025]).unwrap();
    let mut ids = String::new();
    while !ids.contains("1023\0") {
        let mut buf = [0u8; 4096];
        let got = std::io::Read::read(&mut from, &mut buf).unwrap();
        assert!(got > 0);
        ids.push_str(&String::from_utf8_lossy(&buf[..got]));
    }
    let ids: Vec<usize> = ids.split('\0').filter_map(|s| s.parse().ok()).collect();
    assert_eq!(ids, (0..1024).collect::<Vec<_>>());
    let error = harness.error(Duration::from_secs(10)).expect("reported");
    assert!(error.contains("more than 1024 channels"), "{error}");
    // Garbage after that is ignored (the judge ends the game on the first error).
    to.write_all(b"x").unwrap();
    assert_eq!(harness.error(Duration::from_millis(100)), None);
    // The player goes away mid-game; the judge still gets the counts.
    drop(to);
    drop(from);
    let (report, _) = harness.finish();
    assert_eq!((report.n, report.safe, report.mines), (16, 0, 0));
}

#[test]
fn garbage_on_the_players_pipe_is_reported() {
    let mut harness = Harness::start("bytes", &[(0, 0)], 16);
    let (mut to, mut from) = harness.player.take().unwrap();
    assert!(protocol::receive(&mut from).unwrap().is_some());
    to.write_all(b"x").unwrap();
    let error = harness.error(Duration::from_secs(10)).expect("reported");
    assert!(error.contains("byte 0x78"), "{error}");
    let (report, _) = harness.finish();
    assert_eq!((report.safe, report.mines), (0, 0));
}
