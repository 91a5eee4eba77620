//! `ply mines classic play`: a classic game by hand in a terminal UI, with the solver's hints.

use super::classic::ClassicPlayArgs;
use anyhow::Result;

/// Runs `ply mines classic play`.
pub fn play(args: &ClassicPlayArgs) -> Result<()> {
    let _ = args.board.rules()?;
    anyhow::bail!("the classic terminal game is being built")
}
