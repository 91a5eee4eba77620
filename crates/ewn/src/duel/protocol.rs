//! The agent protocol's messages: the game setup and `ND` moves, as exact ASCII.

use thiserror::Error;

use super::rules::{Board, Color, DICE, DuelError, DuelMove};

/// One game's setup: the cube permutations of both sides and the dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// `red[i]`: the red cube on cell 0, 1, 2, 7, 8, 14 (in that order).
    pub red: [u8; 6],
    /// `blue[i]`: the blue cube on cell 27, 33, 34, 39, 40, 41.
    pub blue: [u8; 6],
    /// The dice sequence.
    pub dice: [u8; DICE],
}

/// A message that breaks the protocol.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// A character that has no place here.
    #[error("unexpected character {found:?} where {expected} was expected")]
    Unexpected {
        /// What came.
        found: char,
        /// What the protocol wanted.
        expected: &'static str,
    },
    /// The setup describes no valid game. The rule it breaks is part of this message and not
    /// a separate source, so that an error chain names it once.
    #[error("bad setup: {0}")]
    Setup(DuelError),
    /// The input ended in the middle of a message or game.
    #[error("the input ended in the middle of {0}")]
    Truncated(&'static str),
}

impl From<DuelError> for ProtocolError {
    fn from(error: DuelError) -> Self {
        ProtocolError::Setup(error)
    }
}

impl Setup {
    /// The start position.
    ///
    /// # Errors
    /// When the permutations or dice are invalid.
    pub fn board(&self) -> Result<Board, DuelError> {
        Board::new(self.red, self.blue, self.dice)
    }

    /// The 33 characters the host sends before the role character.
    #[must_use]
    pub fn encode(&self) -> String {
        self.red
            .iter()
            .chain(&self.blue)
            .chain(&self.dice)
            .map(|&d| char::from(b'0' + d))
            .collect()
    }

    /// Parses the 33 digits of [`Setup::encode`].
    ///
    /// # Errors
    /// [`ProtocolError`] for a non-digit, a digit over 5 or a bad permutation.
    pub fn decode(text: &[u8]) -> Result<Setup, ProtocolError> {
        if text.len() != 12 + DICE {
            return Err(ProtocolError::Truncated("the game setup"));
        }
        let mut digits = [0u8; 12 + DICE];
        for (d, &c) in digits.iter_mut().zip(text) {
            *d = match c {
                b'0'..=b'5' => c - b'0',
                _ => {
                    return Err(ProtocolError::Unexpected {
                        found: char::from(c),
                        expected: "a digit 0-5 of the setup",
                    });
                }
            };
        }
        let mut setup = Setup {
            red: [0; 6],
            blue: [0; 6],
            dice: [0; DICE],
        };
        setup.red.copy_from_slice(&digits[..6]);
        setup.blue.copy_from_slice(&digits[6..12]);
        setup.dice.copy_from_slice(&digits[12..]);
        setup.board()?;
        Ok(setup)
    }
}

/// The role character: `f` for red (first), `s` for blue.
#[must_use]
pub(crate) fn role_char(color: Color) -> u8 {
    match color {
        Color::Red => b'f',
        Color::Blue => b's',
    }
}

/// Parses a two-character move `ND` (cube digit 0-5, direction digit 0-3).
///
/// # Errors
/// [`ProtocolError::Unexpected`] naming the bad character.
pub fn parse_move(text: [u8; 2]) -> Result<DuelMove, ProtocolError> {
    let cube = match text[0] {
        c @ b'0'..=b'5' => c - b'0',
        c => {
            return Err(ProtocolError::Unexpected {
                found: char::from(c),
                expected: "a cube number 0-5",
            });
        }
    };
    let dir = match text[1] {
        c @ b'0'..=b'3' => c - b'0',
        c => {
            return Err(ProtocolError::Unexpected {
                found: char::from(c),
                expected: "a direction 0-3",
            });
        }
    };
    Ok(DuelMove { cube, dir })
}

/// The two characters of a move.
#[must_use]
pub(crate) fn encode_move(mv: DuelMove) -> [u8; 2] {
    [b'0' + mv.cube, b'0' + mv.dir]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_round_trip_and_errors() {
        let setup = Setup {
            red: [5, 4, 3, 2, 1, 0],
            blue: [0, 1, 2, 3, 4, 5],
            dice: [3; DICE],
        };
        let text = setup.encode();
        assert_eq!(text.len(), 33);
        assert!(text.starts_with("543210012345333"));
        assert_eq!(Setup::decode(text.as_bytes()), Ok(setup));
        let bad = text.replacen('5', "6", 1);
        assert!(matches!(
            Setup::decode(bad.as_bytes()),
            Err(ProtocolError::Unexpected { found: '6', .. })
        ));
        let twice = text.replacen('4', "5", 1);
        let error = Setup::decode(twice.as_bytes()).unwrap_err();
        assert!(matches!(error, ProtocolError::Setup(_)));
        // The broken rule is named once: in the message, not again as a source.
        assert!(std::error::Error::source(&error).is_none());
        assert_eq!(
            error.to_string(),
            "bad setup: '553210' is not a permutation of the cube numbers 0-5"
        );
    }

    #[test]
    fn moves() {
        let mv = parse_move(*b"52").unwrap();
        assert_eq!((mv.cube, mv.dir), (5, 2));
        assert_eq!(&encode_move(mv), b"52");
        assert!(parse_move(*b"64").is_err());
        assert!(parse_move(*b"14").is_err());
        assert!(parse_move(*b"x0").is_err());
    }
}
