//! Helpers for the error messages of ply's libraries, so that every crate quotes its input the
//! same way.

/// The most characters of a user's input that a message quotes.
pub const EXCERPT_CHARS: usize = 40;

/// `text` as an error message quotes it: at most [`EXCERPT_CHARS`] characters (then `...`), so
/// that a huge token cannot make a huge message, with invisible characters (a byte-order mark,
/// control characters) written as escapes, so that the message shows what the input holds.
///
/// ```
/// use ply_search::messages::excerpt;
/// assert_eq!(excerpt("\u{feff}2"), "\\u{feff}2");
/// assert_eq!(excerpt(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
/// ```
#[must_use]
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push_str("...");
            break;
        }
        // `escape_debug` leaves printable characters alone; quotes and backslashes read fine
        // as they are.
        if matches!(c, '\'' | '"' | '\\') {
            out.push(c);
        } else {
            out.extend(c.escape_debug());
        }
    }
    out
}

/// `n` with thousands separators: `1234567` -> `1,234,567`.
///
/// ```
/// assert_eq!(ply_search::messages::thousands(49_082_100), "49,082,100");
/// ```
#[must_use]
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `n` and the noun, singular for one ("1 move", "2 moves", "1,234 instances").
///
/// ```
/// use ply_search::messages::plural;
/// assert_eq!(plural(1, "move"), "1 move");
/// assert_eq!(plural(1234, "instance"), "1,234 instances");
/// ```
#[must_use]
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}

/// `x` as a message shows a number: as written when it is of everyday size, in scientific
/// notation when it is huge or tiny (`1e300` rather than 301 digits).
///
/// ```
/// use ply_search::messages::short_number;
/// assert_eq!(short_number(1.5), "1.5");
/// assert_eq!(short_number(1e300), "1e300");
/// ```
#[must_use]
pub fn short_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-4..1e9).contains(&x.abs()) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}
