//! `ply ewn replay`: a logged duel game, stepped through in the terminal.

use super::widgets::{board_widget, dice_widget};
use crate::ewn::args::ReplayArgs;
use crate::ewn::ops::load_game;
use crate::format::read_input;
use anyhow::Result;
use crossterm::event::KeyCode;
use ply_ewn::duel::{Board, COLS, End, GameRecord, ROWS};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// A logged game and the current step.
pub struct Replay {
    record: GameRecord,
    positions: Vec<Board>,
    step: usize,
}

impl Replay {
    /// A replay of `record`.
    ///
    /// # Errors
    /// When the logged setup is invalid.
    pub fn new(record: GameRecord) -> Result<Replay> {
        let positions = record.positions()?;
        Ok(Replay {
            record,
            positions,
            step: 0,
        })
    }

    /// Moves `delta` steps (clamped to the game).
    pub fn step_by(&mut self, delta: isize) {
        let last = self.positions.len() - 1;
        self.step = self.step.saturating_add_signed(delta).min(last);
    }

    fn board(&self) -> Paragraph<'static> {
        board_widget(
            &self.positions[self.step],
            format!(" game {} ", self.record.game),
            |_, style| style,
        )
    }

    fn status(&self) -> Paragraph<'_> {
        let board = &self.positions[self.step];
        let last = self.positions.len() - 1;
        let mut lines = vec![Line::from(format!(
            "move {}/{}   red: p{}   to move: {} with die {}",
            self.step,
            self.record.moves.len(),
            self.record.red_player,
            board.to_move(),
            board.die()
        ))];
        if self.step > 0 {
            let m = &self.record.moves[self.step - 1];
            lines.push(Line::from(format!(
                "last: p{} played {} in {:.3} s",
                m.player, m.mv, m.secs
            )));
        }
        if self.step == last {
            let how = match &self.record.end {
                End::Corner => "by reaching the corner".to_string(),
                End::Captures => "by capturing every cube".to_string(),
                End::Forfeit(why) => format!("by forfeit: {why}"),
            };
            lines.push(Line::styled(
                format!("p{} wins {how}", self.record.winner),
                Style::default().add_modifier(Modifier::BOLD),
            ));
        }
        lines.push(Line::from(
            "<- h / -> l space: step   g / G: start / end   q: quit",
        ));
        Paragraph::new(lines)
    }

    /// Draws the screen (fits 80 x 24).
    pub fn draw(&self, frame: &mut Frame<'_>) {
        let [board, dice, status] = Layout::vertical([
            Constraint::Length(ROWS as u16 + 2),
            Constraint::Length(3),
            Constraint::Min(4),
        ])
        .areas(frame.area());
        let [board, _] =
            Layout::horizontal([Constraint::Length(COLS as u16 * 4 + 2), Constraint::Min(0)])
                .areas(board);
        frame.render_widget(self.board(), board);
        frame.render_widget(dice_widget(&self.positions[self.step]), dice);
        frame.render_widget(self.status(), status);
    }
}

impl crate::terminal::Screen for Replay {
    fn draw_screen(&self, frame: &mut Frame<'_>) {
        self.draw(frame);
    }

    fn key(&mut self, code: KeyCode) -> Result<bool> {
        match code {
            KeyCode::Char('q') | KeyCode::Esc => return Ok(false),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => self.step_by(1),
            KeyCode::Left | KeyCode::Char('h') => self.step_by(-1),
            KeyCode::Home | KeyCode::Char('g') => self.step_by(-1000),
            KeyCode::End | KeyCode::Char('G') => self.step_by(1000),
            _ => {}
        }
        Ok(true)
    }
}

/// Runs the replay until the user quits.
pub fn run(args: &ReplayArgs) -> Result<()> {
    let record = load_game(&read_input(&args.log)?, args.game, &args.log)?;
    let mut replay = Replay::new(record)?;
    crate::terminal::run_screen("ply ewn replay", &mut replay)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ewn::ops::COURSE_DICE;
    use ply_ewn::duel::{AgentPlayer, MatchConfig, RandomAgent, parse_dice_file, run_match};

    fn screen(view: &Replay) -> String {
        crate::terminal::render_text(|f| view.draw(f))
    }

    #[test]
    fn replays_a_logged_game() {
        let config = MatchConfig {
            rounds: 1,
            seed: 4,
            dice: parse_dice_file(COURSE_DICE).unwrap(),
            move_time: std::time::Duration::from_secs(2),
        };
        let mut a = AgentPlayer::new("a", RandomAgent::new(1));
        let mut b = AgentPlayer::new("b", RandomAgent::new(2));
        let records = run_match(&mut [&mut a, &mut b], &config, |_| {});
        let log = format!("{}\n", serde_json::to_string(&records[0]).unwrap());
        let record = load_game(&log, 1, "log").unwrap();
        assert!(load_game(&log, 2, "log").is_err());
        let n = record.moves.len();
        let mut replay = Replay::new(record).unwrap();
        let start = screen(&replay);
        assert!(start.contains(&format!("move 0/{n}")), "{start}");
        assert_eq!(start.matches(" R").count(), 6);
        replay.step_by(1000);
        let end = screen(&replay);
        assert!(end.contains(&format!("move {n}/{n}")));
        assert!(end.contains("wins by"), "{end}");
    }
}
