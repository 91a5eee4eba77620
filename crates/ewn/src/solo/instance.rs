//! The instance format: goal piece, six cells, thirty dice (and optionally the optimum).

use std::fmt;

use thiserror::Error;

use super::rules::{CELLS, HOLE, Position};

/// The number of dice in an instance; a game has at most this many moves.
pub const DICE: usize = 30;

/// A bad instance, naming its line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct InstanceError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A single-player EWN instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instance {
    /// The piece that must reach (0,0), 1..=6.
    pub goal: u8,
    /// The start cells of pieces 1..=6.
    pub cells: [u8; 6],
    /// The dice, each 1..=6; move `i` uses `dice[i]`.
    pub dice: [u8; DICE],
    /// The optimal length if the file gives it (a 4th line); solvers ignore it.
    pub known_optimum: Option<u32>,
    /// Whether the file says the instance has no solution (a 4th line `none`).
    pub known_unsolvable: bool,
}

pub(crate) use ply_search::messages::excerpt;

fn err(line: usize, message: impl Into<String>) -> InstanceError {
    InstanceError {
        line,
        message: message.into(),
    }
}

impl Instance {
    /// Parses the 3-line format (a 4th line, the known optimum, is optional). A byte-order
    /// mark at the start is skipped.
    ///
    /// # Errors
    /// An [`InstanceError`] naming the first bad line.
    pub fn parse(text: &str) -> Result<Instance, InstanceError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        let last_line = text.lines().count().max(1);
        let (n, goal_text) = lines
            .next()
            .ok_or_else(|| err(1, "missing the goal piece (1..6)"))?;
        let goal = match goal_text.parse::<u8>() {
            Ok(g @ 1..=6) => g,
            _ => {
                return Err(err(
                    n,
                    format!("goal piece '{}' is not 1..6", excerpt(goal_text)),
                ));
            }
        };
        let (n, cells_text) = lines
            .next()
            .ok_or_else(|| err(last_line, "missing the cells of pieces 1..6"))?;
        let mut cells = [0u8; 6];
        let tokens: Vec<&str> = cells_text.split_whitespace().collect();
        if tokens.len() != 6 {
            return Err(err(n, format!("expected 6 cells, found {}", tokens.len())));
        }
        for (i, tok) in tokens.iter().enumerate() {
            let cell = tok
                .parse::<u8>()
                .ok()
                .filter(|&c| usize::from(c) < CELLS)
                .ok_or_else(|| {
                    err(
                        n,
                        format!("cell '{}' of piece {} is not 0..99", excerpt(tok), i + 1),
                    )
                })?;
            if cell == HOLE {
                return Err(err(n, format!("piece {} stands on the hole (33)", i + 1)));
            }
            if let Some(j) = cells[..i].iter().position(|&c| c == cell) {
                return Err(err(
                    n,
                    format!("pieces {} and {} share cell {cell}", j + 1, i + 1),
                ));
            }
            cells[i] = cell;
        }
        let (n, dice_text) = lines
            .next()
            .ok_or_else(|| err(last_line, "missing the 30 dice"))?;
        let digits: Vec<char> = dice_text.chars().filter(|c| !c.is_whitespace()).collect();
        if digits.len() != DICE {
            return Err(err(n, format!("expected 30 dice, found {}", digits.len())));
        }
        let mut dice = [0u8; DICE];
        for (i, ch) in digits.iter().enumerate() {
            dice[i] = match ch.to_digit(10) {
                Some(d @ 1..=6) => d as u8,
                _ => {
                    let shown = excerpt(&ch.to_string());
                    return Err(err(n, format!("die {} is '{shown}', not 1..6", i + 1)));
                }
            };
        }
        let (known_optimum, known_unsolvable) = match lines.next() {
            None => (None, false),
            Some((_, "none")) => (None, true),
            Some((n, t)) => (
                Some(t.parse::<u32>().map_err(|_| {
                    err(
                        n,
                        format!("optimum '{}' is not a number (or 'none')", excerpt(t)),
                    )
                })?),
                false,
            ),
        };
        if let Some((n, _)) = lines.next() {
            return Err(err(n, "unexpected extra line"));
        }
        Ok(Instance {
            goal,
            cells,
            dice,
            known_optimum,
            known_unsolvable,
        })
    }

    /// Parses several instances separated by blank lines (the format `ply ewn solo gen`
    /// writes); line numbers in errors count from the start of `text`. A byte-order mark at
    /// the start is skipped.
    ///
    /// # Errors
    /// An [`InstanceError`] naming the first bad line, or line 1 when there is no instance.
    pub fn parse_many(text: &str) -> Result<Vec<Instance>, InstanceError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut out = Vec::new();
        let mut block = String::new();
        let mut block_start = 0;
        for (i, line) in text.lines().chain(std::iter::once("")).enumerate() {
            if line.trim().is_empty() {
                if !block.is_empty() {
                    let inst = Instance::parse(&block).map_err(|e| InstanceError {
                        line: e.line + block_start,
                        message: e.message,
                    })?;
                    out.push(inst);
                    block.clear();
                }
                block_start = i + 1;
            } else {
                block.push_str(line);
                block.push('\n');
            }
        }
        if out.is_empty() {
            return Err(err(1, "no instance found"));
        }
        Ok(out)
    }

    /// The instance of its parts: the goal piece, the cells of pieces 1..=6, the dice and the
    /// optimum if known, checked as [`Instance::parse`] checks the lines of the file that
    /// holds them (an error names that line).
    ///
    /// # Errors
    /// An [`InstanceError`] naming the line of the first bad part.
    pub fn from_parts(
        goal: u8,
        cells: &[u8],
        dice: &[u8],
        known_optimum: Option<u32>,
    ) -> Result<Instance, InstanceError> {
        let cells: Vec<String> = cells.iter().map(u8::to_string).collect();
        let dice: Vec<String> = dice.iter().map(u8::to_string).collect();
        let optimum = known_optimum.map_or_else(String::new, |o| format!("{o}\n"));
        let text = format!("{goal}\n{}\n{}\n{optimum}", cells.join(" "), dice.join(""));
        Instance::parse(&text)
    }

    /// The start position.
    #[must_use]
    pub fn position(&self) -> Position {
        Position::new(self.cells)
    }
}

impl fmt::Display for Instance {
    /// The instance in its file format (with the optimum as a 4th line when known).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.goal)?;
        let cells: Vec<String> = self.cells.iter().map(u8::to_string).collect();
        writeln!(f, "{}", cells.join(" "))?;
        let dice: String = self.dice.iter().map(|d| char::from(b'0' + d)).collect();
        writeln!(f, "{dice}")?;
        if let Some(opt) = self.known_optimum {
            writeln!(f, "{opt}")?;
        } else if self.known_unsolvable {
            writeln!(f, "none")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_sample_and_round_trips() {
        let text = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n";
        let inst = Instance::parse(text).unwrap();
        assert_eq!(inst.goal, 2);
        assert_eq!(inst.cells, [62, 26, 66, 42, 32, 36]);
        assert_eq!(inst.dice[0], 6);
        assert_eq!(inst.known_optimum, None);
        assert_eq!(inst.to_string(), text);
        let spaced =
            Instance::parse("4\n10 20 11  0 21 1\n335413231666143364256243263262\n0\n").unwrap();
        assert_eq!(spaced.cells, [10, 20, 11, 0, 21, 1]);
        assert_eq!(spaced.known_optimum, Some(0));
    }

    #[test]
    fn an_instance_of_its_parts_is_checked_as_its_file() {
        let text = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n9\n";
        let inst = Instance::parse(text).unwrap();
        let again = Instance::from_parts(inst.goal, &inst.cells, &inst.dice, Some(9));
        assert_eq!(again, Ok(inst.clone()));
        let bad = Instance::from_parts(2, &[1, 2, 33, 4, 5, 6], &inst.dice, None).unwrap_err();
        assert_eq!(bad.to_string(), "line 2: piece 3 stands on the hole (33)");
        let bad = Instance::from_parts(2, &inst.cells, &[7; 30], None).unwrap_err();
        assert_eq!(bad.to_string(), "line 3: die 1 is '7', not 1..6");
    }

    #[test]
    fn errors_name_the_line() {
        let dice = "665545154156655451541566554515";
        let cases = [
            (String::new(), "line 1: missing the goal piece"),
            ("7\n".to_string(), "line 1: goal piece '7' is not 1..6"),
            (
                "2\n1 2 3\n".to_string(),
                "line 2: expected 6 cells, found 3",
            ),
            (
                "2\n1 2 3 4 5 100\n".to_string(),
                "line 2: cell '100' of piece 6 is not 0..99",
            ),
            (
                "2\n1 2 33 4 5 6\n".to_string(),
                "line 2: piece 3 stands on the hole",
            ),
            (
                "2\n1 2 3 4 5 1\n".to_string(),
                "line 2: pieces 1 and 6 share cell 1",
            ),
            ("2\n1 2 3 4 5 6\n".to_string(), "missing the 30 dice"),
            (
                "2\n1 2 3 4 5 6\n12345\n".to_string(),
                "line 3: expected 30 dice, found 5",
            ),
            (
                format!("2\n1 2 3 4 5 6\n7{}\n", &dice[1..]),
                "line 3: die 1 is '7'",
            ),
            (
                format!("2\n1 2 3 4 5 6\n{dice}\nx\n"),
                "line 4: optimum 'x'",
            ),
            (
                format!("2\n1 2 3 4 5 6\n{dice}\n3\n4\n"),
                "line 5: unexpected extra line",
            ),
        ];
        for (text, want) in cases {
            let got = Instance::parse(&text).unwrap_err().to_string();
            assert!(got.contains(want), "{text:?}: {got}");
        }
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_quotes_are_short_and_visible() {
        let sample = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n";
        let with_mark = Instance::parse(&format!("\u{feff}{sample}")).unwrap();
        assert_eq!(with_mark, Instance::parse(sample).unwrap());
        assert_eq!(
            Instance::parse_many(&format!("\u{feff}{sample}"))
                .unwrap()
                .len(),
            1
        );
        let huge = "7".repeat(1_000_000);
        let got = Instance::parse(&huge).unwrap_err().to_string();
        assert!(got.len() < 100, "{got}");
        assert!(got.contains(&format!("'{}...'", &huge[..40])), "{got}");
        let got = Instance::parse("2\n62 26 66 42 32 \u{feff}36\n")
            .unwrap_err()
            .to_string();
        assert!(got.contains(r"cell '\u{feff}36'"), "{got}");
    }
}
