//! What the solver clicks through: a channel to a server, or a game in this process.

use crate::client::ClickResult;
use crate::error::MinesError;
use crate::game::{Click, Game};
use crate::opening::Expander;
use crate::protocol::Entry;

/// How a click came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The cell is a mine.
    Mine,
    /// The cell was already open; whether it is a mine.
    Skipped {
        /// Whether it is a mine.
        mine: bool,
    },
    /// Safe: the opened cells are in the output.
    Opened,
}

/// Something that clicks cells: a channel to a server, or a game in this process.
///
/// A click is sent ([`Clicker::submit`]) and its answer collected later
/// ([`Clicker::finish`]), so a player can work while the server answers; at most one click
/// is in flight.
pub trait Clicker {
    /// Sends a click on (r, c): with `expand`, `click(r, c, skip_when_reopen = true)`, else
    /// `click_do_not_expand`.
    ///
    /// # Errors
    /// When the request cannot be sent.
    fn submit(&mut self, r: u32, c: u32, expand: bool) -> Result<(), MinesError>;

    /// Whether the click in flight is answered (so [`Clicker::finish`] will not wait).
    fn answered(&self) -> bool;

    /// Waits for the answer to the click in flight. Opened cells are appended to `out`.
    ///
    /// # Errors
    /// When the server breaks the protocol or the pipes fail.
    fn finish(&mut self, out: &mut Vec<Entry>) -> Result<Reply, MinesError>;
}

impl Clicker for crate::client::Channel<'_> {
    fn submit(&mut self, r: u32, c: u32, expand: bool) -> Result<(), MinesError> {
        self.send(r, c, expand, !expand)
    }

    fn answered(&self) -> bool {
        crate::client::Channel::answered(self)
    }

    fn finish(&mut self, out: &mut Vec<Entry>) -> Result<Reply, MinesError> {
        Ok(match self.answer()? {
            ClickResult::Mine => Reply::Mine,
            ClickResult::Skipped { mine } => Reply::Skipped { mine },
            ClickResult::Opened(cells) => {
                out.extend_from_slice(cells);
                Reply::Opened
            }
        })
    }
}

/// Clicks on a [`Game`] in this process (tests, benchmarks of the logic alone): a click is
/// answered as soon as it is submitted.
pub struct LocalClicker<'g> {
    game: &'g Game,
    expander: Expander,
    /// The answer to the click in flight, and its opened cells.
    answer: Option<Reply>,
    opened: Vec<Entry>,
}

impl<'g> LocalClicker<'g> {
    /// A clicker on `game`.
    #[must_use]
    pub fn new(game: &'g Game) -> Self {
        LocalClicker {
            game,
            expander: Expander::default(),
            answer: None,
            opened: Vec::new(),
        }
    }
}

impl Clicker for LocalClicker<'_> {
    fn submit(&mut self, r: u32, c: u32, expand: bool) -> Result<(), MinesError> {
        let got = self.game.click(
            r as u16,
            c as u16,
            expand,
            !expand,
            &mut self.expander,
            &mut self.opened,
            usize::MAX,
        );
        self.answer = Some(match got {
            Ok(Click::Mine) => Reply::Mine,
            Ok(Click::Skipped { mine }) => Reply::Skipped { mine },
            Ok(Click::Opened(_)) => Reply::Opened,
            Err(_) => unreachable!("no cap on local openings"),
        });
        Ok(())
    }

    fn answered(&self) -> bool {
        self.answer.is_some()
    }

    fn finish(&mut self, out: &mut Vec<Entry>) -> Result<Reply, MinesError> {
        let answer = self.answer.take().ok_or_else(|| {
            MinesError::Protocol("no click in flight to collect an answer for".into())
        })?;
        out.append(&mut self.opened);
        Ok(answer)
    }
}
