//! `--svg` of `ply mines classic solve`: the game's last position with every mine shown, the
//! mine that was hit, and each guess outlined with its number and chance.

use std::path::Path;

use anyhow::Result;
use ply_mines::classic::{ClassicGame, EXPLODED, HIDDEN, Rules};

use crate::picture::{BLANK, CELL, Centre, DrawCell, Grid, PATH, Svg, TILE, WALL, cell, grids};

/// A guess of the game: its cell, the move's number and its chance to be a mine.
pub(super) struct Guess {
    /// (row, col).
    pub at: (u16, u16),
    /// The move's number, from 1.
    pub number: usize,
    /// Its chance to be a mine when it was made.
    pub mine_probability: f64,
}

/// The side of a cell: full size for the standard levels, smaller for boards that would be
/// wider than a screen, never below a few pixels.
fn cell_size(rules: &Rules) -> f64 {
    (1200.0 / f64::from(rules.width.max(rules.height))).clamp(4.0, CELL)
}

/// Writes the picture of `game` (ended or not), titled `title`, with `guesses` marked.
///
/// # Errors
/// The file cannot be written.
pub(super) fn save(path: &Path, title: &str, game: &ClassicGame, guesses: &[Guess]) -> Result<()> {
    let rules = *game.rules();
    let size = cell_size(&rules);
    let labels = size >= 12.0;
    let width = usize::from(rules.width);
    let draw = |svg: &mut Svg, r: usize, c: usize, x: f64, y: f64| {
        let v = game.view()[r * width + c];
        let mine = game.is_mine(r as u16, c as u16) == Some(true);
        match v {
            EXPLODED => cell(svg, x, y, size, PATH, if labels { "✸" } else { "" }),
            HIDDEN if mine => {
                cell(svg, x, y, size, TILE, "");
                svg.circle(x + size / 2.0, y + size / 2.0, size / 4.0, WALL);
            }
            HIDDEN => cell(svg, x, y, size, TILE, ""),
            0 => cell(svg, x, y, size, BLANK, ""),
            n => {
                let label = if labels { n.to_string() } else { String::new() };
                cell(svg, x, y, size, BLANK, &label);
            }
        }
    };
    let over = |svg: &mut Svg, centre: &Centre<'_>| {
        for guess in guesses {
            let (cx, cy) = centre(usize::from(guess.at.0), usize::from(guess.at.1));
            let half = size / 2.0;
            svg.rect(
                cx - half + 1.5,
                cy - half + 1.5,
                size - 3.0,
                size - 3.0,
                "none",
                PATH,
            );
            if labels {
                svg.text(
                    cx - half + 2.0,
                    cy - half + size * 0.3,
                    size * 0.25,
                    "start",
                    &guess.number.to_string(),
                );
            }
        }
    };
    let grid = Grid {
        title: title.to_string(),
        size,
        rows: usize::from(rules.height),
        cols: width,
        cell: &draw as &DrawCell<'_>,
        over: &over,
    };
    let mut svg = grids(&[vec![grid]]);
    // The guesses as a list under the board, in the order they were made.
    let legend = "legend: white open (its number), sand not opened, dot a mine, red the mine hit, \
                  outlined a guess (its move's number)";
    let lines: Vec<String> = std::iter::once(legend.to_string())
        .chain(guesses.iter().map(|g| {
            format!(
                "guess {} at ({}, {}): {:.2} % a mine",
                g.number,
                g.at.0,
                g.at.1,
                100.0 * g.mine_probability
            )
        }))
        .collect();
    svg.append_lines(&lines);
    svg.save(path)
}
