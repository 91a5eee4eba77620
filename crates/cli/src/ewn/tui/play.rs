//! `ply ewn play`: the duel against an agent or another human, in the terminal.

use super::widgets::{board_widget, dice_widget};
use crate::ewn::args::PlayArgs;
use crate::ewn::ops::builtin_agent;
use anyhow::Result;
use crossterm::event::KeyCode;
use ply_ewn::duel::referee::first_setup;
use ply_ewn::duel::rules::{COLS, ROWS, Undo};
use ply_ewn::duel::{Agent, Board, Color, DuelMove};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};
use std::time::Instant;

/// A game in progress: the board, the moves played, the selection and the opponent.
pub(crate) struct PlayGame {
    board: Board,
    history: Vec<(DuelMove, Undo)>,
    /// The agent and the side it plays, if any.
    opponent: Option<(Box<dyn Agent + Send>, Color)>,
    /// Index of the selected legal move.
    selected: usize,
    /// A cube typed, waiting for its direction.
    cube: Option<u8>,
    message: String,
}

impl PlayGame {
    /// A game from `board`; `opponent` plays the given side (the agent moves at once if it
    /// is its turn).
    pub(crate) fn new(board: Board, opponent: Option<(Box<dyn Agent + Send>, Color)>) -> PlayGame {
        let mut game = PlayGame {
            board,
            history: Vec::new(),
            opponent,
            selected: 0,
            cube: None,
            message: String::new(),
        };
        if let Some((agent, side)) = game.opponent.as_mut() {
            agent.new_game(&game.board, *side);
        }
        game.agent_turn();
        game
    }

    fn agent_turn(&mut self) {
        if let Some((agent, side)) = self.opponent.as_mut()
            && self.board.winner().is_none()
            && self.board.to_move() == *side
        {
            let mv = agent.choose(&self.board, Instant::now());
            agent.observe(&self.board, mv);
            match self.board.play_checked(mv) {
                Ok(undo) => {
                    self.history.push((mv, undo));
                    self.message = format!("agent played {mv}");
                }
                Err(why) => self.message = format!("the agent's move {mv} is illegal: {why}"),
            }
        }
        self.selected = 0;
        self.cube = None;
    }

    /// Plays a move for the human side, then lets the agent answer.
    pub(crate) fn play(&mut self, mv: DuelMove) {
        match self.board.play_checked(mv) {
            Ok(undo) => {
                if let Some((agent, _)) = self.opponent.as_mut() {
                    agent.observe(&self.board, mv);
                }
                self.history.push((mv, undo));
                self.message.clear();
                self.agent_turn();
            }
            Err(why) => self.message = format!("illegal: {why}"),
        }
    }

    /// Takes back the last move (against an agent: the agent's reply and the human's move).
    pub(crate) fn undo(&mut self) {
        let plies = match &self.opponent {
            Some((_, side)) if self.board.winner().is_some() && self.board.to_move() != *side => 1,
            Some(_) => 2,
            None => 1,
        };
        for _ in 0..plies {
            if let Some((mv, undo)) = self.history.pop() {
                self.board.undo(mv, undo);
            }
        }
        if let Some((agent, side)) = self.opponent.as_mut() {
            agent.new_game(&self.board, *side);
            if self.board.to_move() == *side {
                self.agent_turn();
            }
        }
        self.selected = 0;
        self.cube = None;
        self.message = "move taken back".into();
    }

    /// Handles a key; returns false to quit.
    pub(crate) fn press(&mut self, code: KeyCode) -> bool {
        let moves = self.board.moves();
        match code {
            KeyCode::Char('q') | KeyCode::Esc => return false,
            KeyCode::Char('u') | KeyCode::Backspace => self.undo(),
            KeyCode::Right | KeyCode::Down | KeyCode::Tab if !moves.is_empty() => {
                self.selected = (self.selected + 1) % moves.len();
            }
            KeyCode::Left | KeyCode::Up if !moves.is_empty() => {
                self.selected = (self.selected + moves.len() - 1) % moves.len();
            }
            KeyCode::Enter if !moves.is_empty() => {
                let mv = moves[self.selected.min(moves.len() - 1)];
                self.play(mv);
            }
            KeyCode::Char(c @ '0'..='5') if self.cube.is_none() => {
                let cube = c as u8 - b'0';
                if moves.iter().any(|m| m.cube == cube) {
                    self.cube = Some(cube);
                    self.message = format!("cube {cube}: now the direction 0-3");
                } else {
                    self.message = format!("cube {cube} cannot move with die {}", self.board.die());
                }
            }
            KeyCode::Char(c @ '0'..='3') => {
                if let Some(cube) = self.cube.take() {
                    self.play(DuelMove {
                        cube,
                        dir: c as u8 - b'0',
                    });
                }
            }
            _ => {}
        }
        true
    }

    fn selected_move(&self) -> Option<DuelMove> {
        let moves = self.board.moves();
        moves
            .get(self.selected.min(moves.len().saturating_sub(1)))
            .copied()
    }

    /// The cell a move reaches.
    fn target(&self, mv: DuelMove) -> Option<u8> {
        let mut board = self.board.clone();
        board.play_checked(mv).ok()?;
        board.cube_cell(self.board.to_move(), mv.cube)
    }

    fn board_widget(&self) -> Paragraph<'static> {
        let me = self.board.to_move();
        let (cubes, n) = self.board.movable();
        let targets: Vec<u8> = self
            .board
            .moves()
            .iter()
            .filter_map(|&m| self.target(m))
            .collect();
        let chosen = self.selected_move().and_then(|m| self.target(m));
        let over = self.board.winner().is_some();
        board_widget(&self.board, " EWN duel ".into(), |cell, mut style| {
            if over {
                return style;
            }
            if let Some((color, k)) = self.board.at(cell)
                && color == me
                && cubes[..n].contains(&k)
            {
                style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
            }
            if chosen == Some(cell) {
                style.bg(Tint::Yellow).fg(Tint::Black)
            } else if targets.contains(&cell) {
                style.bg(Tint::DarkGray)
            } else {
                style
            }
        })
    }

    fn log_widget(&self, height: usize) -> Paragraph<'_> {
        let first = self.history.len().saturating_sub(height);
        let lines: Vec<Line<'_>> = self
            .history
            .iter()
            .enumerate()
            .skip(first)
            .map(|(i, (mv, _))| {
                let side = if i % 2 == 0 { "red " } else { "blue" };
                Line::from(format!("{:>3}. {side} {mv}", i + 1))
            })
            .collect();
        Paragraph::new(lines).block(Block::bordered().title(" moves "))
    }

    fn status_widget(&self) -> Paragraph<'_> {
        let mut lines = Vec::new();
        match self.board.winner() {
            Some(w) => lines.push(Line::styled(
                format!("*** {w} wins *** (u: take back, q: quit)"),
                Style::default().add_modifier(Modifier::BOLD),
            )),
            None => {
                let selected = self
                    .selected_move()
                    .map_or(String::new(), |m| format!("   selected {m}"));
                lines.push(Line::from(format!(
                    "{} to move, die {}{selected}",
                    self.board.to_move(),
                    self.board.die()
                )));
            }
        }
        lines.push(Line::styled(
            self.message.clone(),
            Style::default().fg(Tint::Yellow),
        ));
        lines.push(Line::from(
            "cube digit then direction digit, or arrows/Tab + Enter; u: undo; q: quit",
        ));
        lines.push(Line::from(
            "directions: red 0 right 1 down 2 down-right 3 up-right; blue the reverse",
        ));
        Paragraph::new(lines)
    }

    /// Draws the screen (fits 80 x 24).
    pub(crate) fn draw(&self, frame: &mut Frame<'_>) {
        let [top, dice, status] = Layout::vertical([
            Constraint::Length(ROWS as u16 + 2),
            Constraint::Length(3),
            Constraint::Min(4),
        ])
        .areas(frame.area());
        let [board, log] =
            Layout::horizontal([Constraint::Length(COLS as u16 * 4 + 2), Constraint::Min(16)])
                .areas(top);
        frame.render_widget(self.board_widget(), board);
        frame.render_widget(
            self.log_widget(usize::from(log.height.saturating_sub(2))),
            log,
        );
        frame.render_widget(dice_widget(&self.board), dice);
        frame.render_widget(self.status_widget(), status);
    }
}

/// Runs `ply ewn play`.
pub(crate) fn run(args: &PlayArgs) -> Result<()> {
    let board = first_setup(args.seed).board()?;
    let opponent = match &args.vs {
        Some(name) => {
            let side = if args.second { Color::Red } else { Color::Blue };
            Some((builtin_agent(name, args.seed)?, side))
        }
        None => None,
    };
    let mut game = PlayGame::new(board, opponent);
    crate::terminal::run_screen("ply ewn play", &mut game)
}

impl crate::terminal::Screen for PlayGame {
    fn draw_screen(&self, frame: &mut Frame<'_>) {
        self.draw(frame);
    }

    /// The board and the log over the dice and five status lines, the widest of them the
    /// directions' (73 columns).
    fn needs(&self) -> (u16, u16) {
        (74, ROWS as u16 + 2 + 3 + 5)
    }

    fn key(&mut self, code: KeyCode) -> Result<bool> {
        Ok(self.press(code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(view: &PlayGame) -> String {
        crate::terminal::render_text(|f| view.draw(f))
    }

    fn start() -> Board {
        let dice = [
            3, 4, 3, 2, 4, 2, 4, 0, 4, 0, 3, 1, 2, 4, 1, 1, 5, 2, 0, 4, 2,
        ];
        Board::new([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], dice).unwrap()
    }

    #[test]
    fn human_against_an_agent_with_undo() {
        let mut game = PlayGame::new(
            start(),
            Some((builtin_agent("hard", 1).unwrap(), Color::Blue)),
        );
        let shown = screen(&game);
        assert!(shown.contains("red to move, die 3"), "{shown}");
        assert_eq!(shown.matches(" B").count(), 6);
        // Cube 3 (on cell 7) moves right by typing 3 then 0; the agent answers at once.
        game.press(KeyCode::Char('3'));
        game.press(KeyCode::Char('0'));
        assert_eq!(game.board.ply(), 2, "agent replied");
        assert!(screen(&game).contains("agent played"));
        game.press(KeyCode::Char('u'));
        assert_eq!(game.board, start(), "undo takes back both plies");
        // A cube the die does not allow is refused with a message.
        game.press(KeyCode::Char('1'));
        assert!(screen(&game).contains("cannot move with die 3"));
        // Selection with arrows and Enter.
        game.press(KeyCode::Right);
        game.press(KeyCode::Enter);
        assert_eq!(game.board.ply(), 2);
        assert!(!game.press(KeyCode::Char('q')));
    }

    #[test]
    fn human_against_human_to_the_end() {
        let mut game = PlayGame::new(start(), None);
        while game.board.winner().is_none() {
            game.press(KeyCode::Enter);
            assert!(game.board.ply() < 500);
        }
        assert!(screen(&game).contains("wins ***"));
        let before = game.board.ply();
        game.press(KeyCode::Char('u'));
        assert_eq!(game.board.ply(), before - 1);
        assert!(builtin_agent("nonsense", 1).is_err());
    }
}
