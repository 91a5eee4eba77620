//! Puzzles solvable by construction: a solved layout played backwards.
//!
//! A solved layout (every ball in a box) is drawn on a random board, then moves are taken back
//! one at a time: each step picks at random one of the positions from which a legal move leads
//! to the current one ([`predecessors`]), so that the moves taken back, replayed forwards from
//! the last position, solve it. No solver decides which boards are kept, so a set drawn this way
//! is not biased towards the boards ply finds easy (as Sokoban's generators that pull boxes
//! backwards from their goals are not: Murase, Matsubara and Hiraga 1996; Taylor and Parberry
//! 2011).
//!
//! Taken back, a move never empties a box it did not fill: the boxes that are to start empty
//! are emptied on the way (a ball pulled out of a full box, or a ball and a box pulled apart),
//! the rest stay full, as the course's files have full boxes at the start.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;

use crate::generate::GenError;
use crate::puzzle::{MAX_CELLS, MAX_PAIRS, Puzzle};
use crate::state::{Dir, State};

/// What to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct ScrambleOptions {
    /// Rows of every board.
    pub rows: usize,
    /// Columns of every board.
    pub cols: usize,
    /// Balls (and as many empty boxes) at the start.
    pub pairs: usize,
    /// Boxes already full at the start.
    pub full: usize,
    /// The chance that a cell is a wall.
    pub wall_density: f64,
    /// Pushes taken back from the solved layout (each with the player's walk before it).
    pub moves: usize,
    /// Give up after this many boards drawn (walls may leave no room to take moves back).
    pub max_draws: u64,
}

/// A puzzle drawn by [`scramble`] and the moves that solve it (the moves taken back, in
/// forward order: an answer, rarely a cheap one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scrambled {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// A solution.
    pub moves: Vec<Dir>,
    /// Its penalty.
    pub penalty: u32,
}

/// A position that a move leads from to another, with the move and its penalty.
pub(crate) type Predecessor = (State, Dir, u32);

/// Every position `before` and move `dir` with `before.step(puzzle, dir)` leading to `state`,
/// with the move's penalty. Candidates are built from what each kind of move leaves behind
/// (a step, a pushed box, a full box or a box that swallowed a ball, a ball that slid and
/// stopped or dropped into a box), and each is kept only if the move, played forwards,
/// gives `state` exactly.
pub(crate) fn predecessors(puzzle: &Puzzle, state: &State) -> SmallVec<[Predecessor; 16]> {
    let mut out = SmallVec::new();
    let player = usize::from(state.player);
    let objects = state.empty | state.full | state.balls;
    for dir in Dir::ALL {
        // The player stepped from `from` into its cell.
        let Some(from) = puzzle.neighbour(player, dir.opposite()) else {
            continue;
        };
        if (puzzle.walls | objects) & (1u64 << from) != 0 {
            continue;
        }
        let at = State {
            player: from as u8,
            ..*state
        };
        let mut candidates: SmallVec<[State; 8]> = SmallVec::new();
        candidates.push(at);
        if let Some(beyond) = puzzle.neighbour(player, dir) {
            let bit = 1u64 << beyond;
            let here = 1u64 << player;
            if state.empty & bit != 0 {
                // An empty box pushed from the player's cell.
                candidates.push(State {
                    empty: (state.empty & !bit) | here,
                    ..at
                });
            }
            if state.full & bit != 0 {
                // A full box pushed, or an empty one pushed onto a ball.
                candidates.push(State {
                    full: (state.full & !bit) | here,
                    ..at
                });
                candidates.push(State {
                    full: state.full & !bit,
                    empty: state.empty | here,
                    balls: state.balls | bit,
                    ..at
                });
            }
        }
        // A ball pushed from the player's cell slid along `dir` to the first object it met:
        // it stopped there (a ball) or dropped into it (a full box).
        let mut cell = player;
        while let Some(next) = puzzle.neighbour(cell, dir) {
            let bit = 1u64 << next;
            if puzzle.walls & bit != 0 {
                break;
            }
            if state.balls & bit != 0 {
                candidates.push(State {
                    balls: (state.balls & !bit) | (1u64 << player),
                    ..at
                });
            }
            if state.full & bit != 0 {
                candidates.push(State {
                    full: state.full & !bit,
                    empty: state.empty | bit,
                    balls: state.balls | (1u64 << player),
                    ..at
                });
            }
            if objects & bit != 0 {
                break;
            }
            cell = next;
        }
        for before in candidates {
            if let Ok(step) = before.step(puzzle, dir)
                && step.state == *state
            {
                out.push((before, dir, step.cost));
            }
        }
    }
    out
}

/// Draws `count` puzzles by [`ScrambleOptions`], deterministic for `seed`.
///
/// # Errors
/// [`GenError`] when the options describe no valid board, or [`GenError::GaveUp`] when
/// `options.max_draws` boards give fewer than `count` (walls that leave no room).
pub fn scramble(
    seed: u64,
    count: usize,
    options: &ScrambleOptions,
) -> Result<Vec<Scrambled>, GenError> {
    let ScrambleOptions {
        rows,
        cols,
        pairs,
        full,
        ..
    } = *options;
    if !(1..=15).contains(&rows) || !(1..=15).contains(&cols) || rows * cols > MAX_CELLS {
        return Err(GenError::Size(rows, cols));
    }
    if !(1..=MAX_PAIRS as usize).contains(&pairs) || 2 * pairs + full + 1 > rows * cols {
        return Err(GenError::Balls {
            balls: pairs,
            cells: rows * cols,
        });
    }
    if !(0.0..1.0).contains(&options.wall_density) {
        return Err(GenError::WallDensity(options.wall_density));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut kept = Vec::with_capacity(count.min(1 << 10));
    let mut draws = 0;
    while kept.len() < count {
        if draws == options.max_draws {
            return Err(GenError::GaveUp {
                draws,
                kept: kept.len(),
                count,
            });
        }
        draws += 1;
        if let Some(found) = draw(&mut rng, options) {
            kept.push(found);
        }
    }
    Ok(kept)
}

/// Walks taken back from one solved layout before another is drawn: a walk can shut the
/// player in among the boxes before enough of them are empty, and another walk from the same
/// layout often does not.
const WALKS_PER_LAYOUT: usize = 20;

/// A solved layout on a random board, played back `options.moves` pushes (each with the walk
/// before it); `None` when no walk could empty the boxes to empty.
fn draw(rng: &mut ChaCha8Rng, options: &ScrambleOptions) -> Option<Scrambled> {
    let cells = options.rows * options.cols;
    let mut walls = 0u64;
    for cell in 0..cells {
        if rng.random_bool(options.wall_density) {
            walls |= 1 << cell;
        }
    }
    let mut free: Vec<usize> = (0..cells).filter(|&c| walls & (1 << c) == 0).collect();
    let boxes = options.pairs + options.full;
    if free.len() < boxes + 1 + options.pairs {
        return None;
    }
    free.shuffle(rng);
    let mut solved = State {
        player: free[0] as u8,
        ..State::default()
    };
    for &cell in &free[1..=boxes] {
        solved.full |= 1 << cell;
    }
    let puzzle = Puzzle::new(options.rows, options.cols, walls, solved);
    (0..WALKS_PER_LAYOUT).find_map(|_| walk_back(&puzzle, options, rng))
}

/// Positions the search for an emptying walk visits before the layout is given up.
const EMPTYING_BUDGET: usize = 20_000;

/// One walk back from the solved start of `puzzle`: first a depth-first search (random order,
/// the pushes that empty a box first) for pushes taken back until `options.pairs` boxes are
/// empty, backing up where the player is shut in; then pushes taken back at random, none
/// emptying another box, up to `options.moves` in all. `None` when no way to empty enough
/// boxes was found.
fn walk_back(
    puzzle: &Puzzle,
    options: &ScrambleOptions,
    rng: &mut ChaCha8Rng,
) -> Option<Scrambled> {
    let mut steps = empty_boxes(puzzle, options.pairs, rng)?;
    let mut state = steps.last().map_or(puzzle.start, |step| step.0);
    while steps.len() < options.moves {
        let Some(step) = take_back(puzzle, &state, false, rng) else {
            break;
        };
        state = step.0;
        steps.push(step);
    }
    Some(Scrambled {
        puzzle: Puzzle::new(options.rows, options.cols, puzzle.walls, state),
        penalty: steps.iter().map(|step| step.2).sum(),
        moves: steps.into_iter().rev().flat_map(|step| step.1).collect(),
    })
}

/// One level of the search for an emptying walk: the position, its pushes still to try, and
/// the step back that led to it.
type Frame = (State, Vec<(Predecessor, usize)>, Option<StepBack>);

/// A push taken back: the position before it, the forward moves from there to the position
/// after it (the push, then the player's walk), and their penalty.
type StepBack = (State, Vec<Dir>, u32);

/// Pushes taken back from the solved start of `puzzle` until `pairs` boxes are empty, by a
/// depth-first search over the positions (each visited once), trying the pushes that empty a
/// box first and the others in a random order; `None` when the search runs out of positions
/// or of [`EMPTYING_BUDGET`].
fn empty_boxes(puzzle: &Puzzle, pairs: usize, rng: &mut ChaCha8Rng) -> Option<Vec<StepBack>> {
    let start_empty = puzzle.start.empty.count_ones() as usize;
    let mut seen = std::collections::HashSet::from([puzzle.start]);
    // Per level: the position, its pushes still to try, and the step that led to it.
    let mut frames: Vec<Frame> = vec![(
        puzzle.start,
        ordered_pushes(puzzle, &puzzle.start, rng),
        None,
    )];
    let mut visited = 0;
    loop {
        let (state, pushes, _) = frames.last_mut()?;
        let state = *state;
        if state.empty.count_ones() as usize - start_empty >= pairs {
            return Some(frames.into_iter().filter_map(|frame| frame.2).collect());
        }
        let Some(chosen) = pushes.pop() else {
            frames.pop();
            continue;
        };
        let before = chosen.0.0;
        visited += 1;
        if visited > EMPTYING_BUDGET {
            return None;
        }
        if !seen.insert(before) {
            continue;
        }
        let step = step_back(puzzle, &state, chosen);
        let pushes = ordered_pushes(puzzle, &before, rng);
        frames.push((before, pushes, Some(step)));
    }
}

/// The pushes taken back from `state`, ordered to be popped: the emptying ones last (tried
/// first), each group shuffled.
fn ordered_pushes(
    puzzle: &Puzzle,
    state: &State,
    rng: &mut ChaCha8Rng,
) -> Vec<(Predecessor, usize)> {
    let mut pushes = pushes_back(puzzle, state, true);
    pushes.shuffle(rng);
    let empties = |p: &(Predecessor, usize)| p.0.0.empty.count_ones() > state.empty.count_ones();
    pushes.sort_by_key(empties);
    pushes
}

/// The pushes that can be taken back in `state`, from any cell the player can walk to: the
/// position before each and the cell the push ends on; none that empties a box unless
/// `emptying`.
fn pushes_back(puzzle: &Puzzle, state: &State, emptying: bool) -> Vec<(Predecessor, usize)> {
    let reached = walks_to(puzzle, state);
    let mut pushes = Vec::new();
    for (cell, step) in reached.iter().enumerate() {
        if step.is_none() && cell != usize::from(state.player) {
            continue;
        }
        let there = State {
            player: cell as u8,
            ..*state
        };
        for before in predecessors(puzzle, &there) {
            let moved = (before.0.empty, before.0.full, before.0.balls)
                != (state.empty, state.full, state.balls);
            let empties = before.0.empty.count_ones() > state.empty.count_ones();
            if moved && (emptying || !empties) {
                pushes.push((before, cell));
            }
        }
    }
    pushes
}

/// One push taken back at random: the position before it, the forward moves from there (the
/// push, then the walk back to where the player stands) and their penalty. While boxes are
/// still to be emptied (`emptying`) a push that empties one is preferred. A push after which
/// none could be taken back (the player shut in) is not taken.
fn take_back(
    puzzle: &Puzzle,
    state: &State,
    emptying: bool,
    rng: &mut ChaCha8Rng,
) -> Option<StepBack> {
    let mut pushes = pushes_back(puzzle, state, emptying);
    pushes.shuffle(rng);
    let empties = |p: &(Predecessor, usize)| p.0.0.empty.count_ones() > state.empty.count_ones();
    if emptying && rng.random_bool(0.5) {
        // The emptying pushes first, in their random order.
        pushes.sort_by_key(|p| !empties(p));
    }
    let chosen = pushes
        .into_iter()
        .find(|p| !pushes_back(puzzle, &p.0.0, emptying).is_empty())?;
    Some(step_back(puzzle, state, chosen))
}

/// The push `chosen` taken back from `state`: the position before it, the forward moves (the
/// push into the chosen cell, then the walk from there to where the player stands in
/// `state`) and their penalty.
fn step_back(puzzle: &Puzzle, state: &State, chosen: (Predecessor, usize)) -> StepBack {
    let ((before, dir, cost), cell) = chosen;
    let toward = walks_to(puzzle, state);
    let mut segment = vec![dir];
    let mut at = cell;
    while at != usize::from(state.player) {
        let step = toward[at].expect("a cell the walk reaches");
        segment.push(step);
        at = puzzle.neighbour(at, step).expect("a step on the board");
    }
    let walk = segment.len() as u32 - 1;
    (before, segment, cost + walk)
}

/// For every cell the player can walk to from where it stands in `state`, the first step of
/// a shortest walk from that cell back to the player's cell (`None` for the player's own cell
/// and the cells it cannot reach).
fn walks_to(puzzle: &Puzzle, state: &State) -> Vec<Option<Dir>> {
    let blocked = puzzle.walls | state.empty | state.full | state.balls;
    let mut toward = vec![None; puzzle.cells()];
    let mut seen = 1u64 << state.player;
    let mut queue = std::collections::VecDeque::from([usize::from(state.player)]);
    while let Some(cell) = queue.pop_front() {
        for dir in Dir::ALL {
            let Some(next) = puzzle.neighbour(cell, dir) else {
                continue;
            };
            let bit = 1u64 << next;
            if (blocked | seen) & bit == 0 {
                seen |= bit;
                toward[next] = Some(dir.opposite());
                queue.push_back(next);
            }
        }
    }
    toward
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::verify::replay;

    /// Every position a legal move reaches lists the position it came from, and every listed
    /// predecessor leads to it: on positions near the starts of the course's files and of
    /// scrambled boards.
    #[test]
    fn predecessors_are_exactly_the_positions_a_move_comes_from() {
        let mut puzzles = Vec::new();
        for text in [
            include_str!("../../../data/sokoboru/tiny.in"),
            include_str!("../../../data/sokoboru/medium.in"),
        ] {
            puzzles.extend(parse_puzzles(text).unwrap());
        }
        let mut checked = 0;
        for puzzle in &puzzles {
            let mut layer = vec![puzzle.start];
            for _ in 0..3 {
                let mut next = Vec::new();
                for state in &layer {
                    for dir in Dir::ALL {
                        let Ok(step) = state.step(puzzle, dir) else {
                            continue;
                        };
                        let back = predecessors(puzzle, &step.state);
                        assert!(
                            back.contains(&(*state, dir, step.cost)),
                            "{}{dir:?}",
                            puzzle.render(state)
                        );
                        for (before, d, cost) in back {
                            let again = before.step(puzzle, d).unwrap();
                            assert_eq!((again.state, again.cost), (step.state, cost));
                        }
                        checked += 1;
                        next.push(step.state);
                    }
                }
                next.truncate(60);
                layer = next;
            }
        }
        assert!(checked > 500, "{checked}");
    }

    fn options() -> ScrambleOptions {
        ScrambleOptions {
            rows: 7,
            cols: 7,
            pairs: 10,
            full: 2,
            wall_density: 0.05,
            moves: 150,
            max_draws: 100,
        }
    }

    #[test]
    fn scrambled_puzzles_are_solved_by_their_moves_and_replay_from_the_seed() {
        let drawn = scramble(5, 6, &options()).unwrap();
        assert_eq!(drawn, scramble(5, 6, &options()).unwrap());
        assert_ne!(drawn, scramble(6, 6, &options()).unwrap());
        for found in &drawn {
            let start = found.puzzle.start;
            assert_eq!(start.empty.count_ones(), 10);
            assert_eq!(start.balls.count_ones(), 10);
            assert_eq!(start.full.count_ones(), 2);
            let replayed = replay(&found.puzzle, &found.moves).unwrap();
            assert_eq!((replayed.penalty, replayed.left), (found.penalty, 0));
            let text = found.puzzle.to_string();
            assert_eq!(parse_puzzles(&text).unwrap()[0], found.puzzle);
        }
    }

    #[test]
    fn impossible_options_are_refused() {
        let crowded = ScrambleOptions {
            pairs: 20,
            ..options()
        };
        assert!(matches!(
            scramble(1, 1, &crowded),
            Err(GenError::Balls { .. })
        ));
        let walled = ScrambleOptions {
            wall_density: 0.99,
            max_draws: 5,
            ..options()
        };
        assert!(matches!(
            scramble(1, 1, &walled),
            Err(GenError::GaveUp { draws: 5, .. })
        ));
    }
}
