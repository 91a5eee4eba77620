//! `ply` on a pseudo-terminal, the way a user meets its terminal UIs: keys go in as bytes, and
//! the screen is what a VT100 emulator makes of the output.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, ExitStatus, MasterPty, PtySize, native_pty_system};

/// How long any one wait may take: generous, since a test asserts what happens, not how fast.
const PATIENCE: Duration = Duration::from_secs(120);

/// A `ply` process on its own pseudo-terminal.
pub(crate) struct Tty {
    child: Box<dyn Child + Send + Sync>,
    keys: Box<dyn Write + Send>,
    parser: Arc<Mutex<vt100::Parser>>,
    /// Every byte the program wrote, as it came.
    raw: Arc<Mutex<Vec<u8>>>,
    /// Set once all of the program's output has been read.
    drained: Arc<AtomicBool>,
    _master: Box<dyn MasterPty + Send>,
}

impl Tty {
    /// Starts `ply args` on a `cols` x `rows` terminal, in the current directory.
    pub(crate) fn spawn(args: &[&str], cols: u16, rows: u16) -> Tty {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pseudo-terminal");
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_ply"));
        command.args(args);
        command.cwd(std::env::current_dir().expect("current directory"));
        command.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(command).expect("ply starts");
        drop(pair.slave);
        // The emulator needs a screen, even for a terminal of none: it then reads the output
        // as a terminal of the usual size would show it.
        let (screen_rows, screen_cols) = if rows == 0 || cols == 0 {
            (24, 80)
        } else {
            (rows, cols)
        };
        let parser = Arc::new(Mutex::new(vt100::Parser::new(screen_rows, screen_cols, 0)));
        let mut output = pair.master.try_clone_reader().expect("terminal output");
        let screen = Arc::clone(&parser);
        let raw = Arc::new(Mutex::new(Vec::new()));
        let written = Arc::clone(&raw);
        let drained = Arc::new(AtomicBool::new(false));
        let done = Arc::clone(&drained);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = output.read(&mut buf) {
                screen.lock().expect("screen").process(&buf[..n]);
                written.lock().expect("output").extend_from_slice(&buf[..n]);
            }
            done.store(true, Ordering::Release);
        });
        let keys = pair.master.take_writer().expect("terminal input");
        Tty {
            child,
            keys,
            parser,
            raw,
            drained,
            _master: pair.master,
        }
    }

    /// Types `bytes` (a key press each, as a terminal sends them).
    pub(crate) fn keys(&mut self, bytes: &str) {
        self.keys.write_all(bytes.as_bytes()).expect("send keys");
        self.keys.flush().expect("send keys");
    }

    /// The screen's text now.
    pub(crate) fn screen(&self) -> String {
        self.parser.lock().expect("screen").screen().contents()
    }

    /// The lines the program printed, as a terminal that never wraps would show them: escape
    /// sequences dropped, and of a line redrawn after a carriage return (a progress bar) only
    /// its last state.
    pub(crate) fn printed_lines(&self) -> Vec<String> {
        let raw = self.raw.lock().expect("output");
        let text = String::from_utf8_lossy(&raw);
        let mut plain = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                // CSI: ESC [ parameters, ending in a letter; other escapes are two characters.
                if chars.next_if_eq(&'[').is_some() {
                    for c in chars.by_ref() {
                        if c.is_ascii_alphabetic() || c == '~' {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            } else {
                plain.push(c);
            }
        }
        plain
            .split('\n')
            .map(|line| {
                let line = line.strip_suffix('\r').unwrap_or(line);
                line.rsplit('\r').next().unwrap_or("").to_string()
            })
            .collect()
    }

    /// Whether the program shows its alternate (full-screen) screen.
    pub(crate) fn full_screen(&self) -> bool {
        self.parser
            .lock()
            .expect("screen")
            .screen()
            .alternate_screen()
    }

    /// Waits until the screen satisfies `ok` and returns it; panics with the screen if it
    /// never does (the program ended, or took minutes).
    pub(crate) fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let ended = self.drained.load(Ordering::Acquire);
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                !ended && start.elapsed() < PATIENCE,
                "the screen never showed {what}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the process to end; kills it and panics if it does not.
    pub(crate) fn wait_exit(&mut self) -> ExitStatus {
        self.wait_exit_within(PATIENCE)
    }

    /// [`Tty::wait_exit`] for a program that runs for minutes of its own (the whole demo), on
    /// a machine that may be busy with other work: up to `patience`.
    pub(crate) fn wait_exit_within(&mut self, patience: Duration) -> ExitStatus {
        let start = Instant::now();
        loop {
            if self.drained.load(Ordering::Acquire)
                && let Some(status) = self.child.try_wait().expect("wait for ply")
            {
                return status;
            }
            if start.elapsed() > patience {
                let _ = self.child.kill();
                panic!("ply did not end; its screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Tty {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
