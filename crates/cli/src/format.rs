//! Output formatting helpers.

use std::fs;
use std::io::Read;

use anyhow::{Context, Result};
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
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

/// An empty result table with ply's style and the given column names; on a terminal its
/// cells wrap to fit the terminal's width.
pub fn table<const N: usize>(header: [&str; N]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_content_arrangement(ContentArrangement::Dynamic);
    table.set_header(header);
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
    use super::thousands;

    #[test]
    fn separates_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(49_082_100), "49,082,100");
        assert_eq!(thousands(499_911_606), "499,911,606");
    }
}
