//! `--svg` of `ply ewn solo solve`: the board at the start, and each move of the solution as
//! a numbered arrow.

use std::path::Path;

use anyhow::Result;
use ply_ewn::solo::{HOLE, Instance, SoloMove};

use crate::picture::{
    BALL, BLANK, CELL, Centre, Grid, PATH, Segment, Svg, TILE, WALL, cell, grids, place_labels,
};

/// The board's side.
const SIDE: usize = 10;

/// The height of a move's number.
const LABEL_SIZE: f64 = 9.0;

/// Draws `instance` with the `moves` of its solution and writes the picture to `path`.
///
/// # Errors
/// The file cannot be written.
pub(super) fn save(path: &Path, instance: &Instance, moves: &[SoloMove]) -> Result<()> {
    let draw = |svg: &mut Svg, r: usize, c: usize, x: f64, y: f64| {
        let at = u8::try_from(r * SIDE + c).unwrap_or(u8::MAX);
        if at == HOLE {
            cell(svg, x, y, CELL, WALL, "");
        } else if at == 0 {
            cell(svg, x, y, CELL, TILE, "");
        } else {
            cell(svg, x, y, CELL, BLANK, "");
        }
        if let Some(piece) = instance.cells.iter().position(|&p| p == at) {
            let number = piece + 1;
            let fill = if number == usize::from(instance.goal) {
                PATH
            } else {
                BALL
            };
            svg.circle(x + CELL / 2.0, y + CELL / 2.0, CELL / 3.0, fill);
            svg.text(
                x + CELL / 2.0,
                y + CELL / 2.0 + 5.0,
                13.0,
                "middle",
                &number.to_string(),
            );
        }
    };
    let arrows = |svg: &mut Svg, centre: &Centre<'_>| {
        // Stop short of the centres so that the numbers and pieces stay readable.
        let cut = |a: (f64, f64), b: (f64, f64)| (a.0 + (b.0 - a.0) * 0.2, a.1 + (b.1 - a.1) * 0.2);
        let segments: Vec<Segment> = moves
            .iter()
            .map(|mv| {
                let from = centre(usize::from(mv.from) / SIDE, usize::from(mv.from) % SIDE);
                let to = centre(usize::from(mv.to) / SIDE, usize::from(mv.to) % SIDE);
                (cut(from, to), cut(to, from))
            })
            .collect();
        for &(from, to) in &segments {
            svg.path(&[from, to], PATH, 2.0);
        }
        // The numbers after every arrow, so that none is hidden under a later arrow, and laid
        // out so that none covers another: a piece moved along the same cells again, or
        // crossing arrows, would otherwise print their numbers on top of each other.
        let numbers: Vec<String> = (1..=moves.len()).map(|n| n.to_string()).collect();
        let placed = place_labels(&segments, &numbers, LABEL_SIZE);
        for ((label, number), &(from, to)) in placed.iter().zip(&numbers).zip(&segments) {
            if !label.on_arrow {
                let middle = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
                svg.line(label.centre, middle, PATH, 0.5);
            }
            svg.label(label.centre.0, label.centre.1, LABEL_SIZE, number);
        }
    };
    let title = format!(
        "goal piece {} to (0,0): {} moves; arrows numbered in order, dice {}",
        instance.goal,
        moves.len(),
        instance.dice[..moves.len()]
            .iter()
            .map(u8::to_string)
            .collect::<String>()
    );
    grids(&[vec![Grid {
        title,
        size: CELL,
        rows: SIDE,
        cols: SIDE,
        cell: &draw,
        over: &arrows,
    }]])
    .save(path)
}
