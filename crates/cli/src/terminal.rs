//! What every terminal UI shares (ratatui): the terminal check, the key loop, and rendering
//! to text for tests.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Result, bail};
use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers, MouseEvent};
use ratatui::Frame;

/// Fails unless both standard input and output are terminals, with room to draw in (a
/// terminal whose size was never set, as some containers' are, has 0 rows and columns, and
/// a screen drawn there would show nothing).
pub(crate) fn require_terminal(what: &str) -> Result<()> {
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
pub(crate) trait Screen {
    /// Draws the whole screen.
    fn draw_screen(&self, frame: &mut Frame<'_>);
    /// The columns and rows the screen needs to show all it holds; a smaller terminal is
    /// asked to grow instead of showing a screen cut short ([`draw`]).
    fn needs(&self) -> (u16, u16);
    /// Handles a key press; returns whether to go on.
    fn key(&mut self, code: KeyCode) -> Result<bool>;
    /// Called about ten times a second while no key is pressed, for work that finishes in
    /// the background; returns whether the screen changed.
    fn tick(&mut self) -> bool {
        false
    }
    /// Whether the screen takes the mouse ([`Screen::mouse`]); the terminal then reports
    /// clicks instead of selecting text.
    fn wants_mouse(&self) -> bool {
        false
    }
    /// Handles a mouse event (only asked for when [`Screen::wants_mouse`]).
    fn mouse(&mut self, event: MouseEvent) -> Result<()> {
        let _ = event;
        Ok(())
    }
}

/// Runs `screen` in the terminal until its key handler says stop; the terminal is restored
/// however it ends.
pub(crate) fn run_screen(what: &str, screen: &mut impl Screen) -> Result<()> {
    require_terminal(what)?;
    let mut terminal = ratatui::init();
    let mouse = screen.wants_mouse();
    if mouse {
        crossterm::execute!(std::io::stdout(), event::EnableMouseCapture)?;
    }
    let result = (|| -> Result<()> {
        let mut dirty = true;
        loop {
            if dirty {
                terminal.draw(|f| draw(screen, f))?;
            }
            if !event::poll(Duration::from_millis(100))? {
                dirty = screen.tick();
                continue;
            }
            dirty = true;
            match event::read()? {
                Event::Key(key) => {
                    // The terminal is raw, so Ctrl-C arrives as a key: it quits like `q`.
                    let interrupt = key.modifiers.contains(KeyModifiers::CONTROL)
                        && key.code == KeyCode::Char('c');
                    if key.kind == KeyEventKind::Press && (interrupt || !screen.key(key.code)?) {
                        return Ok(());
                    }
                }
                Event::Mouse(click) if mouse => screen.mouse(click)?,
                _ => {}
            }
        }
    })();
    if mouse {
        // Given back before the terminal is restored, whatever ended the loop.
        let _ = crossterm::execute!(std::io::stdout(), event::DisableMouseCapture);
    }
    ratatui::restore();
    result
}

/// Draws `screen`, or on a terminal too small for it what it needs: a screen cut short
/// would hide part of the game without saying so.
pub(crate) fn draw(screen: &impl Screen, frame: &mut Frame<'_>) {
    let area = frame.area();
    let (cols, rows) = screen.needs();
    if area.width >= cols && area.height >= rows {
        screen.draw_screen(frame);
        return;
    }
    let text = format!(
        "This screen needs {cols} x {rows}; the terminal is {} x {}. Make it larger, or \
         press q to quit.",
        area.width, area.height
    );
    frame.render_widget(
        ratatui::widgets::Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
        area,
    );
}

/// What `draw` puts on an 80 x 24 screen, as text (for tests).
#[cfg(test)]
pub(crate) fn render_text(draw: impl FnOnce(&mut Frame<'_>)) -> String {
    render_sized(80, 24, draw)
}

/// What `draw` puts on a screen of `cols` x `rows`, as text (for tests).
#[cfg(test)]
pub(crate) fn render_sized(cols: u16, rows: u16, draw: impl FnOnce(&mut Frame<'_>)) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(cols, rows))
        .expect("test terminal");
    terminal.draw(draw).expect("draw");
    let buffer = terminal.backend().buffer().clone();
    (0..rows)
        .map(|y| {
            (0..cols)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Screen, draw, render_sized};
    use crossterm::event::KeyCode;
    use ratatui::Frame;

    /// A screen that fills what it is given with `#` and needs 30 x 10.
    struct Filled;

    impl Screen for Filled {
        fn draw_screen(&self, frame: &mut Frame<'_>) {
            let area = frame.area();
            let text = "#".repeat(usize::from(area.width));
            frame.render_widget(ratatui::widgets::Paragraph::new(text), area);
        }
        fn key(&mut self, _: KeyCode) -> anyhow::Result<bool> {
            Ok(true)
        }
        fn needs(&self) -> (u16, u16) {
            (30, 10)
        }
    }

    #[test]
    fn a_terminal_too_small_is_told_what_the_screen_needs() {
        let small = render_sized(24, 6, |f| draw(&Filled, f));
        assert!(!small.contains('#'), "{small}");
        let words: String = small.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains("This screen needs 30 x 10; the terminal is 24 x 6."),
            "{small}"
        );
        assert!(words.contains("press q to quit"), "{small}");
        let enough = render_sized(30, 10, |f| draw(&Filled, f));
        assert!(enough.starts_with(&"#".repeat(30)), "{enough}");
    }
}
