//! `ply mines play`: Minesweeper by hand over a viewport of a board of any size, as a player
//! under a judge (or with `--local`, under ply's own judge and server).

use super::args::PlayArgs;
use crate::terminal::{Screen, run_screen};
use anyhow::{Context, Result};
use crossterm::event::KeyCode;
use ply_mines::protocol::Entry;
use ply_mines::{Click, Expander, Game, MineMap};
use ply_mines::{ClickResult, Session};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::Cell;

/// What a click revealed, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Revealed {
    /// A mine.
    Mine,
    /// Already open (nothing new).
    Skipped,
    /// Safe cells with their numbers.
    Cells(Vec<Entry>),
}

/// Something that clicks cells: a channel to a server, or a game in tests.
pub(super) trait Clicker {
    /// Clicks (r, c), expanding zeros.
    fn click(&mut self, r: u32, c: u32) -> Result<Revealed>;
}

impl Clicker for ply_mines::Channel<'_> {
    fn click(&mut self, r: u32, c: u32) -> Result<Revealed> {
        Ok(match ply_mines::Channel::click(self, r, c, true)? {
            ClickResult::Mine => Revealed::Mine,
            ClickResult::Skipped { .. } => Revealed::Skipped,
            ClickResult::Opened(cells) => Revealed::Cells(cells.to_vec()),
        })
    }
}

/// What the player knows of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Known {
    Number(u8),
    Mine,
}

/// The game as the player sees it: known cells (sparse, so any board size fits), flags, the
/// cursor and the viewport.
pub(super) struct MinesScreen<C: Clicker> {
    clicker: C,
    n: u32,
    k: u64,
    known: FxHashMap<(u32, u32), Known>,
    flags: FxHashSet<(u32, u32)>,
    safe: u64,
    mines: u64,
    cursor: (u32, u32),
    origin: Cell<(u32, u32)>,
    view: Cell<(u32, u32)>,
    jump: Option<String>,
    message: String,
}

impl<C: Clicker> MinesScreen<C> {
    /// A fresh view of an `n x n` board with `k` mines.
    pub(super) fn new(clicker: C, n: u32, k: u64) -> Self {
        Self {
            clicker,
            n,
            k,
            known: FxHashMap::default(),
            flags: FxHashSet::default(),
            safe: 0,
            mines: 0,
            cursor: (n / 2, n / 2),
            origin: Cell::new((0, 0)),
            view: Cell::new((20, 38)),
            jump: None,
            message: "arrows/hjkl move, space click, f flag, g go to, q quit".into(),
        }
    }

    /// Safe cells and mines opened so far.
    pub(super) fn counts(&self) -> (u64, u64) {
        (self.safe, self.mines)
    }

    /// Clicks the cursor's cell.
    fn click(&mut self) -> Result<()> {
        let (r, c) = self.cursor;
        if self.flags.contains(&(r, c)) {
            self.message = format!("({r}, {c}) is flagged; f removes the flag");
            return Ok(());
        }
        match self.clicker.click(r, c)? {
            Revealed::Mine => {
                if self.known.insert((r, c), Known::Mine).is_none() {
                    self.mines += 1;
                }
                self.message = format!("BOOM: ({r}, {c}) is a mine");
            }
            Revealed::Skipped => self.message = format!("({r}, {c}) is already open"),
            Revealed::Cells(cells) => {
                let mut new = 0;
                for [cr, cc, number] in cells {
                    let key = (u32::from(cr), u32::from(cc));
                    if self
                        .known
                        .insert(key, Known::Number(number as u8))
                        .is_none()
                    {
                        new += 1;
                        self.flags.remove(&key);
                    }
                }
                self.safe += new;
                self.message = format!("opened {new} cells");
            }
        }
        Ok(())
    }

    fn step(&mut self, dr: i64, dc: i64) {
        let clamp = |v: i64| v.clamp(0, i64::from(self.n) - 1) as u32;
        self.cursor = (
            clamp(i64::from(self.cursor.0) + dr),
            clamp(i64::from(self.cursor.1) + dc),
        );
    }

    fn jump_key(&mut self, code: KeyCode) {
        let Some(text) = self.jump.as_mut() else {
            return;
        };
        match code {
            KeyCode::Char(ch) if ch.is_ascii_digit() || ch == ' ' || ch == ',' => text.push(ch),
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Enter => {
                let numbers: Vec<u32> = text
                    .split([' ', ','])
                    .filter_map(|w| w.parse().ok())
                    .collect();
                match numbers[..] {
                    [r, c] if r < self.n && c < self.n => {
                        self.cursor = (r, c);
                        self.message = format!("at ({r}, {c})");
                    }
                    _ => self.message = format!("no cell {text:?} on the {0} x {0} board", self.n),
                }
                self.jump = None;
            }
            KeyCode::Esc => self.jump = None,
            _ => {}
        }
    }

    /// Centres the viewport of `rows` x `cols` cells (at most the board's) on the cursor,
    /// clamped at the board's edges.
    fn follow(&self, rows: u32, cols: u32) {
        let (r, c) = self.cursor;
        let centre = |at: u32, span: u32| at.saturating_sub(span / 2).min(self.n - span);
        self.origin.set((centre(r, rows), centre(c, cols)));
        self.view.set((rows, cols));
    }

    fn cell_span(&self, r: u32, c: u32) -> Span<'static> {
        let (text, style) = match self.known.get(&(r, c)) {
            Some(Known::Mine) => ("*", Style::default().fg(Color::White).bg(Color::Red)),
            Some(Known::Number(0)) => (" ", Style::default()),
            Some(Known::Number(d)) => {
                let color = match d {
                    1 => Color::Blue,
                    2 => Color::Green,
                    3 => Color::Red,
                    4 => Color::Magenta,
                    _ => Color::Yellow,
                };
                (
                    ["0", "1", "2", "3", "4", "5", "6", "7", "8"][usize::from(*d).min(8)],
                    Style::default().fg(color).add_modifier(Modifier::BOLD),
                )
            }
            None if self.flags.contains(&(r, c)) => ("F", Style::default().fg(Color::Red)),
            None => ("·", Style::default().fg(Color::DarkGray)),
        };
        let style = if (r, c) == self.cursor {
            style.add_modifier(Modifier::REVERSED)
        } else {
            style
        };
        Span::styled(format!("{text} "), style)
    }
}

impl<C: Clicker> Screen for MinesScreen<C> {
    /// A board of any size scrolls in whatever is left above the two status lines: three
    /// rows of cells at least, and room for the status line's counts.
    fn needs(&self) -> (u16, u16) {
        (48, 7)
    }

    fn draw_screen(&self, frame: &mut Frame<'_>) {
        let [board, status] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(2)]).areas(frame.area());
        let rows = u32::from(board.height.saturating_sub(2)).clamp(1, self.n);
        let cols = u32::from(board.width.saturating_sub(2) / 2).clamp(1, self.n);
        self.follow(rows, cols);
        let (top, left) = self.origin.get();
        let lines: Vec<Line<'_>> = (top..(top + rows).min(self.n))
            .map(|r| {
                Line::from(
                    (left..(left + cols).min(self.n))
                        .map(|c| self.cell_span(r, c))
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let title = format!(
            " {0} x {0}, rows {top}-{1}, columns {left}-{2} ",
            self.n,
            (top + rows).min(self.n) - 1,
            (left + cols).min(self.n) - 1
        );
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(title)),
            board,
        );
        let (r, c) = self.cursor;
        let first = format!(
            "({r}, {c})  opened {}/{}  mines hit {}  flags {}",
            self.safe,
            u64::from(self.n) * u64::from(self.n) - self.k,
            self.mines,
            self.flags.len()
        );
        let second = match &self.jump {
            Some(text) => format!("go to (row col): {text}_"),
            None => self.message.clone(),
        };
        frame.render_widget(
            Paragraph::new(vec![Line::from(first), Line::from(second)]),
            status,
        );
    }

    fn key(&mut self, code: KeyCode) -> Result<bool> {
        if self.jump.is_some() {
            self.jump_key(code);
            return Ok(true);
        }
        let (rows, cols) = self.view.get();
        match code {
            KeyCode::Up | KeyCode::Char('k') => self.step(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => self.step(1, 0),
            KeyCode::Left | KeyCode::Char('h') => self.step(0, -1),
            KeyCode::Right | KeyCode::Char('l') => self.step(0, 1),
            KeyCode::PageUp => self.step(-i64::from(rows), 0),
            KeyCode::PageDown => self.step(i64::from(rows), 0),
            KeyCode::Home => self.step(0, -i64::from(cols)),
            KeyCode::End => self.step(0, i64::from(cols)),
            KeyCode::Char(' ') | KeyCode::Enter => self.click()?,
            KeyCode::Char('f') => {
                let at = self.cursor;
                if self.known.contains_key(&at) {
                    self.message = "only closed cells take flags".into();
                } else if !self.flags.remove(&at) {
                    self.flags.insert(at);
                }
            }
            KeyCode::Char('g') => self.jump = Some(String::new()),
            KeyCode::Char('q') | KeyCode::Esc => return Ok(false),
            _ => {}
        }
        Ok(true)
    }
}

/// A game played in this process, without a server: `--local` play.
pub(super) struct Local(Game, Expander);

impl Clicker for Local {
    fn click(&mut self, r: u32, c: u32) -> Result<Revealed> {
        let mut out = Vec::new();
        let click = self.0.click(
            r as u16,
            c as u16,
            true,
            false,
            &mut self.1,
            &mut out,
            usize::MAX,
        );
        Ok(match click.expect("uncapped") {
            Click::Mine => Revealed::Mine,
            Click::Skipped { .. } => Revealed::Skipped,
            Click::Opened(_) => Revealed::Cells(out),
        })
    }
}

/// Runs `ply mines play`.
pub(super) fn play(args: &PlayArgs) -> Result<()> {
    if let Some(map) = &args.local {
        // The game runs in this process, which keeps the terminal: no judge, server or
        // player process stands between the keys and the board.
        let map = MineMap::open(map)?;
        let (n, k) = (map.n(), map.k());
        let mut screen = MinesScreen::new(Local(Game::new(map), Expander::default()), n, k);
        run_screen("ply mines play", &mut screen)?;
        let (safe, mines) = screen.counts();
        let score = ply_mines::score(u64::from(n), k, safe, mines, args.constant_a);
        outln!(
            "opened {safe} safe cells, hit {mines} mines: score {score:.3} (A = {})",
            args.constant_a
        )?;
        return Ok(());
    }
    let session =
        Session::connect().context("ply mines play (run it under a judge, or use --local MAP)")?;
    let channel = session.channel()?;
    let mut screen = MinesScreen::new(channel, session.n(), session.k());
    run_screen("ply mines play", &mut screen)?;
    let (safe, mines) = screen.counts();
    errln!("play: opened {safe} safe cells, hit {mines} mines");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terminal::render_text;

    #[test]
    fn clicking_flagging_jumping_and_scrolling() {
        let map = MineMap::from_mines(64, &[(10, 10), (40, 40)]).unwrap();
        let mut screen = MinesScreen::new(Local(Game::new(map), Expander::default()), 64, 2);
        screen.key(KeyCode::Char('g')).unwrap();
        for ch in "10 10".chars() {
            screen.key(KeyCode::Char(ch)).unwrap();
        }
        screen.key(KeyCode::Enter).unwrap();
        screen.key(KeyCode::Char(' ')).unwrap();
        assert_eq!(screen.counts(), (0, 1));
        screen.key(KeyCode::Right).unwrap();
        screen.key(KeyCode::Char('f')).unwrap();
        screen.key(KeyCode::Char(' ')).unwrap();
        assert_eq!(screen.counts(), (0, 1), "a flagged cell is not clicked");
        screen.key(KeyCode::Char('f')).unwrap();
        screen.key(KeyCode::Right).unwrap();
        screen.key(KeyCode::Right).unwrap();
        screen.key(KeyCode::Char(' ')).unwrap();
        // (10, 13) is a zero: the whole board but the mines and nothing else opens.
        assert_eq!(screen.counts(), (64 * 64 - 2, 1));
        let text = render_text(|f| screen.draw_screen(f));
        assert!(text.contains("opened 4094/4094"), "{text}");
        assert!(text.contains('*'), "{text}");
        screen.key(KeyCode::PageDown).unwrap();
        screen.key(KeyCode::PageDown).unwrap();
        let text = render_text(|f| screen.draw_screen(f));
        assert!(text.contains("(50, 13)"), "{text}");
        assert!(!screen.key(KeyCode::Char('q')).unwrap());
    }

    #[test]
    fn the_viewport_is_centred_on_the_cursor_and_clamped_at_the_edges() {
        let map = MineMap::from_mines(64, &[(10, 10)]).unwrap();
        let mut screen = MinesScreen::new(Local(Game::new(map), Expander::default()), 64, 1);
        let go = |screen: &mut MinesScreen<Local>, at: &str| {
            screen.key(KeyCode::Char('g')).unwrap();
            for ch in at.chars() {
                screen.key(KeyCode::Char(ch)).unwrap();
            }
            screen.key(KeyCode::Enter).unwrap();
            render_text(|f| screen.draw_screen(f))
        };
        // 80 x 24: 20 rows of 39 cells. The cursor starts in the middle of the board.
        let text = render_text(|f| screen.draw_screen(f));
        assert!(text.contains("rows 22-41, columns 13-51"), "{text}");
        let text = go(&mut screen, "40 30");
        assert!(text.contains("rows 30-49, columns 11-49"), "{text}");
        let text = go(&mut screen, "2 3");
        assert!(text.contains("rows 0-19, columns 0-38"), "{text}");
        let text = go(&mut screen, "63 63");
        assert!(text.contains("rows 44-63, columns 25-63"), "{text}");
    }
}
