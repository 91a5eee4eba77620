//! Dice lines: the course's file of them, and the reader of any such file.

use thiserror::Error;

use super::board::DICE;

/// The course's 60 dice sequences (one line of 21 dice each), as the course shipped them.
pub const COURSE_DICE: &str = include_str!("../../../../../data/ewn-duel/dice_seq.txt");

/// The course's 60 dice sequences, parsed.
#[must_use]
pub fn course_dice() -> Vec<[u8; DICE]> {
    parse_dice_file(COURSE_DICE).expect("the bundled dice file is valid")
}

/// What is wrong with a dice file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DiceError {
    /// A character that is not a die 0-5.
    #[error("line {line}: {found:?} is not a die 0-5")]
    NotADie {
        /// The line, from 1.
        line: usize,
        /// The character found.
        found: char,
    },
    /// A line with the wrong number of dice.
    #[error("line {line}: {count} dice, expected {DICE}")]
    Length {
        /// The line, from 1.
        line: usize,
        /// The dice on it.
        count: usize,
    },
    /// No line holds dice.
    #[error("no dice sequence found")]
    Empty,
}

/// Reads a dice file: one sequence of [`DICE`] dice (digits 0-5, spaces ignored) per
/// non-empty line. A byte-order mark at the start is skipped.
///
/// # Errors
/// The first line that is not a sequence, or a file without one.
pub fn parse_dice_file(text: &str) -> Result<Vec<[u8; DICE]>, DiceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let digits: Vec<u8> = line
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '0'..='5' => Ok(c as u8 - b'0'),
                _ => Err(DiceError::NotADie {
                    line: i + 1,
                    found: c,
                }),
            })
            .collect::<Result<_, _>>()?;
        if digits.is_empty() {
            continue;
        }
        let dice: [u8; DICE] = digits.try_into().map_err(|d: Vec<u8>| DiceError::Length {
            line: i + 1,
            count: d.len(),
        })?;
        out.push(dice);
    }
    if out.is_empty() {
        return Err(DiceError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_file() {
        let text = include_str!("../../../../../data/ewn-duel/dice_seq.txt");
        let dice = parse_dice_file(text).unwrap();
        assert_eq!(dice.len(), 60);
        assert_eq!(dice[0][..3], [3, 4, 3]);
        let marked = parse_dice_file(&format!("\u{feff}{text}")).unwrap();
        assert_eq!(marked, dice);
        assert!(
            parse_dice_file("1 2 3\n")
                .unwrap_err()
                .to_string()
                .contains("line 1: 3 dice")
        );
        assert!(
            parse_dice_file("1 2 x\n")
                .unwrap_err()
                .to_string()
                .contains("'x'")
        );
    }

    #[test]
    fn the_course_dice_are_sixty_lines() {
        let dice = course_dice();
        assert_eq!(dice.len(), 60);
        assert_eq!(dice[0][..3], [3, 4, 3]);
    }
}
