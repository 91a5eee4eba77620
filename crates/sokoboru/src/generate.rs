//! Random puzzles with their optimal penalty, deterministic for a seed.
//!
//! Boards are drawn at random (walls, then the player, balls and empty boxes on distinct free
//! cells), solved under a search budget, and kept when the penalty is high enough. By default a
//! board the search cannot prove optimal is dropped, so every kept puzzle comes with a proven
//! optimum and is one the solver finishes; [`Keep::Answered`] keeps every board the search
//! finds some solution for (hard boards for the anytime schedule), with the best penalty known.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use ply_search::Limits;

use crate::puzzle::{MAX_CELLS, Puzzle};
use crate::solver::{Case, SolveError, with_default_memory};
use crate::state::State;

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct GenOptions {
    /// Rows of every board.
    pub rows: usize,
    /// Columns of every board.
    pub cols: usize,
    /// Balls (and as many empty boxes) on every board.
    pub balls: usize,
    /// Keep only puzzles whose optimal penalty is at least this.
    pub min_penalty: u32,
    /// The chance that a cell is a wall.
    pub wall_density: f64,
    /// The search budget per board; boards it cannot finish are dropped.
    pub limits: Limits,
    /// Give up after this many boards drawn (a rare or impossible request would run
    /// forever).
    pub max_draws: u64,
    /// Which boards to keep.
    pub keep: Keep,
}

/// Which solved boards [`generate`] keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// Only boards whose optimum the search proves within the budget.
    #[default]
    Proven,
    /// Every board the search finds a solution for within the budget, proven or not.
    Answered,
}

/// Options that cannot produce a puzzle.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum GenError {
    /// The board is outside the format's limits.
    #[error("board {0}x{1} is outside the limits (1 <= n, m <= 15, n*m <= 50)")]
    Size(usize, usize),
    /// Too many or too few balls.
    #[error("{balls} balls do not fit: 1 to 15 balls, and 2*balls+1 cells at most {cells}")]
    Balls {
        /// Balls asked for.
        balls: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// A wall density outside `0.0..1.0`.
    #[error("wall density {0} is not a chance from 0 up to (not including) 1")]
    WallDensity(f64),
    /// A node budget of zero, which solves no board.
    #[error("a node budget of 0 solves no board")]
    NoNodes,
    /// The draw budget ran out first.
    #[error("gave up after {draws} boards drawn with {kept} of {count} puzzles kept")]
    GaveUp {
        /// Boards drawn.
        draws: u64,
        /// Puzzles kept (already handed to the caller).
        kept: usize,
        /// Puzzles asked for.
        count: usize,
    },
}

/// A kept puzzle and the best penalty known for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its optimal penalty if `proven`, else the penalty of the best solution found.
    pub penalty: u32,
    /// Whether `penalty` is proven optimal.
    pub proven: bool,
}

/// Draws and solves random boards until `count` are kept: each board gets its first answer
/// ([`crate::first_answer`]) and then the proof from that answer, each within
/// `options.limits`. `on_keep` receives each
/// kept puzzle as soon as it is found and returns whether to go on; `on_try` receives the
/// number of boards drawn so far. Deterministic for `seed` and `options`.
///
/// # Errors
/// [`GenError`] when the options describe no valid board, or [`GenError::GaveUp`] when
/// `options.max_draws` boards keep fewer than `count`.
pub fn generate(
    seed: u64,
    count: usize,
    options: &GenOptions,
    mut on_keep: impl FnMut(&Generated) -> bool,
    mut on_try: impl FnMut(u64),
) -> Result<Vec<Generated>, GenError> {
    let GenOptions {
        rows, cols, balls, ..
    } = *options;
    if !(1..=15).contains(&rows) || !(1..=15).contains(&cols) || rows * cols > MAX_CELLS {
        return Err(GenError::Size(rows, cols));
    }
    if !(1..=15).contains(&balls) || 2 * balls + 1 > rows * cols {
        return Err(GenError::Balls {
            balls,
            cells: rows * cols,
        });
    }
    if !(0.0..1.0).contains(&options.wall_density) {
        return Err(GenError::WallDensity(options.wall_density));
    }
    if options.limits.max_nodes == Some(0) {
        return Err(GenError::NoNodes);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut kept = Vec::with_capacity(count.min(1 << 10));
    let mut tries = 0;
    while kept.len() < count {
        if tries == options.max_draws {
            return Err(GenError::GaveUp {
                draws: tries,
                kept: kept.len(),
                count,
            });
        }
        tries += 1;
        let puzzle = draw(&mut rng, options);
        on_try(tries);
        let Some(puzzle) = puzzle else { continue };
        let Some(found) = attempt(puzzle, options) else {
            continue;
        };
        if found.penalty < options.min_penalty {
            continue;
        }
        let go_on = on_keep(&found);
        kept.push(found);
        if !go_on {
            break;
        }
    }
    Ok(kept)
}

/// `puzzle` solved within the budget of `options`, if it is one [`GenOptions::keep`] keeps.
fn attempt(puzzle: Puzzle, options: &GenOptions) -> Option<Generated> {
    let limits = with_default_memory(options.limits.clone());
    let mut case = Case::new(&puzzle);
    case.first_answer(&limits);
    let first = case.unproven()?.penalty;
    case.prove(&limits);
    let (penalty, proven) = match case.answer() {
        Ok(solution) => (solution.penalty, true),
        Err(SolveError::GaveUp {
            best: Some(best), ..
        }) => (best.penalty, false),
        Err(_) => (first, false),
    };
    (proven || options.keep == Keep::Answered).then_some(Generated {
        puzzle,
        penalty,
        proven,
    })
}

/// One random board, or `None` if its walls leave too few free cells.
fn draw(rng: &mut ChaCha8Rng, options: &GenOptions) -> Option<Puzzle> {
    let cells = options.rows * options.cols;
    let mut walls = 0u64;
    for cell in 0..cells {
        if rng.random_bool(options.wall_density) {
            walls |= 1 << cell;
        }
    }
    let mut free: Vec<usize> = (0..cells).filter(|&c| walls & (1 << c) == 0).collect();
    if free.len() < 2 * options.balls + 1 {
        return None;
    }
    free.shuffle(rng);
    let mut state = State {
        player: free[0] as u8,
        ..State::default()
    };
    for &cell in &free[1..=options.balls] {
        state.balls |= 1 << cell;
    }
    for &cell in &free[options.balls + 1..=2 * options.balls] {
        state.empty |= 1 << cell;
    }
    Some(Puzzle::new(options.rows, options.cols, walls, state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::solver::solve;

    fn options() -> GenOptions {
        GenOptions {
            rows: 4,
            cols: 5,
            balls: 2,
            min_penalty: 6,
            wall_density: 0.15,
            limits: Limits::UNLIMITED.with_max_nodes(200_000),
            max_draws: 10_000,
            keep: Keep::Proven,
        }
    }

    #[test]
    fn deterministic_valid_and_solved() {
        let a = generate(7, 4, &options(), |_| true, |_| {}).unwrap();
        let b = generate(7, 4, &options(), |_| true, |_| {}).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 4);
        for g in &a {
            assert!(g.penalty >= 6);
            let text = g.puzzle.to_string();
            assert_eq!(parse_puzzles(&text).unwrap()[0], g.puzzle, "round trip");
            assert_eq!(
                solve(&g.puzzle, Limits::UNLIMITED).unwrap().penalty,
                g.penalty
            );
        }
        let c = generate(8, 4, &options(), |_| true, |_| {}).unwrap();
        assert_ne!(a, c);
    }

    #[test]
    fn answered_boards_come_with_an_upper_bound_and_proven_ones_with_the_optimum() {
        let options = GenOptions {
            rows: 5,
            cols: 5,
            balls: 4,
            min_penalty: 0,
            limits: Limits::UNLIMITED.with_max_nodes(ANSWERED_NODES),
            keep: Keep::Answered,
            ..options()
        };
        let kept = generate(3, 8, &options, |_| true, |_| {}).unwrap();
        assert_eq!(kept.len(), 8);
        let mut unproven = 0;
        for g in &kept {
            let optimum = solve(&g.puzzle, Limits::UNLIMITED).unwrap().penalty;
            if g.proven {
                assert_eq!(g.penalty, optimum);
            } else {
                assert!(g.penalty >= optimum);
                unproven += 1;
            }
        }
        assert!(unproven > 0, "the budget proved every board");
        let proven_only = GenOptions {
            keep: Keep::Proven,
            ..options
        };
        for g in generate(3, 8, &proven_only, |_| true, |_| {}).unwrap() {
            assert!(g.proven);
        }
    }

    /// The node budget of the test of [`Keep::Answered`]: enough for a first answer, not for
    /// every proof.
    const ANSWERED_NODES: u64 = 300;

    #[test]
    fn bad_options_are_refused() {
        let big = GenOptions {
            rows: 8,
            cols: 8,
            ..options()
        };
        assert_eq!(
            generate(1, 1, &big, |_| true, |_| {}),
            Err(GenError::Size(8, 8))
        );
        let crowded = GenOptions {
            balls: 10,
            ..options()
        };
        assert!(matches!(
            generate(1, 1, &crowded, |_| true, |_| {}),
            Err(GenError::Balls { .. })
        ));
        for density in [f64::NAN, -0.1, 1.0, 7.0] {
            let walled = GenOptions {
                wall_density: density,
                ..options()
            };
            assert!(matches!(
                generate(1, 1, &walled, |_| true, |_| {}),
                Err(GenError::WallDensity(_))
            ));
        }
        let no_nodes = GenOptions {
            limits: Limits::UNLIMITED.with_max_nodes(0),
            ..options()
        };
        assert_eq!(
            generate(1, 1, &no_nodes, |_| true, |_| {}),
            Err(GenError::NoNodes)
        );
    }

    #[test]
    fn an_impossible_request_gives_up_after_its_draws() {
        let impossible = GenOptions {
            min_penalty: 100_000,
            max_draws: 20,
            ..options()
        };
        let mut drawn = 0;
        let result = generate(1, 3, &impossible, |_| true, |d| drawn = d);
        assert_eq!(
            result,
            Err(GenError::GaveUp {
                draws: 20,
                kept: 0,
                count: 3
            })
        );
        assert_eq!(drawn, 20);
    }
}
