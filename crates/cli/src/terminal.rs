//! What every terminal UI shares (ratatui): the terminal check, the key loop, and rendering
//! to text for tests.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Result, bail};
use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::Frame;

/// Fails unless both standard input and output are terminals, with room to draw in (a
/// terminal whose size was never set, as some containers' are, has 0 rows and columns, and
/// a screen drawn there would show nothing).
pub fn require_terminal(what: &str) -> Result<()> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!("{what} needs an interactive terminal");
    }
    let (cols, rows) = crossterm::terminal::size()?;
    if cols == 0 || rows == 0 {
        bail!(
            "{what} needs a terminal with rows and columns; this one is {cols} x {rows} (`stty rows 24 cols 80` sets them)"
        );
    }
    Ok(())
}

/// A full-screen view driven by key presses.
pub trait Screen {
    /// Draws the whole screen.
    fn draw_screen(&self, frame: &mut Frame<'_>);
    /// Handles a key press; returns whether to go on.
    fn key(&mut self, code: KeyCode) -> Result<bool>;
    /// Called about ten times a second while no key is pressed, for work that finishes in
    /// the background; returns whether the screen changed.
    fn tick(&mut self) -> bool {
        false
    }
}

/// Runs `screen` in the terminal until its key handler says stop; the terminal is restored
/// however it ends.
pub fn run_screen(what: &str, screen: &mut impl Screen) -> Result<()> {
    require_terminal(what)?;
    let mut terminal = ratatui::init();
    let result = (|| -> Result<()> {
        let mut dirty = true;
        loop {
            if dirty {
                terminal.draw(|f| screen.draw_screen(f))?;
            }
            if !event::poll(Duration::from_millis(100))? {
                dirty = screen.tick();
                continue;
            }
            dirty = true;
            if let Event::Key(key) = event::read()? {
                // The terminal is raw, so Ctrl-C arrives as a key: it quits like `q`.
                let interrupt =
                    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c');
                if key.kind == KeyEventKind::Press && (interrupt || !screen.key(key.code)?) {
                    return Ok(());
                }
            }
        }
    })();
    ratatui::restore();
    result
}

/// What `draw` puts on an 80 x 24 screen, as text (for tests).
#[cfg(test)]
pub fn render_text(draw: impl FnOnce(&mut Frame<'_>)) -> String {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).expect("test terminal");
    terminal.draw(draw).expect("draw");
    let buffer = terminal.backend().buffer().clone();
    (0..24)
        .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}
