//! What the `ply mines` commands and the terminal game share: judging locally with ply's
//! server, and verdicts for people.

use crate::format::shell_quote;
use crate::format::thousands;
use crate::signals::interrupt_flag;
use anyhow::{Context, Result};
use ply_mines::{Ending, JudgeConfig, Verdict, judge};
use std::path::PathBuf;

/// This program's `mines server` as a command line, which replaces its shell (so that the
/// parent-death signal reaches the server itself).
pub(super) fn own_server() -> Result<String> {
    let exe = std::env::current_exe().context("locating the ply executable")?;
    Ok(format!(
        "exec {} mines server",
        shell_quote(&exe.display().to_string())
    ))
}

/// Judges `player` on `map` (no time limit) with ply's server.
pub(crate) fn judge_locally(player: String, map: PathBuf, constant_a: i64) -> Result<Verdict> {
    let config = JudgeConfig {
        player,
        map,
        constant_a,
        time_limit: None,
        server: own_server()?,
    };
    Ok(judge(&config, &interrupt_flag()?)?)
}

/// Prints a verdict for people.
pub(super) fn print_verdict(v: &Verdict) -> std::io::Result<()> {
    let safe_cells = v.n * v.n - v.k;
    outln!("map      {} x {}, {} mines", v.n, v.n, thousands(v.k))?;
    outln!("player   {} after {:.3} s", v.ending, v.elapsed)?;
    match v.time_limit {
        Some(limit) => outln!("limit    {} s", ply_search::messages::short_number(limit))?,
        None => outln!("limit    none")?,
    }
    outln!(
        "safe     {} of {} opened ({:.4} %)",
        thousands(v.safe_opened),
        thousands(safe_cells),
        100.0 * v.safe_opened as f64 / safe_cells.max(1) as f64
    )?;
    outln!(
        "mines    {} opened ({:.4} % of K)",
        thousands(v.mines_opened),
        100.0 * v.mines_opened as f64 / v.k.max(1) as f64
    )?;
    let so_far = if v.ending == Ending::Interrupted {
        ", so far: the game was interrupted"
    } else {
        ""
    };
    outln!("score    {:.3} (A = {}{so_far})", v.score, v.constant_a)?;
    Ok(())
}
