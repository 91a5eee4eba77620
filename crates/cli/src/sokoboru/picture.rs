//! `--svg` of `ply sokoboru solve`: each case's start with the player's walk, beside the
//! position its answer ends in.

use std::path::Path;

use anyhow::Result;
use ply_sokoboru::{Dir, Puzzle, State};

use crate::picture::{
    BALL, BLANK, BOX, CELL, Centre, DrawCell, Grid, PATH, PLAYER, Svg, WALL, cell, grids,
};

/// One case: its puzzle and its answer's moves and penalty, if it has one.
pub(super) struct Answered<'a> {
    /// The case.
    pub puzzle: &'a Puzzle,
    /// Its answer's moves, and whether the answer is proven optimal.
    pub answer: Option<(&'a [Dir], u32, bool)>,
}

/// Draws `state` of `puzzle`.
fn board<'a>(puzzle: &'a Puzzle, state: State) -> impl Fn(&mut Svg, usize, usize, f64, f64) + 'a {
    move |svg: &mut Svg, r: usize, c: usize, x: f64, y: f64| {
        let at = r * puzzle.cols + c;
        let bit = 1u64 << at;
        if puzzle.walls & bit != 0 {
            cell(svg, x, y, CELL, WALL, "");
        } else {
            cell(svg, x, y, CELL, BLANK, "");
            let middle = (x + CELL / 2.0, y + CELL / 2.0);
            if state.empty & bit != 0 || state.full & bit != 0 {
                svg.rect(x + 5.0, y + 5.0, CELL - 10.0, CELL - 10.0, BOX, "none");
            }
            if state.balls & bit != 0 || state.full & bit != 0 {
                svg.circle(middle.0, middle.1, CELL / 4.0, BALL);
            }
            if usize::from(state.player) == at {
                svg.circle(middle.0, middle.1, CELL / 6.0, PLAYER);
            }
        }
    }
}

/// The player's cells along `moves`, and the state they end in (the moves are a checked
/// answer; an illegal one would end the walk there).
fn walk(puzzle: &Puzzle, moves: &[Dir]) -> (Vec<(usize, usize)>, State) {
    let mut state = puzzle.start;
    let at = |s: &State| {
        (
            usize::from(s.player) / puzzle.cols,
            usize::from(s.player) % puzzle.cols,
        )
    };
    let mut cells = vec![at(&state)];
    for &dir in moves {
        let Ok(step) = state.step(puzzle, dir) else {
            break;
        };
        state = step.state;
        cells.push(at(&state));
    }
    (cells, state)
}

/// Draws every case, a row each, and writes the picture to `path`.
///
/// # Errors
/// The file cannot be written.
pub(super) fn save(path: &Path, cases: &[Answered<'_>]) -> Result<()> {
    type Draw<'a> = Box<DrawCell<'a>>;
    let walks: Vec<(Vec<(usize, usize)>, State)> = cases
        .iter()
        .map(|case| walk(case.puzzle, case.answer.map_or(&[][..], |a| a.0)))
        .collect();
    let starts: Vec<Draw<'_>> = cases
        .iter()
        .map(|case| Box::new(board(case.puzzle, case.puzzle.start)) as Draw<'_>)
        .collect();
    let ends: Vec<Draw<'_>> = cases
        .iter()
        .zip(&walks)
        .map(|(case, (_, end))| Box::new(board(case.puzzle, *end)) as Draw<'_>)
        .collect();
    let overs: Vec<_> = walks
        .iter()
        .map(|(cells, _)| {
            move |svg: &mut Svg, centre: &Centre<'_>| {
                let points: Vec<(f64, f64)> = cells.iter().map(|&(r, c)| centre(r, c)).collect();
                svg.path(&points, PATH, 2.5);
            }
        })
        .collect();
    let nothing = |_: &mut Svg, _: &Centre<'_>| {};
    let rows: Vec<Vec<Grid<'_>>> = cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let title = match case.answer {
                Some((moves, penalty, true)) => format!(
                    "case {}: penalty {penalty} (optimal), {} moves",
                    i + 1,
                    moves.len()
                ),
                Some((moves, penalty, false)) => format!(
                    "case {}: penalty {penalty} (not proven optimal), {} moves",
                    i + 1,
                    moves.len()
                ),
                None => format!("case {}: no answer", i + 1),
            };
            vec![
                Grid {
                    title,
                    size: CELL,
                    rows: case.puzzle.rows,
                    cols: case.puzzle.cols,
                    cell: &*starts[i],
                    over: &overs[i],
                },
                Grid {
                    title: "the end".into(),
                    size: CELL,
                    rows: case.puzzle.rows,
                    cols: case.puzzle.cols,
                    cell: &*ends[i],
                    over: &nothing,
                },
            ]
        })
        .collect();
    grids(&rows).save(path)
}
