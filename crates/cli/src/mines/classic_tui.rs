//! `ply mines classic play`: a classic game by hand in a terminal UI, with the solver's hints
//! (its next move, certain or the least risk) and an overlay of every hidden cell's chance to
//! be a mine.

use std::cell::Cell;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Result;
use crossterm::event::{KeyCode, MouseButton, MouseEvent, MouseEventKind};
use ply_mines::classic::{
    ClassicGame, EXPLODED, HIDDEN, Move, Probabilities, Reveal, Rules, Solver, Status,
};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use crate::terminal::{Screen, run_screen};

/// The keys, under the board.
const HELP: [&str; 2] = [
    "arrows/hjkl move  space/enter open  f flag  mouse: left, right",
    "t hint  a play hint  p odds  n new game  r restart  q quit",
];

/// Lines of text under the board: the game, the counts, the message and the keys.
const TEXT_LINES: u16 = 5;

/// The columns every line of text fits in (an expert board, 30 cells of 2 columns and its
/// border, takes 62).
const TEXT_WIDTH: u16 = 64;

/// A seed from the clock, short enough to type back with `--seed`.
fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // splitmix64's finaliser: nearby instants give unrelated seeds.
    let mut z = nanos.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % 1_000_000_000
}

/// The board's name: the level and its size, or the size.
fn board_name(rules: &Rules) -> String {
    let size = format!("{}x{}, {} mines", rules.width, rules.height, rules.mines);
    match rules.known_level() {
        Some(level) => format!("{level} {size}"),
        None => size,
    }
}

/// The overlay's shade of a hidden cell whose chance to be a mine is `p`, and its colour:
/// lighter and greener for safer cells.
fn odds_shade(p: f64) -> (char, Color) {
    match p {
        p if p < 0.1 => ('░', Color::LightGreen),
        p if p < 0.3 => ('░', Color::LightYellow),
        p if p < 0.5 => ('▒', Color::Yellow),
        p if p < 0.7 => ('▓', Color::LightRed),
        _ => ('█', Color::Red),
    }
}

/// `m:ss` of a duration.
fn clock(time: Duration) -> String {
    let s = time.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// A classic game as the player sees it: the game, the solver that gives hints, the flags,
/// the cursor and the viewport (a custom board larger than the terminal scrolls).
pub(super) struct ClassicScreen {
    rules: Rules,
    seed: u64,
    game: ClassicGame,
    solver: Solver,
    /// Per cell, row by row.
    flags: Vec<bool>,
    flag_count: u32,
    /// (row, col).
    cursor: (u16, u16),
    /// The solver's move, shown until the position changes (a certain one stays while its
    /// cell is hidden: it stays certain).
    hint: Option<Move>,
    /// Whether the probabilities are shown on the hidden cells.
    overlay: bool,
    /// The probabilities of the current position, while the overlay is on.
    odds: Option<Probabilities>,
    started: Option<Instant>,
    /// The game's time, once it is over.
    ended: Option<Duration>,
    /// The seconds the clock showed when last drawn.
    shown_seconds: u64,
    /// The viewport's top-left cell, set when drawn.
    origin: Cell<(u16, u16)>,
    /// The viewport's rows and columns, set when drawn.
    shown: Cell<(u16, u16)>,
    message: String,
}

impl ClassicScreen {
    /// A fresh game under `rules` whose mines come from `seed`.
    pub(super) fn new(rules: Rules, seed: u64) -> Self {
        Self {
            rules,
            seed,
            game: ClassicGame::new(rules, seed),
            solver: Solver::new(rules),
            flags: vec![false; rules.cells() as usize],
            flag_count: 0,
            cursor: (rules.height / 2, rules.width / 2),
            hint: None,
            overlay: false,
            odds: None,
            started: None,
            ended: None,
            shown_seconds: 0,
            origin: Cell::new((0, 0)),
            shown: Cell::new((0, 0)),
            message: "the first click is always safe: open any cell".into(),
        }
    }

    /// The game's seed.
    pub(super) fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the game stands.
    pub(super) fn status(&self) -> Status {
        self.game.status()
    }

    /// The game's time so far.
    fn elapsed(&self) -> Duration {
        match (self.ended, self.started) {
            (Some(time), _) => time,
            (None, Some(start)) => start.elapsed(),
            (None, None) => Duration::ZERO,
        }
    }

    fn index(&self, row: u16, col: u16) -> usize {
        usize::from(row) * usize::from(self.rules.width) + usize::from(col)
    }

    /// Starts the game of `seed` over (the same rules).
    fn restart(&mut self, seed: u64) {
        let (overlay, cursor) = (self.overlay, self.cursor);
        *self = Self::new(self.rules, seed);
        self.overlay = overlay;
        self.cursor = cursor;
    }

    /// After the position changed: the clock, the hint, the probabilities.
    fn changed(&mut self) {
        if self.game.status() != Status::Playing && self.ended.is_none() {
            self.ended = Some(self.elapsed());
        }
        if let Some(hint) = self.hint {
            let hidden = self.game.view()[self.index(hint.row, hint.col)] == HIDDEN;
            if !(hint.certain && hidden) || self.game.status() != Status::Playing {
                self.hint = None;
            }
        }
        self.refresh_odds();
    }

    /// Recomputes the probabilities if the overlay is on and the game has a position to
    /// weigh (before the first click every cell is safe; after the end nothing is hidden
    /// that matters).
    fn refresh_odds(&mut self) {
        let weighed = self.overlay
            && self.game.status() == Status::Playing
            && self.game.view().iter().any(|&v| v <= 8);
        self.odds = weighed.then(|| self.solver.probabilities(self.game.view()));
    }

    /// Opens `(row, col)`, or on an open number whose flags account for its mines, its
    /// other hidden neighbours (a chord).
    fn open(&mut self, row: u16, col: u16) -> Result<()> {
        if self.game.status() != Status::Playing {
            self.message = "the game is over: n new game, r restart".into();
            return Ok(());
        }
        let cell = self.index(row, col);
        if self.flags[cell] {
            self.message = format!("({row}, {col}) is flagged; f removes the flag");
            return Ok(());
        }
        let v = self.game.view()[cell];
        if v == HIDDEN {
            self.started.get_or_insert_with(Instant::now);
            let reveal = self.game.click(row, col)?;
            self.message = match reveal {
                Reveal::Opened(n) => format!(
                    "({row}, {col}) opened {n} {}",
                    if n == 1 { "cell" } else { "cells" }
                ),
                Reveal::Mine => format!("BOOM: ({row}, {col}) was a mine"),
                Reveal::Nothing => String::new(),
            };
        } else if (1..=8).contains(&v) {
            self.chord(row, col, v)?;
        } else {
            self.message = format!("({row}, {col}) is open");
        }
        self.finish_message();
        self.changed();
        Ok(())
    }

    /// Opens the hidden unflagged neighbours of the open number `v` at `(row, col)` if its
    /// flagged neighbours are `v`.
    fn chord(&mut self, row: u16, col: u16, v: u8) -> Result<()> {
        let neighbours = self.neighbours(row, col);
        let flagged = neighbours
            .iter()
            .filter(|&&(r, c)| self.flags[self.index(r, c)])
            .count();
        let hidden: Vec<(u16, u16)> = neighbours
            .into_iter()
            .filter(|&(r, c)| {
                let i = self.index(r, c);
                !self.flags[i] && self.game.view()[i] == HIDDEN
            })
            .collect();
        if flagged != usize::from(v) || hidden.is_empty() {
            self.message =
                format!("({row}, {col}) is open; with {v} flags around it, space opens the rest");
            return Ok(());
        }
        let mut opened = 0;
        for (r, c) in hidden {
            match self.game.click(r, c)? {
                Reveal::Opened(n) => opened += n,
                Reveal::Mine => {
                    self.message = format!("BOOM: ({r}, {c}) was a mine (a wrong flag)");
                    return Ok(());
                }
                Reveal::Nothing => {}
            }
        }
        self.message = format!("opened {opened} cells around ({row}, {col})");
        Ok(())
    }

    /// The message of a game that just ended.
    fn finish_message(&mut self) {
        match self.game.status() {
            Status::Won => {
                self.message = format!("WON in {}; n new game, r replay", clock(self.elapsed()));
            }
            Status::Lost => self.message.push_str("; n new game, r restart"),
            Status::Playing => {}
        }
    }

    /// The cells around `(row, col)` on the board.
    fn neighbours(&self, row: u16, col: u16) -> Vec<(u16, u16)> {
        let mut out = Vec::with_capacity(8);
        for r in row.saturating_sub(1)..=row.saturating_add(1).min(self.rules.height - 1) {
            for c in col.saturating_sub(1)..=col.saturating_add(1).min(self.rules.width - 1) {
                if (r, c) != (row, col) {
                    out.push((r, c));
                }
            }
        }
        out
    }

    fn flag(&mut self) {
        if self.game.status() != Status::Playing {
            self.message = "the game is over: n new game, r restart".into();
            return;
        }
        let (row, col) = self.cursor;
        let cell = self.index(row, col);
        if self.game.view()[cell] != HIDDEN {
            self.message = "only hidden cells take flags".into();
            return;
        }
        self.flags[cell] = !self.flags[cell];
        if self.flags[cell] {
            self.flag_count += 1;
        } else {
            self.flag_count -= 1;
        }
        self.message.clear();
    }

    /// The solver's move in the current position (moving the cursor to it), with a message;
    /// `None` once the game is over.
    fn hint(&mut self) -> Option<Move> {
        if self.game.status() != Status::Playing {
            self.message = "the game is over: n new game, r restart".into();
            return None;
        }
        if self.hint.is_none() {
            self.hint = self.solver.next_move(self.game.view());
        }
        let Some(mv) = self.hint else {
            self.message = "the solver has no move".into();
            return None;
        };
        self.cursor = (mv.row, mv.col);
        let (r, c) = (mv.row, mv.col);
        self.message = if !self.game.view().iter().any(|&v| v <= 8) {
            format!("hint: any first click is safe; the solver's is ({r}, {c})")
        } else if mv.certain {
            format!("hint: ({r}, {c}) is certainly safe")
        } else {
            format!(
                "hint: no cell is certain; guess ({r}, {c}), {:.1} % a mine",
                100.0 * mv.mine_probability
            )
        };
        if self.flags[self.index(r, c)] {
            self.message.push_str(" (you flagged it)");
        }
        Some(mv)
    }

    /// Plays the solver's move: removes a flag on its cell, and opens it.
    fn play_hint(&mut self) -> Result<()> {
        let Some(mv) = self.hint() else {
            return Ok(());
        };
        let first = !self.game.view().iter().any(|&v| v <= 8);
        let cell = self.index(mv.row, mv.col);
        if self.flags[cell] {
            self.flags[cell] = false;
            self.flag_count -= 1;
        }
        self.open(mv.row, mv.col)?;
        if self.game.status() == Status::Playing {
            let kind = if first {
                "the first click".to_string()
            } else if mv.certain {
                "a certain move".to_string()
            } else {
                format!("a guess, {:.1} % a mine", 100.0 * mv.mine_probability)
            };
            self.message = format!("played {kind}: {}", self.message);
        }
        Ok(())
    }

    fn toggle_overlay(&mut self) {
        self.overlay = !self.overlay;
        self.refresh_odds();
        self.message = if !self.overlay {
            "odds hidden".into()
        } else if self.odds.is_none() && self.game.status() == Status::Playing {
            "odds shown once the first click is made (it is always safe)".into()
        } else {
            "odds: darker, likelier a mine (+ safe, ! mine)".into()
        };
    }

    fn step(&mut self, dr: i32, dc: i32) {
        let clamp = |v: i32, len: u16| v.clamp(0, i32::from(len) - 1) as u16;
        self.cursor = (
            clamp(i32::from(self.cursor.0) + dr, self.rules.height),
            clamp(i32::from(self.cursor.1) + dc, self.rules.width),
        );
    }

    /// What a cell shows: its text (one character) and style.
    fn cell_span(&self, row: u16, col: u16) -> Span<'static> {
        let cell = self.index(row, col);
        let v = self.game.view()[cell];
        let status = self.game.status();
        let flagged = self.flags[cell];
        let mine = self.game.is_mine(row, col) == Some(true);
        let plain = Style::default();
        let (text, mut style): (String, Style) = match v {
            EXPLODED => (
                "*".into(),
                plain
                    .fg(Color::White)
                    .bg(Color::Red)
                    .add_modifier(Modifier::BOLD),
            ),
            0 => (" ".into(), plain),
            1..=8 => {
                let color = match v {
                    1 => Color::Blue,
                    2 => Color::Green,
                    3 => Color::Red,
                    4 => Color::Magenta,
                    5 => Color::Yellow,
                    6 => Color::Cyan,
                    _ => Color::White,
                };
                (
                    char::from(b'0' + v).to_string(),
                    plain.fg(color).add_modifier(Modifier::BOLD),
                )
            }
            _ if status == Status::Lost && mine && flagged => ("F".into(), plain.fg(Color::Green)),
            _ if status == Status::Lost && mine => ("*".into(), plain.fg(Color::Red)),
            _ if status == Status::Lost && flagged => ("X".into(), plain.fg(Color::Yellow)),
            _ if status == Status::Won => ("F".into(), plain.fg(Color::Green)),
            _ if flagged => ("F".into(), plain.fg(Color::Red)),
            _ => match &self.odds {
                Some(odds) => Self::odds_cell(odds, cell),
                None => ("·".into(), plain.fg(Color::DarkGray)),
            },
        };
        if let Some(hint) = self.hint
            && (hint.row, hint.col) == (row, col)
        {
            let bg = if hint.certain {
                Color::Green
            } else {
                Color::Yellow
            };
            style = style.fg(Color::Black).bg(bg);
        }
        if (row, col) == self.cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        Span::styled(format!("{text} "), style)
    }

    /// A hidden cell under the overlay: `+` certainly safe, `!` certainly a mine, else a shade
    /// that darkens with its chance (no digit, which an open number would look like),
    /// coloured from green to red; the status line gives the cursor cell's chance exactly.
    fn odds_cell(odds: &Probabilities, cell: usize) -> (String, Style) {
        let style = Style::default().fg(Color::Black);
        if odds.safe.get(cell) == Some(&true) {
            return ("+".into(), style.bg(Color::Green));
        }
        if odds.certain_mine.get(cell) == Some(&true) {
            return ("!".into(), style.bg(Color::Red));
        }
        let p = odds.mine.get(cell).copied().unwrap_or(0.0);
        let (shade, bg) = odds_shade(p);
        (shade.to_string(), style.bg(bg))
    }

    /// The cell under the terminal's (`column`, `row`), if the board shows one there: cells
    /// are two columns wide inside a one-character border, from the viewport's origin.
    fn cell_at(&self, column: u16, row: u16) -> Option<(u16, u16)> {
        let (top, left) = self.origin.get();
        let (r, c) = (row.checked_sub(1)?, column.checked_sub(1)? / 2);
        let (r, c) = (top.checked_add(r)?, left.checked_add(c)?);
        let shown = self.shown.get();
        (r < top + shown.0 && c < left + shown.1).then_some((r, c))
    }

    /// The viewport of `rows` x `cols` cells centred on the cursor, clamped at the edges.
    fn follow(&self, rows: u16, cols: u16) -> (u16, u16) {
        let (r, c) = self.cursor;
        let centre = |at: u16, span: u16, len: u16| at.saturating_sub(span / 2).min(len - span);
        let origin = (
            centre(r, rows, self.rules.height),
            centre(c, cols, self.rules.width),
        );
        self.origin.set(origin);
        origin
    }

    /// The status lines: the game, then the counts.
    fn status_lines(&self) -> [String; 2] {
        let game = format!(
            "{}, rule {}, seed {}",
            board_name(&self.rules),
            self.rules.first_click,
            self.seed
        );
        let left = if self.game.status() == Status::Won {
            0
        } else {
            i64::from(self.rules.mines) - i64::from(self.flag_count)
        };
        let state = match self.game.status() {
            Status::Playing => "playing",
            Status::Won => "WON",
            Status::Lost => "LOST",
        };
        let (row, col) = self.cursor;
        let mut counts = format!(
            "mines left {left}  time {}  {state}  at ({row}, {col})",
            clock(self.elapsed())
        );
        let cell = self.index(row, col);
        if let Some(odds) = &self.odds
            && self.game.view()[cell] == HIDDEN
        {
            let p = odds.mine.get(cell).copied().unwrap_or(0.0);
            if odds.safe.get(cell) == Some(&true) {
                counts.push_str(" safe");
            } else if odds.certain_mine.get(cell) == Some(&true) {
                counts.push_str(" a mine");
            } else {
                counts.push_str(&format!(" {:.1} % mine", 100.0 * p));
            }
        }
        [game, counts]
    }
}

impl Screen for ClassicScreen {
    /// The text under the board, and three rows of cells at least (a board taller than the
    /// terminal scrolls).
    fn needs(&self) -> (u16, u16) {
        (TEXT_WIDTH, self.rules.height.min(3) + 2 + TEXT_LINES)
    }

    fn draw_screen(&self, frame: &mut Frame<'_>) {
        let area = frame.area();
        let rows = area
            .height
            .saturating_sub(2 + TEXT_LINES)
            .clamp(1, self.rules.height);
        let cols = (area.width.saturating_sub(2) / 2).clamp(1, self.rules.width);
        let (top, left) = self.follow(rows, cols);
        self.shown.set((rows, cols));
        let lines: Vec<Line<'_>> = (top..top + rows)
            .map(|r| {
                Line::from(
                    (left..left + cols)
                        .map(|c| self.cell_span(r, c))
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let mut block = Block::bordered();
        if rows < self.rules.height || cols < self.rules.width {
            block = block.title(format!(
                " rows {top}-{}, cols {left}-{} ",
                top + rows - 1,
                left + cols - 1
            ));
        }
        let board = Rect {
            width: (2 * cols + 2).min(area.width),
            height: (rows + 2).min(area.height),
            ..area
        };
        frame.render_widget(Paragraph::new(lines).block(block), board);
        let [game, counts] = self.status_lines();
        let text = vec![
            Line::from(game),
            Line::from(counts),
            Line::from(self.message.clone()).style(Style::default().add_modifier(Modifier::BOLD)),
            Line::from(HELP[0]).style(Style::default().fg(Color::DarkGray)),
            Line::from(HELP[1]).style(Style::default().fg(Color::DarkGray)),
        ];
        let below = Rect {
            y: area.y + board.height,
            height: area.height.saturating_sub(board.height),
            ..area
        };
        frame.render_widget(Paragraph::new(text), below);
    }

    fn key(&mut self, code: KeyCode) -> Result<bool> {
        let (rows, cols) = (self.rules.height, self.rules.width);
        match code {
            KeyCode::Up | KeyCode::Char('k') => self.step(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => self.step(1, 0),
            KeyCode::Left | KeyCode::Char('h') => self.step(0, -1),
            KeyCode::Right | KeyCode::Char('l') => self.step(0, 1),
            KeyCode::PageUp => self.step(-i32::from(rows), 0),
            KeyCode::PageDown => self.step(i32::from(rows), 0),
            KeyCode::Home => self.step(0, -i32::from(cols)),
            KeyCode::End => self.step(0, i32::from(cols)),
            KeyCode::Char(' ') | KeyCode::Enter => {
                let (row, col) = self.cursor;
                self.open(row, col)?;
            }
            KeyCode::Char('f') => self.flag(),
            KeyCode::Char('t') => {
                self.hint();
            }
            KeyCode::Char('a') => self.play_hint()?,
            KeyCode::Char('p') => self.toggle_overlay(),
            KeyCode::Char('n') => {
                let mut seed = clock_seed();
                if seed == self.seed {
                    seed = seed.wrapping_add(1);
                }
                self.restart(seed);
                self.message = format!("a new game: seed {seed}");
            }
            KeyCode::Char('r') => {
                self.restart(self.seed);
                self.message = format!("the game of seed {} again", self.seed);
            }
            KeyCode::Char('q') | KeyCode::Esc => return Ok(false),
            _ => {}
        }
        Ok(true)
    }

    fn wants_mouse(&self) -> bool {
        true
    }

    /// A left click opens the cell (a chord on a satisfied number), a right click flags it,
    /// a middle click chords (terminals do not report both buttons at once, the chord of
    /// desktop games); the cursor moves to the cell.
    fn mouse(&mut self, event: MouseEvent) -> Result<()> {
        let MouseEventKind::Down(button) = event.kind else {
            return Ok(());
        };
        let Some((row, col)) = self.cell_at(event.column, event.row) else {
            return Ok(());
        };
        self.cursor = (row, col);
        match button {
            MouseButton::Left => self.open(row, col)?,
            MouseButton::Right => self.flag(),
            MouseButton::Middle => {
                let v = self.game.view()[self.index(row, col)];
                if (1..=8).contains(&v) {
                    self.open(row, col)?;
                }
            }
        }
        Ok(())
    }

    /// The clock, once a second while the game runs.
    fn tick(&mut self) -> bool {
        if self.started.is_none() || self.ended.is_some() {
            return false;
        }
        let seconds = self.elapsed().as_secs();
        let changed = seconds != self.shown_seconds;
        self.shown_seconds = seconds;
        changed
    }
}

/// Plays the game of `seed` (default: from the clock) under `rules` in the terminal, and
/// prints how it ended and its seed.
pub(super) fn run_game(rules: Rules, seed: Option<u64>) -> Result<()> {
    let seed = seed.unwrap_or_else(clock_seed);
    let mut screen = ClassicScreen::new(rules, seed);
    run_screen("ply mines classic play", &mut screen)?;
    let how = match screen.status() {
        Status::Won => format!("won in {}", clock(screen.elapsed())),
        Status::Lost => "lost".into(),
        Status::Playing => "left unfinished".into(),
    };
    outln!(
        "{}, rule {}: {how}; seed {} (--seed {} replays it)",
        board_name(&rules),
        rules.first_click,
        screen.seed(),
        screen.seed()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terminal::{draw, render_sized, render_text};
    use ply_mines::classic::{FirstClick, Level};

    fn beginner(seed: u64) -> ClassicScreen {
        ClassicScreen::new(Rules::level(Level::Beginner, FirstClick::Safe), seed)
    }

    fn keys(screen: &mut ClassicScreen, keys: &str) {
        for ch in keys.chars() {
            assert!(screen.key(KeyCode::Char(ch)).unwrap(), "{ch} quit");
            let width = screen.message.chars().count();
            assert!(width <= usize::from(TEXT_WIDTH), "{}", screen.message);
        }
    }

    fn text(screen: &ClassicScreen) -> String {
        render_text(|f| draw(screen, f))
    }

    /// Moves the cursor to `(row, col)` with arrow keys.
    fn go(screen: &mut ClassicScreen, row: u16, col: u16) {
        while screen.cursor.0 > row {
            screen.key(KeyCode::Up).unwrap();
        }
        while screen.cursor.0 < row {
            screen.key(KeyCode::Down).unwrap();
        }
        while screen.cursor.1 > col {
            screen.key(KeyCode::Left).unwrap();
        }
        while screen.cursor.1 < col {
            screen.key(KeyCode::Right).unwrap();
        }
    }

    #[test]
    fn opening_and_flagging() {
        let mut screen = beginner(5);
        let start = text(&screen);
        assert!(
            start.contains("beginner 9x9, 10 mines, rule safe, seed 5"),
            "{start}"
        );
        assert!(start.contains("mines left 10"), "{start}");
        assert!(start.contains("at (4, 4)"), "{start}");
        // hjkl move like the arrows.
        keys(&mut screen, "kkhl");
        assert_eq!(screen.cursor, (2, 4));
        screen.key(KeyCode::Char(' ')).unwrap();
        assert!(screen.game.opened() > 0);
        assert_eq!(screen.status(), Status::Playing);
        // Flag a hidden cell: the count goes down; a flagged cell does not open; f again
        // removes the flag.
        let hidden = (0..9u16)
            .flat_map(|r| (0..9u16).map(move |c| (r, c)))
            .find(|&(r, c)| screen.game.view()[usize::from(r) * 9 + usize::from(c)] == HIDDEN)
            .unwrap();
        go(&mut screen, hidden.0, hidden.1);
        keys(&mut screen, "f");
        let opened = screen.game.opened();
        screen.key(KeyCode::Enter).unwrap();
        assert_eq!(screen.game.opened(), opened, "a flagged cell is not opened");
        let shown = text(&screen);
        assert!(shown.contains("mines left 9"), "{shown}");
        assert!(shown.contains("is flagged"), "{shown}");
        keys(&mut screen, "f");
        assert!(text(&screen).contains("mines left 10"));
        // An open cell takes no flag.
        go(&mut screen, 2, 4);
        keys(&mut screen, "f");
        assert!(text(&screen).contains("only hidden cells take flags"));
        assert!(!screen.key(KeyCode::Char('q')).unwrap());
        assert!(!screen.key(KeyCode::Esc).unwrap());
    }

    #[test]
    fn a_played_certain_hint_is_never_a_mine() {
        let mut certain = 0;
        for seed in 0..30 {
            let mut screen = beginner(seed);
            while screen.status() == Status::Playing {
                keys(&mut screen, "t");
                let hint = screen.hint.expect("a hint while playing");
                assert_eq!(screen.cursor, (hint.row, hint.col), "the cursor goes to it");
                keys(&mut screen, "a");
                if hint.certain {
                    certain += 1;
                    assert_ne!(screen.status(), Status::Lost, "seed {seed}: {hint:?}");
                    assert_eq!(screen.game.is_mine(hint.row, hint.col), Some(false));
                }
            }
        }
        assert!(certain > 100, "{certain} certain hints");
    }

    #[test]
    fn hints_alone_win_a_beginner_game() {
        let won = (0..20).find_map(|seed| {
            let mut screen = beginner(seed);
            for _ in 0..81 {
                keys(&mut screen, "a");
            }
            (screen.status() == Status::Won).then_some(screen)
        });
        let screen = won.expect("a win in 20 seeds");
        let shown = text(&screen);
        assert!(shown.contains("WON"), "{shown}");
        assert!(shown.contains("mines left 0"), "{shown}");
        assert_eq!(shown.matches("F ").count(), 10, "{shown}");
    }

    #[test]
    fn a_guess_hint_says_its_risk() {
        // Seeds whose game needs a guess: the hint says how likely a mine it is.
        let found = (0..50).any(|seed| {
            let mut screen = beginner(seed);
            while screen.status() == Status::Playing {
                keys(&mut screen, "t");
                if screen.game.opened() > 0 && !screen.hint.unwrap().certain {
                    assert!(screen.message.contains("% a mine"), "{}", screen.message);
                    return true;
                }
                keys(&mut screen, "a");
            }
            false
        });
        assert!(found);
    }

    #[test]
    fn a_lost_game_shows_its_mines() {
        let mut screen = beginner(9);
        keys(&mut screen, " ");
        let (mine_r, mine_c) = (0..9u16)
            .flat_map(|r| (0..9u16).map(move |c| (r, c)))
            .find(|&(r, c)| screen.game.is_mine(r, c) == Some(true))
            .unwrap();
        // A wrong flag somewhere hidden and safe.
        let safe = (0..9u16)
            .flat_map(|r| (0..9u16).map(move |c| (r, c)))
            .find(|&(r, c)| {
                screen.game.is_mine(r, c) == Some(false)
                    && screen.game.view()[usize::from(r) * 9 + usize::from(c)] == HIDDEN
            });
        if let Some((r, c)) = safe {
            go(&mut screen, r, c);
            keys(&mut screen, "f");
        }
        go(&mut screen, mine_r, mine_c);
        keys(&mut screen, " ");
        assert_eq!(screen.status(), Status::Lost);
        let shown = text(&screen);
        assert!(shown.contains("LOST"), "{shown}");
        assert!(shown.contains("BOOM"), "{shown}");
        // The exploded mine and the nine others.
        assert_eq!(shown.matches('*').count(), 10, "{shown}");
        assert_eq!(shown.matches('X').count(), usize::from(safe.is_some()));
        // Nothing opens any more; r plays the same seed again, n a new one.
        keys(&mut screen, " f");
        assert_eq!(screen.status(), Status::Lost);
        keys(&mut screen, "r");
        assert_eq!((screen.seed(), screen.status()), (9, Status::Playing));
        assert_eq!(screen.game.opened(), 0);
        keys(&mut screen, "n");
        assert_ne!(screen.seed(), 9);
        assert!(text(&screen).contains(&format!("seed {}", screen.seed())));
    }

    #[test]
    fn the_overlay_shows_each_hidden_cells_odds() {
        let mut screen = beginner(3);
        keys(&mut screen, "p");
        assert!(screen.odds.is_none(), "no odds before the first click");
        keys(&mut screen, " ");
        let odds = screen.odds.as_ref().expect("odds after a click");
        for (cell, &v) in screen.game.view().iter().enumerate() {
            if v == HIDDEN && odds.safe[cell] {
                let (r, c) = ((cell / 9) as u16, (cell % 9) as u16);
                assert_eq!(screen.game.is_mine(r, c), Some(false));
            }
        }
        let hidden = screen
            .game
            .view()
            .iter()
            .position(|&v| v == HIDDEN)
            .unwrap();
        go(&mut screen, (hidden / 9) as u16, (hidden % 9) as u16);
        let shown = text(&screen);
        assert!(!shown.contains('·'), "every hidden cell has odds: {shown}");
        let at = format!("at ({}, {}) ", hidden / 9, hidden % 9);
        let said = shown.split(&at).nth(1).unwrap_or_default();
        assert!(
            ["safe", "a mine"].iter().any(|w| said.starts_with(w)) || said.contains("% mine"),
            "the cursor's odds: {shown}"
        );
        // A hidden cell shows a shade, never a digit an open number would show.
        for (cell, &v) in screen.game.view().iter().enumerate() {
            let (r, c) = ((cell / 9) as u16, (cell % 9) as u16);
            let shown = screen.cell_span(r, c).content.to_string();
            if v == HIDDEN {
                assert!(!shown.chars().any(|ch| ch.is_ascii_digit()), "{shown:?}");
            }
        }
        keys(&mut screen, "p");
        assert!(screen.odds.is_none());
        assert!(text(&screen).contains('·'));
    }

    /// A click at the terminal's (`column`, `row`).
    fn click(screen: &mut ClassicScreen, button: MouseButton, column: u16, row: u16) {
        let event = MouseEvent {
            kind: MouseEventKind::Down(button),
            column,
            row,
            modifiers: crossterm::event::KeyModifiers::NONE,
        };
        screen.mouse(event).unwrap();
    }

    #[test]
    fn the_mouse_opens_and_flags_the_cell_under_it() {
        let mut screen = beginner(4);
        // Drawn once, so that the screen knows where its cells are: cell (r, c) is at
        // column 1 + 2c, row 1 + r, inside the border.
        text(&screen);
        click(&mut screen, MouseButton::Left, 1 + 2 * 4, 1 + 4);
        assert_eq!(screen.cursor, (4, 4));
        assert_ne!(screen.game.view()[4 * 9 + 4], HIDDEN, "opened");
        let hidden = (0..81).find(|&i| screen.game.view()[i] == HIDDEN).unwrap();
        let (r, c) = ((hidden / 9) as u16, (hidden % 9) as u16);
        click(&mut screen, MouseButton::Right, 2 + 2 * c, 1 + r);
        assert!(
            screen.flags[hidden],
            "the right half of a cell is the cell too"
        );
        click(&mut screen, MouseButton::Right, 1 + 2 * c, 1 + r);
        assert!(
            !screen.flags[hidden],
            "a second right click takes the flag away"
        );
        // The border and below the board are no cell.
        let before = screen.game.view().to_vec();
        click(&mut screen, MouseButton::Left, 0, 0);
        click(&mut screen, MouseButton::Left, 5, 11);
        assert_eq!(screen.game.view(), &before[..]);
    }

    #[test]
    fn chording_opens_around_a_satisfied_number() {
        // Find a seed and number whose mines are known: flag them and chord.
        for seed in 0..50 {
            let mut screen = beginner(seed);
            keys(&mut screen, " ");
            let view = screen.game.view().to_vec();
            let target = (0..81usize).find(|&i| {
                let (r, c) = ((i / 9) as u16, (i % 9) as u16);
                (1..=8).contains(&view[i])
                    && screen.neighbours(r, c).iter().any(|&(nr, nc)| {
                        view[screen.index(nr, nc)] == HIDDEN
                            && screen.game.is_mine(nr, nc) == Some(false)
                    })
            });
            let Some(i) = target else { continue };
            let (r, c) = ((i / 9) as u16, (i % 9) as u16);
            for (nr, nc) in screen.neighbours(r, c) {
                if screen.game.is_mine(nr, nc) == Some(true) {
                    go(&mut screen, nr, nc);
                    keys(&mut screen, "f");
                }
            }
            let opened = screen.game.opened();
            go(&mut screen, r, c);
            keys(&mut screen, " ");
            assert!(screen.game.opened() > opened, "seed {seed}");
            assert_ne!(screen.status(), Status::Lost);
            return;
        }
        panic!("no number to chord in 50 seeds");
    }

    #[test]
    fn expert_fits_80_columns_and_24_rows() {
        let mut screen = ClassicScreen::new(Rules::level(Level::Expert, FirstClick::Zero), 7);
        assert!(screen.needs().0 <= 80 && screen.needs().1 <= 24);
        keys(&mut screen, " p");
        let shown = text(&screen);
        assert!(!shown.contains("This screen needs"), "{shown}");
        assert!(!shown.contains("rows 0-"), "the whole board shows: {shown}");
        let lines: Vec<&str> = shown.lines().collect();
        // The border, 16 rows of 30 cells, the border, then the text.
        assert!(lines[0].starts_with('┌'), "{shown}");
        assert!(lines[17].starts_with('└'), "{shown}");
        assert_eq!(lines[1].chars().nth(61), Some('│'), "{shown}");
        assert!(lines[18].contains("expert 30x16, 99 mines, rule zero, seed 7"));
        assert!(
            shown.contains(HELP[0]) && shown.contains(HELP[1]),
            "{shown}"
        );
    }

    #[test]
    fn tiny_and_huge_boards_and_small_terminals_do_not_panic() {
        let boards = [
            (1, 2, 0, FirstClick::Safe),
            (3, 1, 0, FirstClick::Zero),
            (3, 1, 1, FirstClick::Safe),
            (1, 3, 1, FirstClick::Safe),
            (2, 2, 2, FirstClick::Safe),
            (3, 3, 0, FirstClick::Zero),
            (4, 4, 6, FirstClick::Zero),
            (200, 100, 4000, FirstClick::Safe),
        ];
        for (width, height, mines, rule) in boards {
            let rules = Rules::new(width, height, mines, rule).unwrap();
            let mut screen = ClassicScreen::new(rules, 1);
            for round in 0..3 {
                for key in [
                    KeyCode::Char('p'),
                    KeyCode::Char('t'),
                    KeyCode::Char('a'),
                    KeyCode::Char(' '),
                    KeyCode::Char('f'),
                    KeyCode::Right,
                    KeyCode::Down,
                    KeyCode::Enter,
                    KeyCode::PageDown,
                    KeyCode::End,
                    KeyCode::Char('a'),
                    KeyCode::Char('f'),
                    KeyCode::Home,
                    KeyCode::PageUp,
                ] {
                    screen.key(key).unwrap();
                    for (cols, rows) in [(80, 24), (64, 10), (20, 5), (1, 1), (0, 0)] {
                        render_sized(cols, rows, |f| draw(&screen, f));
                        render_sized(cols.max(1), rows.max(1), |f| screen.draw_screen(f));
                    }
                }
                if round == 1 {
                    keys(&mut screen, "n");
                }
            }
            if mines == 0 {
                let mut screen = ClassicScreen::new(rules, 1);
                keys(&mut screen, " ");
                assert_eq!(screen.status(), Status::Won, "{width} x {height}");
            }
        }
        // A board larger than the terminal scrolls, and says which part it shows.
        let rules = Rules::new(200, 100, 4000, FirstClick::Safe).unwrap();
        let screen = ClassicScreen::new(rules, 1);
        let shown = text(&screen);
        assert!(shown.contains("rows 42-58, cols 81-119"), "{shown}");
    }

    #[test]
    fn the_clock_runs_from_the_first_click_and_stops_at_the_end() {
        let mut screen = beginner(2);
        assert!(!screen.tick());
        assert_eq!(screen.elapsed(), Duration::ZERO);
        keys(&mut screen, " ");
        assert!(screen.started.is_some());
        for _ in 0..81 {
            keys(&mut screen, "a");
        }
        assert_ne!(screen.status(), Status::Playing);
        assert!(screen.ended.is_some());
        assert!(!screen.tick());
    }
}
