//! Terminal user interfaces (ratatui).

pub mod ewn_duel;
pub mod ewn_play;
pub mod ewn_solo;
pub mod sokoboru;

use std::io::IsTerminal;

use anyhow::{Result, bail};

/// Fails unless both standard input and output are terminals.
pub fn require_terminal(what: &str) -> Result<()> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!("{what} needs an interactive terminal");
    }
    Ok(())
}
