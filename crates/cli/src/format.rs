//! Output formatting helpers.

use std::fs;
use std::io::Read;

use anyhow::{Context, Result};
use comfy_table::{
    ColumnConstraint, ContentArrangement, Table, Width, presets::UTF8_FULL_CONDENSED,
};
use indicatif::{ProgressBar, ProgressStyle};

/// `n` with thousands separators: `1234567` -> `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `n` and the noun, singular for one ("1 move", "2 moves").
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}

/// The largest input file ply reads: far more than any puzzle set, and a bound on what a
/// mistaken argument (`/dev/zero`, a disk image) can cost.
const MAX_INPUT: u64 = 256 << 20;

/// Reads a text file, or standard input for `-`, of at most [`MAX_INPUT`] bytes. The path
/// need not be UTF-8.
pub fn read_input(path: impl AsRef<std::path::Path>) -> Result<String> {
    let path = path.as_ref();
    let stdin = path.as_os_str() == "-";
    let shown = path.display().to_string();
    let name = if stdin { "standard input" } else { &shown };
    let reader: Box<dyn Read> = if stdin {
        Box::new(std::io::stdin())
    } else {
        Box::new(fs::File::open(path).with_context(|| format!("cannot read {name}"))?)
    };
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > MAX_INPUT {
        anyhow::bail!("{name} is larger than {} MiB", MAX_INPUT >> 20);
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{name}: not text (invalid UTF-8 at byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads a file (or standard input for `-`) and parses it, naming the file in errors.
pub fn read_parsed<T, E>(
    path: impl AsRef<std::path::Path>,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let path = path.as_ref();
    let text = read_input(path)?;
    let name = if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    parse(&text).with_context(|| name)
}

/// A result table in ply's style. On a terminal its cells wrap to fit the terminal's width,
/// between words only: no column gets narrower than its widest word, and a group in
/// parentheses, such as an interval `(-28 to +443)`, counts as one word.
pub struct ResultTable {
    table: Table,
    /// The widest word of each column so far.
    widest: Vec<usize>,
}

/// A space that does not break a line: inside a parenthesised group while the table is laid
/// out, a plain space again in the printed table.
const NO_BREAK: char = '\u{a0}';

/// `text` with the spaces inside parentheses made unbreakable, and the width of its widest
/// word (in characters).
fn unbreakable_groups(text: &str) -> (String, usize) {
    let mut depth = 0usize;
    let kept: String = text
        .chars()
        .map(|c| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if c == ' ' && depth > 0 { NO_BREAK } else { c }
        })
        .collect();
    let widest = kept
        .split([' ', '\n'])
        .map(|word| word.chars().count())
        .max()
        .unwrap_or(0);
    (kept, widest)
}

impl ResultTable {
    /// Adds a row of cells.
    pub fn add_row<T: ToString>(&mut self, cells: impl IntoIterator<Item = T>) -> &mut Self {
        let row: Vec<String> = cells
            .into_iter()
            .enumerate()
            .map(|(i, cell)| self.note(i, &cell.to_string()))
            .collect();
        self.table.add_row(row);
        self.constrain();
        self
    }

    /// Records the widest word of column `i` and returns the cell's text as laid out.
    fn note(&mut self, i: usize, text: &str) -> String {
        let (kept, widest) = unbreakable_groups(text);
        if self.widest.len() <= i {
            self.widest.resize(i + 1, 0);
        }
        self.widest[i] = self.widest[i].max(widest);
        kept
    }

    /// No column narrower than its widest word (plus the cell's padding of one a side).
    fn constrain(&mut self) {
        let bounds: Vec<ColumnConstraint> = self
            .widest
            .iter()
            .map(|&w| ColumnConstraint::LowerBoundary(Width::Fixed((w + 2).min(200) as u16)))
            .collect();
        self.table.set_constraints(bounds);
    }

    /// Lays the table out `width` columns wide, as on a terminal that wide.
    #[cfg(test)]
    fn set_width(&mut self, width: u16) {
        self.table.set_width(width);
    }
}

impl std::fmt::Display for ResultTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.table.to_string().replace(NO_BREAK, " "))
    }
}

/// An empty result table with ply's style and the given column names; on a terminal its
/// cells wrap to fit the terminal's width, never inside a word ([`ResultTable`]).
pub fn table<const N: usize>(header: [&str; N]) -> ResultTable {
    let mut table = ResultTable {
        table: Table::new(),
        widest: Vec::new(),
    };
    table.table.load_preset(UTF8_FULL_CONDENSED);
    table
        .table
        .set_content_arrangement(ContentArrangement::Dynamic);
    let header: Vec<String> = header
        .iter()
        .enumerate()
        .map(|(i, name)| table.note(i, name))
        .collect();
    table.table.set_header(header);
    table.constrain();
    table
}

/// A progress bar on stderr (hidden when stderr is not a terminal).
pub fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {elapsed_precise} {msg}")
            .expect("valid progress template")
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar
}

/// Writes a line to standard output and returns the write's result, so that a closed pipe
/// is an error the command passes up (and `main` ends quietly) rather than a panic.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// Writes a line to standard error, ignoring a failed write: a diagnostic that cannot be
/// shown (stderr on a full disk or a closed pipe) must not panic or stop the command.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// [`errln!`] without the newline (a prompt).
macro_rules! errprint {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stderr = std::io::stderr().lock();
        let _ = write!(stderr, $($arg)*);
        let _ = stderr.flush();
    }};
}

/// Quotes `text` for `sh`.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::{table, thousands};

    #[test]
    fn narrow_tables_wrap_between_words_only() {
        // The tournament's table at 60 columns: before, "forfeits" broke as "forfeit" / "s"
        // and intervals inside their parentheses.
        let mut t = table([
            "rank",
            "agent",
            "games",
            "wins",
            "score",
            "Elo (95%)",
            "forfeits",
        ]);
        t.add_row([
            "1",
            "easy-agent-name",
            "20",
            "18",
            "90.0%",
            "+174 (+59 to +289)",
            "0",
        ]);
        t.set_width(60);
        let text = t.to_string();
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || "│┆".contains(c))
            .collect();
        assert!(words.contains(&"forfeits"), "{text}");
        assert!(text.contains("(+59 to +289)"), "{text}");
        assert!(!text.contains('\u{a0}'), "{text}");
        assert!(text.lines().count() > 5, "it did wrap: {text}");
    }

    #[test]
    fn separates_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(49_082_100), "49,082,100");
        assert_eq!(thousands(499_911_606), "499,911,606");
    }
}
