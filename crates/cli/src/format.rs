//! Output formatting helpers.

use std::fs;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use comfy_table::{
    ColumnConstraint, ContentArrangement, Table, Width, presets::UTF8_FULL_CONDENSED,
};
use indicatif::{ProgressBar, ProgressStyle};

pub use ply_search::messages::{plural, thousands};

/// The largest input file ply reads: far more than any puzzle set, and a bound on what a
/// mistaken argument (`/dev/zero`, a disk image) can cost.
const MAX_INPUT: u64 = 256 << 20;

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// Reads a text file, or standard input for `-`, of at most [`MAX_INPUT`] bytes. The name may
/// be any path, UTF-8 or not; a byte-order mark at the start is dropped (editors on Windows
/// write one, and it is invisible in an error message).
pub fn read_input(path: impl AsRef<Path>) -> Result<String> {
    let path = path.as_ref();
    let name = if is_stdin(path) {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let reader: Box<dyn Read> = if is_stdin(path) {
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
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{name}: not text (invalid UTF-8 at byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Reads a file (or standard input for `-`) and parses it, naming the file in errors.
pub fn read_parsed<T, E>(
    path: impl AsRef<Path>,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let path = path.as_ref();
    let text = read_input(path)?;
    let name = if is_stdin(path) {
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
    bar.set_style(progress_style());
    bar.set_prefix(what.to_string());
    bar
}

/// The bar's layout: the message takes what is left of the terminal's width and is cut to
/// it, so that the line never wraps (a wrapped line is redrawn as a new line at every tick).
fn progress_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix} [{bar:20}] {human_pos}/{human_len} {elapsed} {wide_msg}")
        .expect("valid progress template")
        .progress_chars("=> ")
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
    use super::{plural, progress_style, read_input, table, thousands};
    use indicatif::{ProgressBar, ProgressDrawTarget, TermLike};
    use std::sync::{Arc, Mutex};

    /// An 80-column terminal that keeps what is written to it.
    #[derive(Debug, Default, Clone)]
    struct Screen(Arc<Mutex<String>>);

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            let mut text = self.0.lock().unwrap();
            text.push_str(s);
            text.push('\n');
            Ok(())
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.0.lock().unwrap().push('\n');
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_widest_progress_line_fits_80_columns() {
        // The 24-puzzle's databases: the longest name and the largest counts ply shows.
        let screen = Screen::default();
        let total = 4 * 127_512_000;
        let bar = ProgressBar::with_draw_target(
            Some(total),
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        bar.set_style(progress_style());
        bar.set_prefix("building pdb 6-6-6-6");
        bar.set_position(total - 1);
        bar.set_message("pattern 4/4, depth 45, and a long message after that");
        bar.force_draw();
        let text = screen.0.lock().unwrap().clone();
        assert!(text.contains("building pdb 6-6-6-6 ["), "{text:?}");
        for line in text.lines() {
            assert!(
                line.chars().count() <= 80,
                "{} columns: {line}",
                line.chars().count()
            );
        }
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "move"), "1 move");
        assert_eq!(plural(0, "move"), "0 moves");
        assert_eq!(plural(1234, "instance"), "1,234 instances");
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bom.txt");
        std::fs::write(&path, "\u{feff}2\n").unwrap();
        assert_eq!(read_input(&path).unwrap(), "2\n");
    }

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

/// The value parser of paths that ply records as text (logs and dice files, whose names go
/// into JSON headers and messages): a name that is not UTF-8 is a usage error that names the
/// option, instead of clap's "invalid UTF-8 was detected in one or more arguments".
#[derive(Clone, Copy, Debug)]
pub struct Utf8Path;

impl clap::builder::TypedValueParser for Utf8Path {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<String, clap::Error> {
        value.to_str().map(str::to_owned).ok_or_else(|| {
            let name = arg.map_or_else(|| "a path".to_owned(), ToString::to_string);
            let shown =
                ply_search::messages::excerpt(&value.as_encoded_bytes().escape_ascii().to_string());
            clap::Error::raw(
                clap::error::ErrorKind::InvalidUtf8,
                format!("{name}: '{shown}' is not UTF-8 (ply records this path as text)\n"),
            )
            .with_cmd(cmd)
        })
    }
}
