//! `ply ewn replay`: a logged duel game, stepped through in the terminal.

use super::widgets::{board_widget, dice_widget};
use crate::ewn::args::ReplayArgs;
use anyhow::{Context, Result, anyhow, bail};
use crossterm::event::KeyCode;
use ply_ewn::duel::Board;
use ply_ewn::duel::referee::{End, GameRecord};
use ply_ewn::duel::rules::{COLS, ROWS};
use ply_ewn::duel::tournament::{DuelLog, LoggedGame, read_log};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use std::io::BufRead;

/// A logged game and the current step.
pub(crate) struct Replay {
    record: GameRecord,
    /// The names of the record's players 0 and 1.
    names: [String; 2],
    positions: Vec<Board>,
    step: usize,
}

impl Replay {
    /// A replay of a logged game.
    ///
    /// # Errors
    /// When the logged setup is invalid.
    pub(crate) fn new(game: LoggedGame) -> Result<Replay> {
        let positions = game.record.positions()?;
        Ok(Replay {
            record: game.record,
            names: game.names,
            positions,
            step: 0,
        })
    }

    /// Player `p`'s name as the screen shows it: `p0 NAME`, or `p0` for a host log's.
    fn player(&self, p: usize) -> String {
        let name = &self.names[p.min(1)];
        if *name == format!("p{p}") {
            name.clone()
        } else {
            format!("p{p} {name}")
        }
    }

    /// Moves `delta` steps (clamped to the game).
    pub(crate) fn step_by(&mut self, delta: isize) {
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
            "move {}/{}   red: {}   to move: {} with die {}",
            self.step,
            self.record.moves.len(),
            self.player(self.record.red_player),
            board.to_move(),
            board.die()
        ))];
        if self.step > 0 {
            let m = &self.record.moves[self.step - 1];
            lines.push(Line::from(format!(
                "last: {} played {} in {:.3} s",
                self.player(m.player),
                m.mv,
                m.secs
            )));
        }
        if self.step == last {
            let how = match &self.record.end {
                End::Corner => "by reaching the corner".to_string(),
                End::Captures => "by capturing every cube".to_string(),
                End::Forfeit(why) => format!("by forfeit: {why}"),
            };
            lines.push(Line::styled(
                format!("{} wins {how}", self.player(self.record.winner)),
                Style::default().add_modifier(Modifier::BOLD),
            ));
        }
        lines.push(Line::from(
            "<- h / -> l space: step   g / G: start / end   q: quit",
        ));
        Paragraph::new(lines)
    }

    /// Draws the screen (fits 80 x 24).
    pub(crate) fn draw(&self, frame: &mut Frame<'_>) {
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

    /// The board over the dice and four status lines, the widest of them the keys' help.
    fn needs(&self) -> (u16, u16) {
        (56, ROWS as u16 + 2 + 3 + 4)
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

/// Reads the host or tournament log at `path` (`-`: standard input), naming the file and
/// line of anything wrong with it.
pub(crate) fn load_log(path: &str) -> Result<DuelLog> {
    let input: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("cannot read {path}"))?;
        Box::new(std::io::BufReader::new(file))
    };
    let name = if path == "-" { "<stdin>" } else { path };
    let log = read_log(input).map_err(|e| anyhow!("{name}:{}: {}", e.line, e.problem))?;
    if let Some(line) = log.unfinished {
        errln!("ply: note: {name}:{line}: the last line is unfinished; it is left out");
    }
    Ok(log)
}

/// Game `game` of `log` (read from `path`), or an error saying which games it holds.
pub(crate) fn logged_game(log: &DuelLog, game: u32, path: &str) -> Result<LoggedGame> {
    if let Some(found) = log.game(game) {
        return Ok(found.clone());
    }
    let numbers = log.games.iter().map(|g| g.record.game);
    match (numbers.clone().min(), numbers.max()) {
        (Some(low), Some(high)) => bail!(
            "{path}: no game {game}: the log holds {}, numbered {low} to {high}",
            crate::format::plural(log.games.len() as u64, "game")
        ),
        _ => bail!("{path}: no game {game}: the log holds no game"),
    }
}

/// Runs the replay until the user quits.
pub(crate) fn run(args: &ReplayArgs) -> Result<()> {
    let log = load_log(&args.log)?;
    let game = logged_game(&log, args.game, &args.log)?;
    let mut replay = Replay::new(game)?;
    crate::terminal::run_screen("ply ewn replay", &mut replay)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_ewn::duel::COURSE_DICE;
    use ply_ewn::duel::agents::RandomAgent;
    use ply_ewn::duel::referee::AgentPlayer;
    use ply_ewn::duel::tournament::record_line;
    use ply_ewn::duel::{MatchConfig, parse_dice_file, run_match};

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
        let text = format!("{}\n", record_line(&records[0]));
        let log = read_log(text.as_bytes()).unwrap();
        let game = logged_game(&log, 1, "log").unwrap();
        let missing = logged_game(&log, 2, "log").unwrap_err().to_string();
        assert_eq!(
            missing,
            "log: no game 2: the log holds 1 game, numbered 1 to 1"
        );
        let n = game.record.moves.len();
        let mut replay = Replay::new(game).unwrap();
        let start = screen(&replay);
        assert!(start.contains(&format!("move 0/{n}")), "{start}");
        assert!(start.contains("red: p0 "), "{start}");
        assert_eq!(start.matches(" R").count(), 6);
        replay.step_by(1000);
        let end = screen(&replay);
        assert!(end.contains(&format!("move {n}/{n}")));
        assert!(end.contains("wins by"), "{end}");
    }
}
