//! The puzzle file format: cases of `n m` and `n` rows, read to the end of the file.

use std::fmt;

use ply_search::messages::plural;
use thiserror::Error;

use crate::state::{Dir, State};

/// The largest board: `n * m <= 50` cells.
pub const MAX_CELLS: usize = 50;

/// The most pairs of a ball and an empty box on a board (at least one is needed).
pub const MAX_PAIRS: u32 = 15;

pub(crate) use ply_search::messages::excerpt;

/// `text` without a leading byte order mark, which some editors write and no message
/// could show.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A bad puzzle file, naming the case (1-based) and the line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("case {case}, line {line}: {message}")]
pub struct PuzzleError {
    /// 1-based case number.
    pub case: usize,
    /// 1-based line number in the file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// One puzzle: the static walls and the start state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Walls, bit `r * cols + c`.
    pub walls: u64,
    /// The start state.
    pub start: State,
    /// Each cell's neighbour in each direction ([`Dir`] order), `u8::MAX` off the board.
    next: [[u8; 4]; MAX_CELLS],
    /// Every cell of the board, as a bit set.
    board: u64,
    /// The cells of the first column.
    first_col: u64,
    /// The cells of the last column.
    last_col: u64,
}

impl Puzzle {
    /// A puzzle of `rows` x `cols` cells (at least one, at most [`MAX_CELLS`]) with these walls
    /// and start.
    #[must_use]
    pub fn new(rows: usize, cols: usize, walls: u64, start: State) -> Puzzle {
        let mut next = [[u8::MAX; 4]; MAX_CELLS];
        for (cell, next) in next.iter_mut().enumerate().take(rows * cols) {
            let (r, c) = (cell / cols, cell % cols);
            let on_board = [r > 0, r + 1 < rows, c > 0, c + 1 < cols];
            let to = [
                cell.wrapping_sub(cols),
                cell + cols,
                cell.wrapping_sub(1),
                cell + 1,
            ];
            for dir in 0..4 {
                if on_board[dir] {
                    next[dir] = to[dir] as u8;
                }
            }
        }
        let first_col = (0..rows).fold(0u64, |m, r| m | 1 << (r * cols));
        Puzzle {
            rows,
            cols,
            walls,
            start,
            next,
            board: u64::MAX >> (64 - rows * cols),
            first_col,
            last_col: first_col << (cols - 1),
        }
    }

    /// The same board with another start state.
    #[must_use]
    pub fn with_start(&self, start: State) -> Puzzle {
        Puzzle {
            start,
            ..self.clone()
        }
    }

    /// The number of cells.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The cell next to `cell` in `dir`, if on the board.
    #[inline]
    #[must_use]
    pub fn neighbour(&self, cell: usize, dir: Dir) -> Option<usize> {
        match self.next[cell][dir as usize] {
            u8::MAX => None,
            next => Some(usize::from(next)),
        }
    }

    /// Every cell of the board, as a bit set (bit `r * cols + c`).
    #[inline]
    pub(crate) fn board(&self) -> u64 {
        self.board
    }

    /// Each cell of `set` moved to its neighbour in `dir`, cells that would leave the board
    /// dropped: one step of a breadth-first search on bit sets.
    #[inline]
    pub(crate) fn shift(&self, set: u64, dir: Dir) -> u64 {
        match dir {
            Dir::Up => set >> self.cols,
            Dir::Down => (set << self.cols) & self.board,
            Dir::Left => (set >> 1) & !self.last_col,
            Dir::Right => (set << 1) & !self.first_col,
        }
    }

    /// Every neighbour of a cell of `set`.
    #[inline]
    pub(crate) fn spread(&self, set: u64) -> u64 {
        Dir::ALL
            .into_iter()
            .fold(0, |out, dir| out | self.shift(set, dir))
    }

    /// The cells of a state of this puzzle, row-major, as codes: 0 floor, 1 wall, 2 player,
    /// 3 ball, 4 empty box, 5 full box (the binding's arrays).
    #[must_use]
    pub fn codes(&self, state: &State) -> Vec<i8> {
        (0..self.cells())
            .map(|cell| {
                let bit = 1u64 << cell;
                if self.walls & bit != 0 {
                    1
                } else if usize::from(state.player) == cell {
                    2
                } else if state.balls & bit != 0 {
                    3
                } else if state.empty & bit != 0 {
                    4
                } else if state.full & bit != 0 {
                    5
                } else {
                    0
                }
            })
            .collect()
    }

    /// Renders a state of this puzzle in the file's characters.
    #[must_use]
    pub fn render(&self, state: &State) -> String {
        let mut out = String::with_capacity(self.cells() + self.rows);
        for r in 0..self.rows {
            for c in 0..self.cols {
                let bit = 1u64 << (r * self.cols + c);
                out.push(if self.walls & bit != 0 {
                    '#'
                } else if usize::from(state.player) == r * self.cols + c {
                    '@'
                } else if state.balls & bit != 0 {
                    'O'
                } else if state.empty & bit != 0 {
                    '$'
                } else if state.full & bit != 0 {
                    '*'
                } else {
                    '-'
                });
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Puzzle {
    /// The puzzle in the file format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {}", self.rows, self.cols)?;
        f.write_str(&self.render(&self.start))
    }
}

/// Reads every case of a puzzle file.
///
/// # Errors
/// A [`PuzzleError`] naming the first bad case and line: a bad size line, ragged or missing
/// rows, unknown characters, no player or two, a board over 50 cells or 15 columns/rows, balls
/// and empty boxes in different numbers, none of them or more than [`MAX_PAIRS`], or no case
/// at all. A leading byte order mark is skipped.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let lines: Vec<&str> = without_bom(text).lines().collect();
    let mut at = 0;
    let mut out = Vec::new();
    loop {
        while at < lines.len() && lines[at].trim().is_empty() {
            at += 1;
        }
        if at >= lines.len() {
            break;
        }
        let puzzle = parse_case(&lines, at, out.len() + 1)?;
        at += 1 + puzzle.rows;
        out.push(puzzle);
    }
    if out.is_empty() {
        return Err(PuzzleError {
            case: 1,
            line: 1,
            message: "no puzzle found".into(),
        });
    }
    Ok(out)
}

/// Case number `case`, whose size line is `lines[at]`.
fn parse_case(lines: &[&str], at: usize, case: usize) -> Result<Puzzle, PuzzleError> {
    let err = |line: usize, message: String| PuzzleError {
        case,
        line: line + 1,
        message,
    };
    let size: Vec<&str> = lines[at].split_whitespace().collect();
    let numbers = match size.as_slice() {
        [n, m] => n.parse::<usize>().ok().zip(m.parse::<usize>().ok()),
        _ => None,
    };
    let Some((rows, cols)) = numbers else {
        return Err(err(
            at,
            format!(
                "expected the size 'n m', found '{}'",
                excerpt(lines[at].trim())
            ),
        ));
    };
    if !(1..=15).contains(&rows) || !(1..=15).contains(&cols) || rows * cols > MAX_CELLS {
        return Err(err(
            at,
            format!("board {rows}x{cols} is too large (1 <= n, m <= 15 and n*m <= 50)"),
        ));
    }
    let mut board = read_rows(lines, at, (rows, cols)).map_err(|(line, why)| err(line, why))?;
    match board.players.as_slice() {
        [(_, cell)] => board.state.player = *cell as u8,
        [] => return Err(err(at, "no player '@'".into())),
        [_, (line, _), ..] => return Err(err(*line, "a second player '@'".into())),
    }
    let (balls, boxes) = (
        board.state.balls.count_ones(),
        board.state.empty.count_ones(),
    );
    if balls != boxes {
        return Err(err(
            at,
            format!(
                "{} but {} (they must be equal)",
                plural(u64::from(balls), "ball"),
                empty_boxes(boxes)
            ),
        ));
    }
    if !(1..=MAX_PAIRS).contains(&balls) {
        return Err(err(
            board.overflow_line.unwrap_or(at),
            format!("{balls} balls and as many empty boxes; a case has 1 to {MAX_PAIRS} of each"),
        ));
    }
    Ok(Puzzle::new(rows, cols, board.walls, board.state))
}

/// What a case's rows hold.
struct Rows {
    walls: u64,
    /// The objects (the player's cell is set once the players are checked).
    state: State,
    /// Each player's line and cell.
    players: Vec<(usize, usize)>,
    /// The line of the first ball past [`MAX_PAIRS`]: a case with too many pairs is reported
    /// where it overflows.
    overflow_line: Option<usize>,
}

/// The `rows` x `cols` board after the size line `lines[at]`, or the line (0-based) and what
/// is wrong with it.
fn read_rows(
    lines: &[&str],
    at: usize,
    (rows, cols): (usize, usize),
) -> Result<Rows, (usize, String)> {
    let mut board = Rows {
        walls: 0,
        state: State::default(),
        players: Vec::new(),
        overflow_line: None,
    };
    for r in 0..rows {
        let line_no = at + 1 + r;
        let Some(row) = lines.get(line_no) else {
            return Err((
                line_no.min(lines.len()),
                format!("missing row {} of {rows}", r + 1),
            ));
        };
        let row = row.trim_end_matches('\r');
        if row.chars().count() != cols {
            return Err((
                line_no,
                format!(
                    "row {} has {} characters, expected {cols}",
                    r + 1,
                    row.chars().count()
                ),
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            let bit = 1u64 << (r * cols + c);
            match ch {
                '#' => board.walls |= bit,
                '@' => board.players.push((line_no, r * cols + c)),
                'O' => {
                    board.state.balls |= bit;
                    if board.overflow_line.is_none() && board.state.balls.count_ones() > MAX_PAIRS {
                        board.overflow_line = Some(line_no);
                    }
                }
                '$' => board.state.empty |= bit,
                '*' => board.state.full |= bit,
                '-' => {}
                other => {
                    return Err((
                        line_no,
                        format!("unknown character {other:?} in column {}", c + 1),
                    ));
                }
            }
        }
    }
    Ok(board)
}

/// "1 empty box", "3 empty boxes".
pub(crate) fn empty_boxes(n: u32) -> String {
    if n == 1 {
        "1 empty box".into()
    } else {
        format!("{n} empty boxes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_renders_a_case() {
        let text = "5 6\n---###\n$$----\n------\n---OO-\n---@--\n";
        let puzzles = parse_puzzles(text).unwrap();
        assert_eq!(puzzles.len(), 1);
        let p = &puzzles[0];
        assert_eq!((p.rows, p.cols), (5, 6));
        assert_eq!(p.start.player, 4 * 6 + 3);
        assert_eq!(p.start.balls.count_ones(), 2);
        assert_eq!(p.to_string(), text);
    }

    #[test]
    fn codes_follow_the_rendering() {
        let p = &parse_puzzles("2 3\n@O#\n$*-\n").unwrap()[0];
        assert_eq!(p.codes(&p.start), [2, 3, 1, 4, 5, 0]);
    }

    #[test]
    fn errors_name_case_and_line() {
        let good = "2 2\n@$\nO-\n";
        let cases = [
            (
                format!("{good}2 2\n@$\nO\n"),
                "case 2, line 6: row 2 has 1 characters",
            ),
            (
                format!("{good}2 2\n@$\nOx\n"),
                "case 2, line 6: unknown character 'x'",
            ),
            (
                "2 2\n@$\n--\n".to_string(),
                "case 1, line 1: 0 balls but 1 empty box",
            ),
            ("2 2\n-$\nO-\n".to_string(), "case 1, line 1: no player"),
            (
                "2 2\n@$\nO@\n".to_string(),
                "case 1, line 3: a second player",
            ),
            ("8 8\n".to_string(), "too large"),
            ("x\n".to_string(), "expected the size"),
            ("3 2\n@$\nO-\n".to_string(), "missing row 3 of 3"),
            (String::new(), "no puzzle found"),
        ];
        for (text, want) in cases {
            let got = parse_puzzles(&text).unwrap_err().to_string();
            assert!(got.contains(want), "{text:?}: {got}");
        }
    }

    #[test]
    fn a_case_has_one_to_fifteen_pairs() {
        let sixteen = "4 10\n@OOOOOOOOO\nOOOOOOO---\n$$$$$$$$$$\n$$$$$$----\n";
        let err = parse_puzzles(sixteen).unwrap_err().to_string();
        assert_eq!(
            err,
            "case 1, line 3: 16 balls and as many empty boxes; a case has 1 to 15 of each"
        );
        let fifteen = "4 10\n@OOOOOOOOO\nOOOOOO----\n$$$$$$$$$$\n$$$$$-----\n";
        assert_eq!(
            parse_puzzles(fifteen).unwrap()[0].start.balls.count_ones(),
            15
        );
        let none = "2 2\n@$\nO-\n1 2\n@-\n";
        let err = parse_puzzles(none).unwrap_err().to_string();
        assert_eq!(
            err,
            "case 2, line 4: 0 balls and as many empty boxes; a case has 1 to 15 of each"
        );
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        let puzzles = parse_puzzles("\u{feff}2 2\n@$\nO-\n").unwrap();
        assert_eq!(puzzles.len(), 1);
        // Anywhere else it is named, not invisible.
        let err = parse_puzzles("2 2\n@$\nO\u{feff}\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains(r"unknown character '\u{feff}'"), "{err}");
    }

    #[test]
    fn messages_quote_at_most_forty_characters_of_a_line() {
        let long = "7".repeat(1_000_000);
        let err = parse_puzzles(&long).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "case 1, line 1: expected the size 'n m', found '{}...'",
                "7".repeat(40)
            )
        );
    }
}
