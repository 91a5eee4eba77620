//! Output formatting helpers.

use std::fs;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use comfy_table::{
    ColumnConstraint, ContentArrangement, Table, Width, presets::UTF8_FULL_CONDENSED,
};
use indicatif::{ProgressBar, ProgressStyle};

pub(crate) use ply_search::messages::{plural, thousands};

/// The largest input file ply reads: far more than any puzzle set, and a bound on what a
/// mistaken argument (`/dev/zero`, a disk image) can cost.
const MAX_INPUT: u64 = 256 << 20;

/// Whether `path` names standard input (`-`).
pub(crate) fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// Creates the directory `dir` (and those above it) for files ply writes, or says why it
/// cannot: a path that exists and is not a directory is named as such.
pub(crate) fn output_dir(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!("{} is not a directory", dir.display());
    }
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// Writes `bytes` to `path` whole or not at all: into a new file beside it (never through a
/// symbolic link or into an existing file), synced, then renamed over `path`, so that a
/// reader never sees half a file and a link at `path` is replaced, not written through.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let name = path
        .file_name()
        .with_context(|| format!("{} names no file", path.display()))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(format!(".tmp-{}", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| fs::rename(&temporary, path));
    if let Err(e) = written {
        let _ = fs::remove_file(&temporary);
        return Err(anyhow::Error::from(e).context(format!("cannot write {}", path.display())));
    }
    Ok(())
}

/// Reads a text file, or standard input for `-`, of at most [`MAX_INPUT`] bytes. The name may
/// be any path, UTF-8 or not; a byte-order mark at the start is dropped (editors on Windows
/// write one, and it is invisible in an error message).
pub(crate) fn read_input(path: impl AsRef<Path>) -> Result<String> {
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
pub(crate) fn read_parsed<T, E>(
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

/// A result table in ply's style, laid out for the width it is shown in.
///
/// Off a terminal (a pipe, a file) every row is one line, whatever its length, so that `grep`
/// and `cut` see whole rows. On a terminal the table never runs past the right edge:
/// 1. cells wrap between words, and a group in parentheses such as an interval
///    `(-28 to +443)` counts as one word, when every column still gets its widest word;
/// 2. else the groups may break too, when every column then gets its widest plain word;
/// 3. else each row becomes a block of `name  value` lines (the narrow layout), its values
///    wrapped to the terminal.
pub(crate) struct ResultTable {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// The width to lay out for, as on a terminal that wide (tests); else the terminal's.
    width: Option<u16>,
}

/// A space that does not break a line: inside a parenthesised group while the table is laid
/// out, a plain space again in the printed table.
const NO_BREAK: char = '\u{a0}';

/// `text` with the spaces inside parentheses made unbreakable.
fn unbreakable_groups(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .map(|c| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if c == ' ' && depth > 0 { NO_BREAK } else { c }
        })
        .collect()
}

/// The width of the widest word of `text` (in characters), words split at spaces and lines.
fn widest_word(text: &str) -> usize {
    text.split([' ', '\n'])
        .map(|word| word.chars().count())
        .max()
        .unwrap_or(0)
}

/// `text` cut into lines of at most `width` characters, between words where it can (a word
/// longer than a line is cut); its own line breaks are kept.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split(' ').filter(|w| !w.is_empty()) {
            let mut word: Vec<char> = word.chars().collect();
            let used = line.chars().count();
            if used > 0 && used + 1 + word.len() <= width {
                line.push(' ');
                line.extend(word.iter());
                continue;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
            }
            while word.len() > width {
                lines.push(word.drain(..width).collect());
            }
            line.extend(word.iter());
        }
        lines.push(line);
    }
    lines
}

impl ResultTable {
    /// Adds a row of cells.
    pub(crate) fn add_row<T: ToString>(&mut self, cells: impl IntoIterator<Item = T>) -> &mut Self {
        self.rows
            .push(cells.into_iter().map(|cell| cell.to_string()).collect());
        self
    }

    /// Lays the table out `width` columns wide, as on a terminal that wide.
    #[cfg(test)]
    fn set_width(&mut self, width: u16) {
        self.width = Some(width);
    }

    /// The widest word of each column, with parenthesised groups whole or not.
    fn widest_words(&self, groups_whole: bool) -> Vec<usize> {
        let mut widest = vec![0; self.header.len()];
        for row in std::iter::once(&self.header).chain(&self.rows) {
            for (i, cell) in row.iter().enumerate() {
                if widest.len() <= i {
                    widest.resize(i + 1, 0);
                }
                let word = if groups_whole {
                    widest_word(&unbreakable_groups(cell))
                } else {
                    widest_word(cell)
                };
                widest[i] = widest[i].max(word);
            }
        }
        widest
    }

    /// The table as comfy-table draws it, every column at least its widest word wide.
    fn grid(&self, width: Option<u16>, groups_whole: bool) -> String {
        let layout = |cell: &String| {
            if groups_whole {
                unbreakable_groups(cell)
            } else {
                cell.clone()
            }
        };
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED);
        table.set_content_arrangement(ContentArrangement::Dynamic);
        table.set_header(self.header.iter().map(layout));
        for row in &self.rows {
            table.add_row(row.iter().map(layout));
        }
        match width {
            Some(width) => {
                table.set_width(width);
                let bounds = self.widest_words(groups_whole).into_iter().map(|w| {
                    ColumnConstraint::LowerBoundary(Width::Fixed((w + 2).min(200) as u16))
                });
                table.set_constraints(bounds);
            }
            None => {
                table.force_no_tty();
            }
        }
        table.to_string().replace(NO_BREAK, " ")
    }

    /// Whether every column gets its widest word within `width` (a border before each
    /// column and after the last, a space of padding on each side of a cell).
    fn fits(&self, width: u16, groups_whole: bool) -> bool {
        let needed: usize = 1 + self
            .widest_words(groups_whole)
            .iter()
            .map(|w| w + 3)
            .sum::<usize>();
        needed <= usize::from(width)
    }

    /// The narrow layout: per row a block of `name  value` lines, values wrapped to `width`
    /// and continued under themselves, blocks apart by a blank line.
    fn blocks(&self, width: u16) -> String {
        let names = self
            .header
            .iter()
            .map(|name| name.chars().count())
            .max()
            .unwrap_or(0);
        let room = usize::from(width).saturating_sub(names + 2).max(8);
        let mut out = String::new();
        for (r, row) in self.rows.iter().enumerate() {
            if r > 0 {
                out.push('\n');
            }
            for (name, value) in self.header.iter().zip(row) {
                for (i, line) in wrap(value, room).iter().enumerate() {
                    let shown = if i == 0 { name.as_str() } else { "" };
                    out.push_str(format!("{shown:<names$}  {line}").trim_end());
                    out.push('\n');
                }
            }
        }
        out.pop();
        out
    }
}

impl std::fmt::Display for ResultTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let width = self.width.or_else(|| Table::new().width());
        let text = match width {
            None => self.grid(None, true),
            Some(width) if self.fits(width, true) => self.grid(Some(width), true),
            Some(width) if self.fits(width, false) => self.grid(Some(width), false),
            Some(width) => self.blocks(width),
        };
        f.write_str(&text)
    }
}

/// An empty result table with ply's style and the given column names, laid out for the
/// terminal it is shown on ([`ResultTable`]).
pub(crate) fn table<const N: usize>(header: [&str; N]) -> ResultTable {
    table_of(header.iter().map(ToString::to_string).collect())
}

/// [`table`] with columns known only at run time (one per agent of a cross-table, say).
pub(crate) fn table_of(header: Vec<String>) -> ResultTable {
    ResultTable {
        header,
        rows: Vec::new(),
        width: None,
    }
}

/// A progress bar on stderr (hidden when stderr is not a terminal).
pub(crate) fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(progress_style());
    bar.set_prefix(what.to_string());
    bar
}

/// The bar's layout, with the time left at the rate so far: the message takes what is left
/// of the terminal's width and is cut to it, so that the line never wraps (a wrapped line
/// is redrawn as a new line at every tick).
fn progress_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{prefix} [{bar:20}] {human_pos}/{human_len} {elapsed}, eta {eta} {wide_msg}",
    )
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
pub(crate) fn shell_quote(text: &str) -> String {
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

    /// The demo's rows, the widest table ply prints.
    pub(super) fn demo_table() -> super::ResultTable {
        let mut t = table(["system", "instance", "result", "how", "seconds"]);
        t.add_row([
            "npuzzle",
            "Korf #88 (15-puzzle)",
            "optimal: 65 moves (verified)",
            "IDA*, pdb 5-5-5 + reflection built in memory, 11,231,962 nodes",
            "1.008",
        ]);
        t.add_row([
            "sokoboru",
            "medium.in (10 cases, course)",
            "optimal: total penalty 356 (verified)",
            "A* over pushes, 2 threads, 8,352,855 states",
            "18.906",
        ]);
        t.add_row([
            "ewn duel",
            "4 games, course dice",
            "ply's strongest agent beat alpha-beta depth 8 4 of 4",
            "deep alpha-beta (race evaluation, PVS, killers), 300 ms budget, 69 ms per move",
            "3.742",
        ]);
        t.add_row([
            "mines",
            "1024 x 1024, 131,072 mines (seed 1), A = 8",
            "solver scored 100.000: 917,504 safe cells opened, 3 mines hit",
            "logic + least-risk guesses, ply's judge and server, 0.20 s of play",
            "0.236",
        ]);
        t
    }

    #[test]
    fn every_layout_fits_the_terminal() {
        for width in [20, 40, 60, 72, 80, 100, 120, 200] {
            let mut t = demo_table();
            t.set_width(width);
            let text = t.to_string();
            for line in text.lines() {
                assert!(
                    line.chars().count() <= usize::from(width),
                    "{width} columns:\n{text}"
                );
            }
            // Nothing is lost: every word of every cell is shown.
            for word in [
                "Korf",
                "#88",
                "(verified)",
                "killers),",
                "131,072",
                "18.906",
            ] {
                assert!(text.contains(word), "{width} columns, no {word}:\n{text}");
            }
        }
    }

    #[test]
    fn at_80_columns_the_demo_reads_in_a_screenful() {
        let mut t = demo_table();
        t.set_width(80);
        let text = t.to_string();
        assert!(text.lines().count() <= 40, "{text}");
        // No column shrinks to a letter a line.
        assert!(!text.lines().any(|l| l.contains("┆ o ┆")), "{text}");
    }

    #[test]
    fn too_narrow_for_columns_gives_blocks_of_name_and_value() {
        let mut t = demo_table();
        t.set_width(50);
        let text = t.to_string();
        assert!(
            text.starts_with("system    npuzzle\ninstance  Korf #88 (15-puzzle)\n"),
            "{text}"
        );
        assert!(text.contains("\n\nsystem    sokoboru\n"), "{text}");
        // A value too long for a line continues under itself.
        assert!(text.contains("\n          "), "{text}");
    }

    #[test]
    fn off_a_terminal_every_row_is_one_line() {
        let text = demo_table().to_string();
        assert_eq!(text.lines().count(), 2 + 1 + 4 + 1, "{text}");
    }

    #[test]
    fn wrapping_keeps_words_whole_unless_longer_than_a_line() {
        assert_eq!(super::wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(super::wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(super::wrap("one\ntwo", 10), ["one", "two"]);
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
pub(crate) struct Utf8Path;

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
