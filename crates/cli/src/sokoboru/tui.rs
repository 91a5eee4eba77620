//! `ply sokoboru play`: the game in the terminal, recording solutions with their true penalty.

use super::args::PlayArgs;
use super::ops::load_puzzles;
use anyhow::{Context, Result};
use crossterm::event::KeyCode;
use ply_search::Limits;
use ply_sokoboru::{Dir, Puzzle, State, solve};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use std::fmt::Write as _;
use std::time::Duration;

/// The hint search's time: enough for the bundled files' hardest positions, bounded so that
/// a hopeless position says so. The search runs in the background; the game stays live.
const HINT_TIME: Duration = Duration::from_secs(20);

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    /// Move the player.
    Move(Dir),
    /// Take back the last move.
    Undo,
    /// Back to the stage's start.
    Restart,
    /// The next stage.
    Next,
    /// The previous stage.
    Previous,
    /// Leave the game.
    Quit,
}

impl Action {
    /// The action of a key, if any.
    pub(super) fn of(code: KeyCode) -> Option<Action> {
        Some(match code {
            KeyCode::Up | KeyCode::Char('k') => Action::Move(Dir::Up),
            KeyCode::Down | KeyCode::Char('j') => Action::Move(Dir::Down),
            KeyCode::Left | KeyCode::Char('h') => Action::Move(Dir::Left),
            KeyCode::Right | KeyCode::Char('l') => Action::Move(Dir::Right),
            KeyCode::Char('u') | KeyCode::Backspace => Action::Undo,
            KeyCode::Char('r') => Action::Restart,
            KeyCode::Char('n') | KeyCode::PageDown => Action::Next,
            KeyCode::Char('p') | KeyCode::PageUp => Action::Previous,
            KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
            _ => return None,
        })
    }
}

/// A hint search running on its own thread: the moves of an optimal solution, or why none
/// was found.
type HintSearch = std::thread::JoinHandle<Result<Vec<Dir>, String>>;

/// The game: the puzzles, the current stage's moves and history, the best solution of each
/// stage, and the hint.
pub(super) struct Game {
    puzzles: Vec<Puzzle>,
    stage: usize,
    /// States before each move and after the last, with the penalty so far.
    history: Vec<(State, u32)>,
    moves: Vec<Dir>,
    /// The cheapest solution recorded per stage: penalty and moves.
    best: Vec<Option<(u32, Vec<Dir>)>>,
    hints: bool,
    /// The rest of an optimal solution from the current state, when known.
    plan: Option<Vec<Dir>>,
    /// The hint search running in the background, and the state it is for.
    searching: Option<(State, HintSearch)>,
    message: String,
}

impl Game {
    /// A game of `puzzles` from `stage` (0-based, clamped), with hints when `hints`.
    pub(super) fn new(puzzles: Vec<Puzzle>, stage: usize, hints: bool) -> Game {
        let best = vec![None; puzzles.len()];
        let stage = stage.min(puzzles.len().saturating_sub(1));
        let mut game = Game {
            puzzles,
            stage,
            history: Vec::new(),
            moves: Vec::new(),
            best,
            hints,
            plan: None,
            searching: None,
            message: String::new(),
        };
        game.restart();
        game
    }

    fn puzzle(&self) -> &Puzzle {
        &self.puzzles[self.stage]
    }

    /// The current state and the penalty so far.
    pub(super) fn current(&self) -> (State, u32) {
        *self.history.last().expect("the history holds the start")
    }

    /// Whether the current stage is solved.
    pub(super) fn solved(&self) -> bool {
        self.current().0.is_solved()
    }

    /// Applies an action; returns whether a solution was just recorded.
    pub(super) fn apply(&mut self, action: Action) -> bool {
        match action {
            Action::Move(dir) => return self.play(dir),
            Action::Undo => {
                if self.history.len() > 1 {
                    self.history.pop();
                    self.moves.pop();
                    self.plan = None;
                    self.message.clear();
                }
            }
            Action::Restart => self.restart(),
            Action::Next => self.go_to(self.stage + 1),
            Action::Previous => self.go_to(self.stage.saturating_sub(1)),
            Action::Quit => {}
        }
        self.refresh_hint();
        false
    }

    fn go_to(&mut self, stage: usize) {
        if stage < self.puzzles.len() {
            self.stage = stage;
            self.restart();
        }
    }

    fn restart(&mut self) {
        self.history = vec![(self.puzzle().start, 0)];
        self.moves.clear();
        self.plan = None;
        self.message.clear();
        self.refresh_hint();
    }

    fn play(&mut self, dir: Dir) -> bool {
        let (state, penalty) = self.current();
        if state.is_solved() {
            self.message = "solved: press n for the next stage, u to undo, r to restart".into();
            return false;
        }
        match state.step(self.puzzle(), dir) {
            Ok(step) => {
                self.history.push((step.state, penalty + step.cost));
                self.moves.push(dir);
                self.message.clear();
                match &mut self.plan {
                    Some(plan) if plan.first() == Some(&dir) => {
                        plan.remove(0);
                    }
                    _ => self.plan = None,
                }
                if step.state.is_solved() {
                    return self.record();
                }
                self.refresh_hint();
                false
            }
            Err(why) => {
                self.message = format!("illegal move '{}': {why}", dir.symbol());
                false
            }
        }
    }

    fn record(&mut self) -> bool {
        let penalty = self.current().1;
        let better = self.best[self.stage]
            .as_ref()
            .is_none_or(|(best, _)| penalty < *best);
        if better {
            self.best[self.stage] = Some((penalty, self.moves.clone()));
        }
        better
    }

    /// Starts a hint search for the current state, unless one is known or running (one at
    /// a time: a search for a state already left finishes first, and [`Game::tick`] then
    /// starts the one for the state the player is at).
    fn refresh_hint(&mut self) {
        if !self.hints || self.plan.is_some() || self.solved() || self.searching.is_some() {
            return;
        }
        let state = self.current().0;
        let puzzle = self.puzzle().with_start(state);
        let search = std::thread::spawn(move || {
            let limits = Limits::UNLIMITED.with_max_time(HINT_TIME);
            solve(&puzzle, limits)
                .map(|solution| solution.moves)
                .map_err(|why| why.to_string())
        });
        self.searching = Some((state, search));
    }

    /// Takes the hint search's answer when it is done; returns whether the game changed.
    pub(super) fn tick(&mut self) -> bool {
        let done = self
            .searching
            .as_ref()
            .is_some_and(|(_, search)| search.is_finished());
        if !done {
            return false;
        }
        let (state, search) = self.searching.take().expect("a search is running");
        let answer = search
            .join()
            .unwrap_or_else(|_| Err("the hint search failed".into()));
        if state == self.current().0 && self.plan.is_none() {
            match answer {
                Ok(moves) => self.plan = Some(moves),
                Err(why) => self.message = format!("no hint: {why}"),
            }
        }
        self.refresh_hint();
        true
    }

    /// The next move of an optimal solution from here, when known.
    pub(super) fn hint(&self) -> Option<Dir> {
        self.plan.as_ref().and_then(|p| p.first().copied())
    }

    /// The solution file of every stage: the best recorded solution, or penalty 0 and no
    /// moves for a stage not solved yet (which the verifier rejects as unsolved).
    pub(super) fn solution_file(&self) -> String {
        let mut out = String::new();
        for best in &self.best {
            match best {
                Some((penalty, moves)) => {
                    let moves: String = moves.iter().map(|d| d.symbol()).collect();
                    let _ = writeln!(out, "{penalty}\n{moves}");
                }
                None => out.push_str("0\n\n"),
            }
        }
        out
    }

    fn board(&self) -> Paragraph<'_> {
        let puzzle = self.puzzle();
        let (state, _) = self.current();
        let mut lines = Vec::with_capacity(puzzle.rows);
        for r in 0..puzzle.rows {
            let spans: Vec<Span<'_>> = (0..puzzle.cols)
                .map(|c| {
                    let cell = r * puzzle.cols + c;
                    let bit = 1u64 << cell;
                    let (text, style) = if puzzle.walls & bit != 0 {
                        ("##", Style::default().fg(Color::DarkGray))
                    } else if usize::from(state.player) == cell {
                        (
                            "@ ",
                            Style::default()
                                .fg(Color::Yellow)
                                .add_modifier(Modifier::BOLD),
                        )
                    } else if state.balls & bit != 0 {
                        ("O ", Style::default().fg(Color::Red))
                    } else if state.empty & bit != 0 {
                        ("$ ", Style::default().fg(Color::Cyan))
                    } else if state.full & bit != 0 {
                        ("* ", Style::default().fg(Color::Green))
                    } else {
                        ("- ", Style::default().fg(Color::DarkGray))
                    };
                    Span::styled(text, style)
                })
                .collect();
            lines.push(Line::from(spans));
        }
        Paragraph::new(lines).block(Block::bordered().title(format!(
            " stage {}/{} ",
            self.stage + 1,
            self.puzzles.len()
        )))
    }

    /// The status lines: penalty, solved, best, hint, message, the last moves and the keys.
    fn status(&self) -> Paragraph<'_> {
        let (state, penalty) = self.current();
        let mut lines = vec![Line::from(format!(
            "penalty {penalty}   moves {}   empty boxes left {}",
            self.moves.len(),
            state.empty.count_ones()
        ))];
        if state.is_solved() {
            lines.push(Line::styled(
                format!("*** SOLVED with penalty {penalty} ***"),
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Green)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        if let Some((best, _)) = &self.best[self.stage] {
            lines.push(Line::from(format!("best recorded: penalty {best}")));
        }
        if self.hints && !state.is_solved() {
            lines.push(Line::from(match self.hint() {
                Some(dir) => format!("hint: {}", dir.symbol()),
                None if self.searching.is_some() => "hint: thinking...".to_string(),
                None => "hint: none".to_string(),
            }));
        }
        if !self.message.is_empty() {
            lines.push(Line::styled(
                self.message.clone(),
                Style::default().fg(Color::Red),
            ));
        }
        let tail: String = {
            let symbols: Vec<char> = self.moves.iter().map(|d| d.symbol()).collect();
            let start = symbols.len().saturating_sub(70);
            symbols[start..].iter().collect()
        };
        lines.push(Line::from(tail));
        lines.push(Line::from(
            "arrows/hjkl: move  u: undo  r: restart  n/p: next/previous stage  q: quit",
        ));
        Paragraph::new(lines)
    }

    /// The columns and rows the stage in hand needs: its board (two columns a cell, and a
    /// border) over the status lines ([`STATUS_LINES`], the widest [`STATUS_COLUMNS`]).
    pub(super) fn needs(&self) -> (u16, u16) {
        let rows = u16::try_from(self.puzzle().rows).unwrap_or(u16::MAX);
        let cols = u16::try_from(self.puzzle().cols * 2).unwrap_or(u16::MAX);
        (
            cols.saturating_add(2).max(STATUS_COLUMNS),
            rows.saturating_add(2 + STATUS_LINES),
        )
    }

    /// Draws the whole screen (fits 80 x 24).
    pub(super) fn draw(&self, frame: &mut Frame<'_>) {
        let height = u16::try_from(self.puzzle().rows).unwrap_or(15) + 2;
        let width = u16::try_from(self.puzzle().cols * 2).unwrap_or(30) + 2;
        let [top, status] =
            Layout::vertical([Constraint::Length(height), Constraint::Min(5)]).areas(frame.area());
        let [board, _] =
            Layout::horizontal([Constraint::Length(width.max(16)), Constraint::Min(0)]).areas(top);
        frame.render_widget(self.board(), board);
        frame.render_widget(self.status(), status);
    }
}

/// Runs the game until the user quits, writing the solution file after every recorded solve.
pub(super) fn run(args: &PlayArgs) -> Result<()> {
    let puzzles = load_puzzles(&args.input)?;
    let stage = usize::try_from(args.stage).unwrap_or(usize::MAX);
    if stage == 0 || stage > puzzles.len() {
        return Err(crate::outcome::usage(format!(
            "stage {} does not exist: the file has stages 1 to {}",
            args.stage,
            puzzles.len()
        )));
    }
    let mut screen = PlayScreen {
        game: Game::new(puzzles, stage - 1, args.hint),
        output: args.output.clone(),
    };
    crate::terminal::run_screen("ply sokoboru play", &mut screen)
}

/// The most status lines the game shows under the board.
const STATUS_LINES: u16 = 7;

/// The widest status line: the keys' help.
const STATUS_COLUMNS: u16 = 75;

/// The game with the file its solutions are recorded in.
struct PlayScreen {
    game: Game,
    output: Option<std::path::PathBuf>,
}

impl crate::terminal::Screen for PlayScreen {
    fn draw_screen(&self, frame: &mut Frame<'_>) {
        self.game.draw(frame);
    }

    fn needs(&self) -> (u16, u16) {
        self.game.needs()
    }

    fn key(&mut self, code: KeyCode) -> Result<bool> {
        let Some(action) = Action::of(code) else {
            return Ok(true);
        };
        if action == Action::Quit {
            return Ok(false);
        }
        if self.game.apply(action)
            && let Some(path) = &self.output
        {
            std::fs::write(path, self.game.solution_file())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(true)
    }

    fn tick(&mut self) -> bool {
        self.game.tick()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_sokoboru::{check_case, parse_puzzles, parse_solutions};

    fn screen(view: &Game) -> String {
        crate::terminal::render_text(|f| view.draw(f))
    }

    const FILE: &str = "2 3\n@*-\n-O$\n2 3\n@O$\n---\n";

    #[test]
    fn plays_records_the_true_penalty_and_undoes() {
        let puzzles = parse_puzzles(FILE).unwrap();
        let mut game = Game::new(puzzles.clone(), 0, false);
        assert!(screen(&game).contains("stage 1/2"));
        // Push the full box (2), walk round (1 + 1), push the ball into the box (1).
        assert!(!game.apply(Action::Move(Dir::Right)));
        assert!(screen(&game).contains("penalty 2"));
        assert!(!game.apply(Action::Move(Dir::Left)));
        game.apply(Action::Undo);
        assert_eq!(game.current().1, 2);
        assert!(!game.apply(Action::Move(Dir::Left)));
        assert!(!game.apply(Action::Move(Dir::Down)));
        assert!(game.apply(Action::Move(Dir::Right)), "solved and recorded");
        let shown = screen(&game);
        assert!(shown.contains("SOLVED with penalty 5"), "{shown}");
        game.apply(Action::Move(Dir::Left));
        assert!(screen(&game).contains("solved: press n"));
        game.apply(Action::Next);
        assert_eq!(game.stage, 1);
        game.apply(Action::Move(Dir::Left));
        assert!(screen(&game).contains("illegal move '<'"));
        let file = game.solution_file();
        assert!(file.starts_with("5\n><v>\n"), "{file}");
        let entries = parse_solutions(&file).unwrap();
        assert!(check_case(1, &puzzles[0], &entries[0]).is_ok());
        assert!(check_case(2, &puzzles[1], &entries[1]).is_err());
    }

    #[test]
    fn hints_follow_an_optimal_solution() {
        let text = include_str!("../../../../data/sokoboru/tiny.in");
        let puzzles = parse_puzzles(text).unwrap();
        let mut game = Game::new(puzzles, 1, true);
        let mut steps = 0;
        while !game.solved() {
            // The hint is searched in the background; the game answers keys meanwhile.
            while game.hint().is_none() {
                assert!(game.searching.is_some(), "a hint is being searched");
                if !game.tick() {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            }
            let dir = game.hint().expect("a hint");
            assert!(screen(&game).contains(&format!("hint: {}", dir.symbol())));
            game.apply(Action::Move(dir));
            steps += 1;
            assert!(steps < 100);
        }
        assert_eq!(game.current().1, 14, "the case's known optimum");
        game.apply(Action::Restart);
        assert!(game.moves.is_empty());
    }
}
