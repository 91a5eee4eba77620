//! `ply man`: the manual, one roff page per command (`ply.1`, `ply-npuzzle.1`,
//! `ply-npuzzle-solve.1`, ...), rendered by clap_mangen from the same definitions as `--help`.
//!
//! Every page names only pages that exist: its SUBCOMMANDS section lists its own subcommands'
//! pages, and a SEE ALSO section names the page of the command above it and those below it.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use clap::Command;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

/// One rendered page: its file name (`ply-npuzzle-solve.1`) and its roff text.
pub(crate) struct Page {
    /// The file name, the command's words joined by dashes, with the section.
    pub file: String,
    /// The page in roff.
    pub text: Vec<u8>,
}

/// The manual section of every page: user commands.
const SECTION: &str = "1";

/// `ply man`: the top page on stdout, or with `dir` every page written into it.
pub(crate) fn run(cli: Command, dir: Option<&Path>) -> Result<()> {
    let pages = pages(cli)?;
    let Some(dir) = dir else {
        // Rendered to memory first, so a failed render writes nothing.
        let top = pages.last().context("the manual has no pages")?;
        std::io::stdout().lock().write_all(&top.text)?;
        return Ok(());
    };
    crate::format::output_dir(dir)?;
    // Each page whole, and a link in the directory replaced rather than written through.
    for page in &pages {
        crate::format::write_whole(&dir.join(&page.file), &page.text)?;
    }
    errln!(
        "ply: wrote {} to {}",
        crate::format::plural(pages.len() as u64, "manual page"),
        dir.display()
    );
    Ok(())
}

/// Every page of `cli`'s manual, the subcommands' before their command's, the top page last.
pub(crate) fn pages(cli: Command) -> Result<Vec<Page>> {
    let mut cli = without_help_subcommands(cli);
    cli.build();
    let mut out = Vec::new();
    render(&cli, None, &mut out)?;
    Ok(out)
}

/// `cmd` and all its subcommands without clap's `help` subcommand, which would list a page
/// (`ply-npuzzle-help(1)`) that says nothing `--help` does not.
fn without_help_subcommands(cmd: Command) -> Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    names
        .into_iter()
        .fold(cmd, |cmd, name| {
            cmd.mut_subcommand(name, without_help_subcommands)
        })
        .disable_help_subcommand(true)
}

/// The page name of a built command: its words joined by dashes (`ply-npuzzle-solve`).
fn page_name(cmd: &Command) -> &str {
    cmd.get_display_name().unwrap_or_else(|| cmd.get_name())
}

/// Renders `cmd`'s page and those of its subcommands into `out`; `parent` is the page of the
/// command above it.
fn render(cmd: &Command, parent: Option<&str>, out: &mut Vec<Page>) -> Result<()> {
    let subs: Vec<&Command> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    for sub in &subs {
        render(sub, Some(page_name(cmd)), out)?;
    }
    let version = cmd.get_version().unwrap_or_default();
    let man = Man::new(cmd.clone())
        .section(SECTION)
        .source(format!("ply {version}"));
    let mut text = Vec::new();
    man.render(&mut text)?;
    if text.last().is_some_and(|&b| b != b'\n') {
        text.push(b'\n');
    }
    let mut related: Vec<&str> = parent.into_iter().collect();
    related.extend(subs.iter().map(|s| page_name(s)));
    if !related.is_empty() {
        let mut see_also = Roff::default();
        see_also.control("SH", ["SEE ALSO"]);
        // Page names are not words to break at their dashes.
        see_also.control("nh", []);
        let mut line = Vec::new();
        for (i, name) in related.iter().enumerate() {
            if i > 0 {
                line.push(roman(", "));
            }
            line.push(bold(*name));
            line.push(roman(format!("({SECTION})")));
        }
        see_also.text(line);
        // Without the apostrophe preamble, which the page above already defines (and the
        // names hold no apostrophe).
        text.extend_from_slice(see_also.to_roff().as_bytes());
        if text.last().is_some_and(|&b| b != b'\n') {
            text.push(b'\n');
        }
    }
    out.push(Page {
        file: man.get_filename(),
        text,
    });
    Ok(())
}
