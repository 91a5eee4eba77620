//! `--svg` of `ply npuzzle solve`: each solved board drawn with the blank's path, beside its
//! goal.

use std::path::Path;

use anyhow::Result;
use ply_npuzzle::{Board, Direction};

use crate::picture::{BLANK, CELL, Centre, DrawCell, Grid, PATH, Svg, TILE, cell, grids};

/// One solved instance: its name, start and moves.
pub(super) struct Solved {
    /// How the picture names it (`line 3`, `Korf #88`).
    pub name: String,
    /// The start.
    pub board: Board,
    /// The optimal moves.
    pub moves: Vec<Direction>,
}

/// The cells the blank visits, from its start, as (row, col).
fn blank_path(board: &Board, moves: &[Direction]) -> Vec<(usize, usize)> {
    let width = board.width();
    let mut at = *board;
    let mut cells = vec![(at.blank() / width, at.blank() % width)];
    for &dir in moves {
        match at.moved(dir) {
            Some(next) => at = next,
            None => break,
        }
        cells.push((at.blank() / width, at.blank() % width));
    }
    cells
}

/// Thumbnails a row in the strip of boards after each move.
const STRIP: usize = 10;

/// The side of a thumbnail's cell.
const THUMB: f64 = 11.0;

/// Draws the board `board` (`size` a cell).
fn tiles(board: Board, size: f64) -> impl Fn(&mut Svg, usize, usize, f64, f64) {
    move |svg: &mut Svg, r: usize, c: usize, x: f64, y: f64| {
        let tile = board.tiles()[r * board.width() + c];
        if tile == 0 {
            cell(svg, x, y, size, BLANK, "");
        } else {
            cell(svg, x, y, size, TILE, &tile.to_string());
        }
    }
}

/// Draws each solved instance: its start with the blank's path and its goal, then the board
/// after every move in rows of [`STRIP`], and writes the picture to `path`.
///
/// # Errors
/// The file cannot be written.
pub(super) fn save(path: &Path, solved: &[Solved]) -> Result<()> {
    // Every board drawn: per instance its start, its goal, then each move's board.
    struct Drawn {
        start: Box<DrawCell<'static>>,
        goal: Box<DrawCell<'static>>,
        path: Vec<(usize, usize)>,
        after: Vec<(String, Box<DrawCell<'static>>)>,
    }
    let drawn: Vec<Drawn> = solved
        .iter()
        .map(|s| {
            let mut at = s.board;
            let mut after = Vec::new();
            for (i, &dir) in s.moves.iter().enumerate() {
                let Some(next) = at.moved(dir) else { break };
                at = next;
                let drawing: Box<DrawCell<'static>> = Box::new(tiles(at, THUMB));
                after.push((format!("{} {}", i + 1, dir.letter()), drawing));
            }
            Drawn {
                start: Box::new(tiles(s.board, CELL)),
                goal: Box::new(tiles(Board::goal(s.board.width()), CELL)),
                path: blank_path(&s.board, &s.moves),
                after,
            }
        })
        .collect();
    let overs: Vec<_> = drawn
        .iter()
        .map(|d| {
            move |svg: &mut Svg, centre: &Centre<'_>| {
                let points: Vec<(f64, f64)> = d.path.iter().map(|&(r, c)| centre(r, c)).collect();
                if let Some(&first) = points.first() {
                    svg.circle(first.0, first.1, 5.0, PATH);
                }
                svg.path(&points, PATH, 3.0);
            }
        })
        .collect();
    let nothing = |_: &mut Svg, _: &Centre<'_>| {};
    let mut rows: Vec<Vec<Grid<'_>>> = Vec::new();
    for ((s, d), over) in solved.iter().zip(&drawn).zip(&overs) {
        let width = s.board.width();
        rows.push(vec![
            Grid {
                title: format!(
                    "{}: {} moves (the line: the blank's path)",
                    s.name,
                    s.moves.len()
                ),
                size: CELL,
                rows: width,
                cols: width,
                cell: &*d.start,
                over,
            },
            Grid {
                title: "goal".into(),
                size: CELL,
                rows: width,
                cols: width,
                cell: &*d.goal,
                over: &nothing,
            },
        ]);
        for chunk in d.after.chunks(STRIP) {
            rows.push(
                chunk
                    .iter()
                    .map(|(title, drawing)| Grid {
                        title: title.clone(),
                        size: THUMB,
                        rows: width,
                        cols: width,
                        cell: &**drawing,
                        over: &nothing,
                    })
                    .collect(),
            );
        }
    }
    grids(&rows).save(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blank_path_follows_the_moves() {
        let board: Board = "1 0 2 3 4 5 6 7 8".parse().unwrap();
        let path = blank_path(&board, &[Direction::Left]);
        assert_eq!(path, [(0, 1), (0, 0)]);
    }
}
