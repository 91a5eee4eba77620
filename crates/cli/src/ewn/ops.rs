//! What the `ply ewn` commands, the terminal UIs and the demo share: loading, solving with
//! every answer checked, the bundled dice, agents by name, and short in-process matches.

use super::args::MctsArgs;
use crate::format::{read_input, read_parsed};
use anyhow::{Context, Result};
use ply_ewn::duel::agents::{AlphaBetaAgent, MctsAgentConfig, RandomAgent};
use ply_ewn::duel::referee::{AgentPlayer, Player, summarise};
use ply_ewn::duel::{
    Agent, COURSE_DICE, DICE, DeepAgent, MatchConfig, agent_by_name, course_dice, parse_dice_file,
    run_match,
};
use ply_ewn::solo::{Instance, SoloMove, SoloReport, Verdict, check};
use ply_search::{Limits, MctsConfig};
use std::ffi::OsString;
use std::time::Duration;

/// Reads one instance, naming the file in errors.
pub(super) fn load_instance(path: impl AsRef<std::path::Path>) -> Result<Instance> {
    read_parsed(path, Instance::parse)
}

/// Solves with ply-ewn's checked solve: the solution is replayed through the checker before
/// anyone sees it.
pub(crate) fn solve_checked(instance: &Instance, limits: &Limits) -> Result<SoloReport> {
    Ok(ply_ewn::solo::solve_checked(instance, limits)?)
}

/// One line describing a move, for `--explain` and the viewer.
pub(super) fn describe(index: usize, die: u8, mv: &SoloMove) -> String {
    let cell = |c: u8| format!("({},{})", c / 10, c % 10);
    let capture = match mv.captured {
        0 => String::new(),
        p => format!(", captures piece {p}"),
    };
    format!(
        "move {:>2}: die {die}, piece {} {} -> {}{capture}",
        index + 1,
        mv.piece,
        cell(mv.from),
        cell(mv.to)
    )
}

/// The verdict of a solution for the viewer's status line.
pub(super) fn verdict_for(
    instance: &Instance,
    moves: &[SoloMove],
    optimum: Option<u32>,
) -> Verdict {
    let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
    check(instance, &pairs, optimum)
}

/// The dice sequences of `--dice-file` (`path`), or the course's when there is none.
pub(super) fn dice_lines(path: Option<&String>) -> Result<Vec<[u8; DICE]>> {
    let text = match path {
        Some(path) => read_input(path)?,
        None => COURSE_DICE.to_string(),
    };
    parse_dice_file(&text).with_context(|| path.cloned().unwrap_or("bundled dice".into()))
}

pub(super) use ply_search::messages::short_number;

/// `secs` as a move's time (more than zero, at most a day: ply-search's
/// [`SecondsRule::MoveTime`](ply_search::SecondsRule::MoveTime)), or a usage error naming the
/// option.
pub(super) fn positive_seconds(secs: f64, option: &str) -> Result<Duration> {
    ply_search::SecondsRule::MoveTime
        .named(option, secs)
        .map_err(|bad| crate::outcome::usage(bad.to_string()))
}

pub(super) use crate::batch::{LogMode, open_log};

/// Rewrites the course's single-dash spellings `-p0 CMD` and `-p1 CMD` to `--p0` and `--p1`;
/// every other argument, UTF-8 or not, passes unchanged.
pub(crate) fn course_spellings(args: impl Iterator<Item = OsString>) -> Vec<OsString> {
    args.map(|a| match a.to_str() {
        Some("-p0") => "--p0".into(),
        Some("-p1") => "--p1".into(),
        _ => a,
    })
    .collect()
}

impl MctsArgs {
    /// The agent's configuration.
    pub(crate) fn config(&self) -> Result<MctsAgentConfig> {
        let move_time = positive_seconds(self.move_time, "--move-time")?;
        if !(0.0..=1.0).contains(&self.minimax) {
            return Err(crate::outcome::usage(format!(
                "--minimax {} is outside 0-1",
                short_number(self.minimax)
            )));
        }
        if !(self.exploration >= 0.0 && self.exploration.is_finite()) {
            return Err(crate::outcome::usage(format!(
                "--exploration {} is not a finite non-negative number",
                short_number(self.exploration)
            )));
        }
        let defaults = MctsAgentConfig::default();
        Ok(MctsAgentConfig {
            move_time,
            search: MctsConfig {
                exploration: self.exploration,
                minimax: self.minimax,
                solver: !self.no_solver,
                ..defaults.search
            },
            reuse: !self.no_reuse,
            seed: self.seed,
        })
    }
}

/// Builds a built-in agent from its name (the library's [`agent_by_name`]); an unknown name is
/// a usage error.
///
/// # Errors
/// An unknown name.
pub(super) fn builtin_agent(name: &str, seed: u64) -> Result<Box<dyn Agent + Send>> {
    agent_by_name(name, seed).map_err(|unknown| crate::outcome::usage(unknown.to_string()))
}

/// A short in-process match for the demo: `games` games on the course's dice (seed 1),
/// first mover alternating. Returns player 0's wins and its average move time.
pub(super) fn demo_match(
    p0: &mut dyn Player,
    p1: &mut dyn Player,
    games: u32,
) -> Result<(u32, f64)> {
    let dice = course_dice();
    let config = MatchConfig {
        rounds: games,
        seed: 1,
        dice,
        move_time: Duration::from_secs(2),
    };
    let names = [p0.name().to_string(), p1.name().to_string()];
    let records = run_match(&mut [p0, p1], &config, |_| {});
    let summary = summarise(&records, [names[0].as_str(), names[1].as_str()]);
    Ok((summary[0].wins, summary[0].average_move))
}

/// The demo's baseline match: alpha-beta depth 8 against random.
pub(crate) fn demo_duel(games: u32) -> Result<(u32, f64)> {
    let mut ab = AgentPlayer::new("alphabeta-8", AlphaBetaAgent::new(8, false));
    let mut random = AgentPlayer::new("random", RandomAgent::new(1));
    demo_match(&mut ab, &mut random, games)
}

/// The demo's match of ply's strongest agent, `move_time` per move, against alpha-beta
/// depth 8.
pub(crate) fn demo_deep(games: u32, move_time: Duration) -> Result<(u32, f64)> {
    let mut deep = AgentPlayer::new("deep", DeepAgent::new(move_time));
    let mut ab = AgentPlayer::new("alphabeta-8", AlphaBetaAgent::new(8, false));
    demo_match(&mut deep, &mut ab, games)
}
