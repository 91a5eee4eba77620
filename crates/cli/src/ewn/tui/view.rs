//! `ply ewn solo view`: the board, the dice and a solution, stepped through in the terminal.

use crate::ewn::args::ViewArgs;
use crate::ewn::ops::{load_instance, solve_checked, verdict_for};
use crate::format::read_input;
use anyhow::{Context, Result, bail};
use crossterm::event::KeyCode;
use ply_ewn::solo::{DICE, HOLE, Instance, Position, SoloMove, check, parse_solution};
use ply_search::{Ending, GiveUp};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

/// What the viewer shows: an instance, a legal move sequence and the current step.
pub(crate) struct Viewer {
    instance: Instance,
    moves: Vec<SoloMove>,
    /// Positions before each move and after the last: `positions[k]` after `k` moves.
    positions: Vec<Position>,
    step: usize,
    verdict: String,
}

impl Viewer {
    /// A viewer of `moves` (the legal prefix of a solution) with the checker's verdict.
    pub(crate) fn new(instance: Instance, moves: Vec<SoloMove>, verdict: String) -> Viewer {
        let mut positions = vec![instance.position()];
        for mv in &moves {
            let mut next = positions.last().expect("start position").clone();
            next.play(*mv);
            positions.push(next);
        }
        Viewer {
            instance,
            moves,
            positions,
            step: 0,
            verdict,
        }
    }

    /// One move forward, if any.
    pub(crate) fn forward(&mut self) {
        self.step = (self.step + 1).min(self.moves.len());
    }

    /// One move back, if any.
    pub(crate) fn back(&mut self) {
        self.step = self.step.saturating_sub(1);
    }

    /// To the start.
    pub(crate) fn start(&mut self) {
        self.step = 0;
    }

    /// To the end.
    pub(crate) fn end(&mut self) {
        self.step = self.moves.len();
    }

    /// The current move number (moves played).
    pub(crate) fn step(&self) -> usize {
        self.step
    }

    fn board(&self) -> Paragraph<'_> {
        let pos = &self.positions[self.step];
        let last = self.step.checked_sub(1).map(|k| self.moves[k]);
        let mut lines = vec![Line::from("    0  1  2  3  4  5  6  7  8  9".to_string())];
        for r in 0..10u8 {
            let mut spans = vec![Span::raw(format!(" {r} "))];
            for c in 0..10u8 {
                let cell = r * 10 + c;
                let (text, mut style) = match pos.piece_at(cell) {
                    Some(p) if p == self.instance.goal => (
                        format!("[{p}]"),
                        Style::default()
                            .fg(Color::Yellow)
                            .add_modifier(Modifier::BOLD),
                    ),
                    Some(p) => (format!(" {p} "), Style::default().fg(Color::Cyan)),
                    None if cell == HOLE => (" X ".into(), Style::default().fg(Color::Red)),
                    None if cell == 0 => (" * ".into(), Style::default().fg(Color::Green)),
                    None => (" . ".into(), Style::default().fg(Color::DarkGray)),
                };
                if last.is_some_and(|m| m.to == cell || m.from == cell) {
                    style = style.bg(Color::Blue);
                }
                spans.push(Span::styled(text, style));
            }
            lines.push(Line::from(spans));
        }
        Paragraph::new(lines).block(Block::bordered().title(format!(
            " board: goal piece {} to (0,0) ",
            self.instance.goal
        )))
    }

    fn dice(&self) -> Paragraph<'_> {
        let spans: Vec<Span<'_>> = self
            .instance
            .dice
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let style = if i == self.step {
                    Style::default().fg(Color::Black).bg(Color::Yellow)
                } else if i < self.step {
                    Style::default().fg(Color::DarkGray)
                } else {
                    Style::default()
                };
                Span::styled(d.to_string(), style)
            })
            .collect();
        Paragraph::new(Line::from(spans)).block(Block::bordered().title(" dice "))
    }

    fn log(&self, height: usize) -> Paragraph<'_> {
        let first = self.step.saturating_sub(height.saturating_sub(1));
        let lines: Vec<Line<'_>> = self
            .moves
            .iter()
            .enumerate()
            .skip(first)
            .take(height)
            .map(|(i, mv)| {
                let capture = match mv.captured {
                    0 => String::new(),
                    p => format!(" takes {p}"),
                };
                let text = format!(
                    "{:>2}: die {} piece {} ({},{})->({},{}){capture}",
                    i + 1,
                    self.instance.dice[i],
                    mv.piece,
                    mv.from / 10,
                    mv.from % 10,
                    mv.to / 10,
                    mv.to % 10
                );
                let style = if i + 1 == self.step {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else {
                    Style::default()
                };
                Line::styled(text, style)
            })
            .collect();
        Paragraph::new(lines).block(Block::bordered().title(" moves "))
    }

    fn status(&self) -> Paragraph<'_> {
        let pos = &self.positions[self.step];
        let movable = if self.step < DICE {
            let die = self.instance.dice[self.step];
            let (pieces, n) = pos.movable(die);
            let names: Vec<String> = pieces[..n].iter().map(u8::to_string).collect();
            format!("die {die} moves {}", names.join(" or "))
        } else {
            "no dice left".into()
        };
        Paragraph::new(vec![
            Line::from(format!(
                "move {}/{}  {movable}",
                self.step(),
                self.moves.len()
            )),
            Line::from(self.verdict.clone()),
            Line::from(format!(
                "[{}] goal piece   * target (0,0)   X hole (3,3)   n piece n",
                self.instance.goal
            )),
            Line::from("<- h / -> l space: step   g / G: start / end   q: quit"),
        ])
    }

    /// Draws the whole screen (fits 80 x 24).
    pub(crate) fn draw(&self, frame: &mut Frame<'_>) {
        let [top, dice, status] = Layout::vertical([
            Constraint::Length(13),
            Constraint::Length(3),
            Constraint::Min(3),
        ])
        .areas(frame.area());
        let [board, log] =
            Layout::horizontal([Constraint::Length(36), Constraint::Min(20)]).areas(top);
        frame.render_widget(self.board(), board);
        frame.render_widget(self.log(usize::from(log.height.saturating_sub(2))), log);
        frame.render_widget(self.dice(), dice);
        frame.render_widget(self.status(), status);
    }
}

/// Builds the viewer from the command line: replays the given solution or solves first.
fn viewer(args: &ViewArgs) -> Result<Viewer> {
    let instance = load_instance(&args.instance)?;
    let report = solve_checked(&instance, &ply_search::Limits::UNLIMITED)?;
    let optimum_and_moves = match report.ending {
        Ending::Solved { moves, .. } => Some(moves),
        Ending::Unsolvable => None,
        Ending::Stopped => bail!(
            "gave up solving: {}",
            report.stopped.unwrap_or(GiveUp::Stopped)
        ),
    };
    let optimum = optimum_and_moves.as_ref().map(|m| m.len() as u32);
    let (moves, verdict) = match &args.solution {
        None => {
            let verdict = match &optimum_and_moves {
                None => "no solution within the 30 dice (proven)".to_string(),
                Some(moves) => format!("solver: {}", verdict_for(&instance, moves, optimum)),
            };
            (optimum_and_moves.unwrap_or_default(), verdict)
        }
        Some(path) => {
            let pairs = parse_solution(&read_input(path)?)
                .map_err(|e| anyhow::anyhow!(e))
                .with_context(|| path.display().to_string())?;
            // Show the legal prefix; the verdict says where it goes wrong.
            let mut pos = instance.position();
            let mut moves = Vec::new();
            for (i, &(from, to)) in pairs.iter().enumerate().take(DICE) {
                match pos.check_move(instance.dice[i], from, to) {
                    Ok(mv) => {
                        pos.play(mv);
                        moves.push(mv);
                    }
                    Err(_) => break,
                }
            }
            let verdict = format!("checker: {}", check(&instance, &pairs, optimum));
            (moves, verdict)
        }
    };
    Ok(Viewer::new(instance, moves, verdict))
}

impl crate::terminal::Screen for Viewer {
    fn draw_screen(&self, frame: &mut Frame<'_>) {
        self.draw(frame);
    }

    /// The board and legend (36 + 20 columns) over the dice and the status (13 + 3 + 3 rows).
    fn needs(&self) -> (u16, u16) {
        (56, 19)
    }

    fn key(&mut self, code: KeyCode) -> Result<bool> {
        match code {
            KeyCode::Char('q') | KeyCode::Esc => return Ok(false),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => self.forward(),
            KeyCode::Left | KeyCode::Char('h') => self.back(),
            KeyCode::Home | KeyCode::Char('g') => self.start(),
            KeyCode::End | KeyCode::Char('G') => self.end(),
            _ => {}
        }
        Ok(true)
    }
}

/// Runs the viewer until the user quits.
pub(crate) fn run(args: &ViewArgs) -> Result<()> {
    let mut viewer = viewer(args)?;
    crate::terminal::run_screen("ply ewn solo view", &mut viewer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Instance {
        Instance::parse("2\n62 26 66 42 32 36\n665545154156655451541566554515\n").unwrap()
    }

    fn screen(view: &Viewer) -> String {
        crate::terminal::render_text(|f| view.draw(f))
    }

    #[test]
    fn steps_through_a_solution_on_an_80x24_screen() {
        let instance = sample();
        let report = solve_checked(&instance, &ply_search::Limits::UNLIMITED).unwrap();
        let Ending::Solved { moves, .. } = report.ending else {
            panic!("sample unsolved")
        };
        let n = moves.len();
        let mut viewer = Viewer::new(instance, moves, "solver: legal and optimal".into());
        let start = screen(&viewer);
        assert!(start.contains("goal piece 2"), "{start}");
        assert!(start.contains(&format!("move 0/{n}")), "{start}");
        assert!(start.contains("die 6 moves 6"), "{start}");
        assert!(start.contains(" X "), "the hole is drawn");
        assert!(
            start.contains("X hole (3,3)"),
            "the legend names the hole:\n{start}"
        );
        assert!(start.contains("* target (0,0)"), "{start}");
        assert!(start.contains("[2]"), "the goal piece is marked");
        viewer.forward();
        assert!(screen(&viewer).contains(&format!("move 1/{n}")));
        viewer.end();
        let end = screen(&viewer);
        assert!(end.contains(&format!("move {n}/{n}")), "{end}");
        assert!(
            end.lines().nth(2).is_some_and(|l| l.contains("[2]")),
            "goal on (0,0):\n{end}"
        );
        viewer.back();
        assert_eq!(viewer.step(), n - 1);
        viewer.start();
        assert_eq!(viewer.step(), 0);
        viewer.back();
        assert_eq!(viewer.step(), 0);
    }
}
