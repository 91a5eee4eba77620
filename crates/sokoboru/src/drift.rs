//! A lower bound from the player's drift.
//!
//! Every move, a walk or a push, takes the player exactly one cell in its direction. Take the
//! line between two neighbouring rows: the player crosses it downwards as often as upwards,
//! give or take one, and which one depends only on the side it starts on and the side it ends
//! on. From above the line, it crosses upwards at least as often as downwards less one; from
//! below, at least as often. A push of an object down across the line (the player steps from
//! the row above it into the object's cell below it) is one of the downward crossings. So the
//! moves across the line number at least twice the pushes down across it, less one if the
//! player starts above it; likewise twice the pushes up, less one if it starts below; and at
//! least the pushes across it either way. The same holds for the lines between columns.
//!
//! Choosing one of those three counts (a [`Form`]) for every line gives a weight to every push
//! (2, 0 or 1 by the line it crosses and its direction), and every pair's pushes form a plan
//! of the walls-only relaxed game, as for the plain matching of [`crate::Bound`]. So the
//! remaining moves, and with them the penalty, are at least the minimum-cost matching under
//! those weights ([`Bound::weighted`]) less the slack: one for every line whose count allows it
//! on the player's side. The forms are fitted to a few positions by coordinate ascent
//! ([`Drift::fitted`]) and then kept for the whole search.
//!
//! The plain matching counts a push and the walk back to push again as one move; on boards
//! whose pushes mostly run one way (boxes that must all come down to balls on the bottom row)
//! this bound sees the walk back as well: on such a 7x7 board with seven pairs it is 59 at the
//! start against the plain matching's 32.

use crate::bound::{Bound, Relaxed};
use crate::puzzle::{MAX_CELLS, Puzzle};
use crate::state::{Dir, State};

/// How the moves across one line between neighbouring rows (or columns) are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// At least the pushes across the line either way.
    Even,
    /// At least twice the pushes down (or right) across the line, less one when the player is
    /// above it (or left of it).
    Forward,
    /// At least twice the pushes up (or left) across the line, less one when the player is
    /// below it (or right of it).
    Backward,
}

/// A choice of forms with its pair costs.
#[derive(Clone, Debug)]
pub(crate) struct Drift {
    /// Pair costs under the forms' weights.
    bound: Bound,
    /// The slack with the player on each cell.
    slack: [u8; MAX_CELLS],
}

/// Rounds of coordinate ascent when fitting forms to a position.
const ROUNDS: usize = 4;

/// Rounds of best responses when fitting forms to a position.
const RESPONSES: usize = 8;

/// Every form, the starting points of the fitting's ascents (all lines alike) among them.
const FORMS: [Form; 3] = [Form::Even, Form::Forward, Form::Backward];

impl Drift {
    /// The drift bound of `puzzle` with `rows[e]` the form of the line above row `e` and
    /// `cols[e]` the form of the line left of column `e` (entry 0 of each is not used).
    #[must_use]
    pub(crate) fn new(puzzle: &Puzzle, rows: &[Form], cols: &[Form]) -> Drift {
        Drift {
            bound: Bound::weighted(puzzle, &weights(puzzle, rows, cols)),
            slack: slacks(puzzle, rows, cols),
        }
    }

    /// Forms fitted to `states` by coordinate ascent: each line's form is changed whenever
    /// that raises the sum over `states` of what the drift bound adds to `plain` (the plain
    /// matching). The ascent starts from each of the nine choices that give all rows' lines
    /// one form and all columns' lines one form, and from best responses to the first state's
    /// matching (`responding`); the best end is kept, as one start alone gets stuck below
    /// what the ten reach (ledger row "drift: several starts of the ascent"). `None` when no
    /// choice found adds anything, as on boards whose pushes do not run mostly one way.
    #[must_use]
    pub(crate) fn fitted(puzzle: &Puzzle, plain: &Bound, states: &[State]) -> Option<Drift> {
        let relaxed = Relaxed::new(puzzle);
        let plains: Vec<u32> = states
            .iter()
            .map(|state| plain.estimate(state).unwrap_or(0))
            .collect();
        let value = |rows: &[Form], cols: &[Form]| {
            let weights = weights(puzzle, rows, cols);
            let slacks = slacks(puzzle, rows, cols);
            states
                .iter()
                .zip(&plains)
                .map(|(state, &plain)| {
                    let bound = relaxed.pair_costs(&weights, state.empty, state.balls);
                    let slack = u32::from(slacks[usize::from(state.player)]);
                    let drift = bound.estimate(state).map_or(0, |h| h.saturating_sub(slack));
                    drift.saturating_sub(plain)
                })
                .sum::<u32>()
        };
        let mut starts: Vec<(Vec<Form>, Vec<Form>)> = Vec::new();
        for row_form in FORMS {
            for col_form in FORMS {
                starts.push((vec![row_form; puzzle.rows], vec![col_form; puzzle.cols]));
            }
        }
        if let Some(first) = states.first() {
            starts.push(responding(puzzle, &relaxed, first, value));
        }
        let mut best: Option<(u32, Vec<Form>, Vec<Form>)> = None;
        for (mut rows, mut cols) in starts {
            let h = ascend(&mut rows, &mut cols, value);
            if best.as_ref().is_none_or(|best| h > best.0) {
                best = Some((h, rows, cols));
            }
        }
        best.filter(|best| best.0 > 0)
            .map(|(_, rows, cols)| Drift::new(puzzle, &rows, &cols))
    }

    /// The pair costs under the forms' weights, for keeping [`crate::Duals`] of a layout.
    #[must_use]
    pub(crate) fn bound(&self) -> &Bound {
        &self.bound
    }

    /// How many moves the lines' counts allow the player on `player` to save.
    #[must_use]
    pub(crate) fn slack(&self, player: u8) -> u32 {
        u32::from(self.slack[usize::from(player)])
    }

    /// The bound of `state`, or `None` when it can never be solved.
    #[must_use]
    pub(crate) fn estimate(&self, state: &State) -> Option<u32> {
        if state.empty == 0 {
            return Some(0);
        }
        Some(
            self.bound
                .estimate(state)?
                .saturating_sub(self.slack(state.player)),
        )
    }
}

/// Forms found by best responses, from all even: each round takes one cheapest plan of every
/// matched pair under the present forms, counts the pushes across each line either way, and
/// gives every line the form that counts its own pushes highest. Returns the best forms seen
/// (by `value`) in [`RESPONSES`] rounds. Where the matching escapes every single change of a
/// line's form by pairing otherwise (balls that may go down into the boxes below them or up
/// into the boxes above), changing all lines at once still raises the bound.
fn responding(
    puzzle: &Puzzle,
    relaxed: &Relaxed,
    state: &State,
    value: impl Fn(&[Form], &[Form]) -> u32,
) -> (Vec<Form>, Vec<Form>) {
    let mut rows = vec![Form::Even; puzzle.rows];
    let mut cols = vec![Form::Even; puzzle.cols];
    let mut best = (value(&rows, &cols), rows.clone(), cols.clone());
    let (row, col) = (
        usize::from(state.player) / puzzle.cols,
        usize::from(state.player) % puzzle.cols,
    );
    for _ in 0..RESPONSES {
        let weight = weights(puzzle, &rows, &cols);
        let Some(matching) = relaxed
            .pair_costs(&weight, state.empty, state.balls)
            .matching(state)
        else {
            break;
        };
        // Pushes across each line: [forward (down or right), backward (up or left)].
        let mut across_rows = vec![[0u32; 2]; puzzle.rows + 1];
        let mut across_cols = vec![[0u32; 2]; puzzle.cols + 1];
        for (box_cell, ball_cell) in matching.pairs() {
            for (cell, dir) in relaxed.plan(&weight, box_cell.into(), ball_cell.into()) {
                let (r, c) = (cell / puzzle.cols, cell % puzzle.cols);
                match Dir::ALL[dir] {
                    Dir::Up => across_rows[r + 1][1] += 1,
                    Dir::Down => across_rows[r][0] += 1,
                    Dir::Left => across_cols[c + 1][1] += 1,
                    Dir::Right => across_cols[c][0] += 1,
                }
            }
        }
        let respond = |forms: &mut [Form], across: &[[u32; 2]], at: usize| {
            for (line, form) in forms.iter_mut().enumerate().skip(1) {
                let [forward, backward] = across[line];
                // A line no plan crosses keeps its form from earlier rounds.
                if forward + backward == 0 {
                    continue;
                }
                let counts = [
                    (forward + backward, Form::Even),
                    (
                        (2 * forward).saturating_sub(u32::from(at < line)),
                        Form::Forward,
                    ),
                    (
                        (2 * backward).saturating_sub(u32::from(at >= line)),
                        Form::Backward,
                    ),
                ];
                // Ties keep the even form, which owes nothing.
                *form = counts
                    .into_iter()
                    .reduce(|kept, next| if next.0 > kept.0 { next } else { kept })
                    .map_or(Form::Even, |(_, form)| form);
            }
        };
        respond(&mut rows, &across_rows, row);
        respond(&mut cols, &across_cols, col);
        let h = value(&rows, &cols);
        if h > best.0 {
            best = (h, rows.clone(), cols.clone());
        }
    }
    (best.1, best.2)
}

/// Coordinate ascent on the forms of `rows` and `cols`: each line's form is changed whenever
/// that raises `value`, for at most [`ROUNDS`] rounds. Returns the value reached.
fn ascend(rows: &mut [Form], cols: &mut [Form], value: impl Fn(&[Form], &[Form]) -> u32) -> u32 {
    let mut best = value(rows, cols);
    for _ in 0..ROUNDS {
        let mut raised = false;
        let lines = (1..rows.len())
            .map(|e| (true, e))
            .chain((1..cols.len()).map(|e| (false, e)));
        for (is_row, line) in lines {
            for form in FORMS {
                let forms = if is_row { &mut *rows } else { &mut *cols };
                let before = std::mem::replace(&mut forms[line], form);
                if form == before {
                    continue;
                }
                let h = value(rows, cols);
                if h > best {
                    best = h;
                    raised = true;
                } else {
                    let forms = if is_row { &mut *rows } else { &mut *cols };
                    forms[line] = before;
                }
            }
        }
        if !raised {
            break;
        }
    }
    best
}

/// The weight of a push from each cell in each direction of [`crate::Dir::ALL`] (up, down,
/// left, right) under the forms: a push down of an object on row `r` crosses the line above
/// row `r`, a push up the line below it.
fn weights(puzzle: &Puzzle, rows: &[Form], cols: &[Form]) -> [[u16; 4]; MAX_CELLS] {
    let weight = |forms: &[Form], line: usize, forward: bool| match forms.get(line) {
        Some(Form::Forward) if line > 0 => 2 * u16::from(forward),
        Some(Form::Backward) if line > 0 => 2 * u16::from(!forward),
        _ => 1,
    };
    let mut table = [[1; 4]; MAX_CELLS];
    for (cell, entry) in table.iter_mut().enumerate().take(puzzle.cells()) {
        let (row, col) = (cell / puzzle.cols, cell % puzzle.cols);
        *entry = [
            weight(rows, row + 1, false),
            weight(rows, row, true),
            weight(cols, col + 1, false),
            weight(cols, col, true),
        ];
    }
    table
}

/// The slack with the player on each cell: one for each line whose form allows one with the
/// player on that side of it.
fn slacks(puzzle: &Puzzle, rows: &[Form], cols: &[Form]) -> [u8; MAX_CELLS] {
    let side = |forms: &[Form], at: usize| {
        let mut slack = 0;
        for (line, form) in forms.iter().enumerate().skip(1) {
            slack += u8::from(match form {
                Form::Even => false,
                Form::Forward => at < line,
                Form::Backward => at >= line,
            });
        }
        slack
    };
    let mut table = [0; MAX_CELLS];
    for (cell, slack) in table.iter_mut().enumerate().take(puzzle.cells()) {
        *slack = side(rows, cell / puzzle.cols) + side(cols, cell % puzzle.cols);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;

    /// Three boxes that must each be pushed down from the top row onto balls that cannot
    /// move: the player pushes, steps back up and over, three times (7 moves). The plain
    /// matching sees the three pushes; the drift also sees two of the three steps back up
    /// across the line under the top row.
    #[test]
    fn the_walk_back_up_is_counted() {
        let p = parse_puzzles("3 3\n@--\n$$$\nOOO\n").unwrap().remove(0);
        assert_eq!(Bound::new(&p).estimate(&p.start), Some(3));
        let drift =
            Drift::fitted(&p, &Bound::new(&p), &[p.start]).expect("the drift beats the matching");
        assert_eq!(drift.estimate(&p.start), Some(5));
        // The same forms by hand: the line under the top row forward, the rest even.
        let rows = [Form::Even, Form::Forward, Form::Even];
        let by_hand = Drift::new(&p, &rows, &[Form::Even; 3]);
        assert_eq!(by_hand.estimate(&p.start), Some(5));
        // Below that line the player owes nothing back: the slack is gone.
        assert_eq!((by_hand.slack(0), by_hand.slack(3)), (1, 0));
    }

    /// Rows of balls over rows of boxes: every ball may drop into the box below it or, from
    /// below, go up into a box above, so the matching escapes changes of one line's form at a
    /// time; the best responses change several lines at once and beat them (12 against 11 at
    /// the start, the plain matching 8; the optimum is 26). The bottom boxes are frozen, so
    /// the balls above them can only drop in.
    #[test]
    fn best_responses_find_what_single_changes_miss() {
        let p = parse_puzzles("6 4\n@---\nOOO-\n$$$-\n----\nOOO-\n-$$$\n")
            .unwrap()
            .remove(0);
        let state = p.start;
        let relaxed = Relaxed::new(&p);
        let value = |rows: &[Form], cols: &[Form]| {
            let bound = relaxed.pair_costs(&weights(&p, rows, cols), state.empty, state.balls);
            let slack = u32::from(slacks(&p, rows, cols)[usize::from(state.player)]);
            bound
                .estimate(&state)
                .map_or(0, |h| h.saturating_sub(slack))
        };
        let plain = Bound::new(&p).estimate(&state).unwrap();
        let uniform = FORMS
            .into_iter()
            .flat_map(|r| FORMS.map(|c| (r, c)))
            .map(|(r, c)| ascend(&mut vec![r; p.rows], &mut vec![c; p.cols], value))
            .max()
            .unwrap();
        let (mut rows, mut cols) = responding(&p, &relaxed, &state, value);
        let responded = ascend(&mut rows, &mut cols, value);
        assert!(
            plain < uniform && uniform < responded,
            "{plain} {uniform} {responded}"
        );
        let fitted =
            Drift::fitted(&p, &Bound::new(&p), &[state]).expect("the responses beat the matching");
        assert_eq!(fitted.estimate(&state), Some(responded));
    }

    #[test]
    fn boards_without_a_main_direction_fit_nothing() {
        let p = parse_puzzles("1 5\n@O--$\n").unwrap().remove(0);
        assert!(Drift::fitted(&p, &Bound::new(&p), &[p.start]).is_none());
    }
}
