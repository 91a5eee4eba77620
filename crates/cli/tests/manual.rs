//! `ply man`: a page per command, and every page a page names exists.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{ply, scratch_dir, text};

/// The subcommands `ply WORDS --help` lists (clap's `help` aside).
fn subcommands(words: &[String]) -> Vec<String> {
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args.push("--help");
    let out = ply(&args, "");
    assert!(out.status.success(), "ply {args:?}: {}", text(&out.stderr));
    let help = text(&out.stdout);
    let Some((_, listed)) = help.split_once("\nCommands:\n") else {
        return Vec::new();
    };
    listed
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command path below `ply`, `ply` itself first (`["ply"]`, `["ply", "npuzzle"]`, ...),
/// as `--help` shows them.
fn commands() -> Vec<Vec<String>> {
    let mut out = vec![vec!["ply".to_string()]];
    let mut at = 0;
    while at < out.len() {
        let words = out[at][1..].to_vec();
        for sub in subcommands(&words) {
            let mut path = out[at].clone();
            path.push(sub);
            out.push(path);
        }
        at += 1;
    }
    out
}

/// Roff text with its escapes resolved enough to read names: `\-` is a dash, font changes
/// (`\fB`, `\fR`, `\fI`, `\fP`) go.
fn plain(roff: &str) -> String {
    let mut out = roff.replace("\\-", "-");
    for font in ["\\fB", "\\fR", "\\fI", "\\fP"] {
        out = out.replace(font, "");
    }
    out
}

/// The pages a page refers to: every `name(1)`.
fn references(page: &str) -> BTreeSet<String> {
    let page = plain(page);
    let mut out = BTreeSet::new();
    for (at, _) in page.match_indices("(1)") {
        let name: String = page[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    out
}

/// The `.TH` title of a page.
fn title(page: &str) -> String {
    let line = page
        .lines()
        .find(|l| l.starts_with(".TH "))
        .expect("a .TH line");
    plain(line)
        .split_whitespace()
        .nth(1)
        .expect("a title")
        .to_string()
}

/// The names of the `.1` files in `dir`.
fn pages_in(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .expect("the manual directory")
        .map(|entry| entry.expect("an entry").file_name().into_string().unwrap())
        .collect()
}

#[test]
fn every_command_has_a_page_and_every_reference_resolves() {
    let dir = scratch_dir();
    let man = dir.path().join("man1");
    let out = ply(&["man", man.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "the pages go to files, not stdout");
    let files = pages_in(&man);
    let commands = commands();
    assert!(
        commands.len() > 20,
        "the help lists every command: {commands:?}"
    );
    for path in &commands {
        let file = format!("{}.1", path.join("-"));
        assert!(
            files.contains(&file),
            "no page {file} for `{}`",
            path.join(" ")
        );
    }
    assert_eq!(
        files.len(),
        commands.len(),
        "one page per command and no other: {files:?}"
    );
    let mut referenced = BTreeSet::new();
    for file in &files {
        let page = std::fs::read_to_string(man.join(file)).expect("a page");
        let name = file.strip_suffix(".1").expect("section 1");
        assert_eq!(title(&page), name, "{file}: the title names the page");
        assert!(
            page.contains(".SH \"SEE ALSO\""),
            "{file} has a SEE ALSO section"
        );
        for target in references(&page) {
            assert!(
                files.contains(&format!("{target}.1")),
                "{file} refers to {target}(1), which is not generated"
            );
            referenced.insert(target);
        }
        if name != "ply" {
            let parent = &name[..name.rfind('-').expect("a subcommand page")];
            assert!(
                references(&page).contains(parent),
                "{file} names the page above it, {parent}(1)"
            );
        }
    }
    for file in &files {
        let name = file.strip_suffix(".1").unwrap();
        assert!(
            name == "ply" || referenced.contains(name),
            "no page leads to {name}(1)"
        );
    }
}

#[test]
fn without_a_directory_the_top_page_goes_to_stdout() {
    let dir = scratch_dir();
    let out = ply(&["man", dir.path().to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let top = ply(&["man"], "");
    assert!(top.status.success(), "{}", text(&top.stderr));
    let written = std::fs::read(dir.path().join("ply.1")).expect("ply.1");
    assert_eq!(top.stdout, written);
    assert!(references(&text(&top.stdout)).contains("ply-npuzzle"));
}

#[test]
fn a_directory_that_cannot_be_made_is_one_clear_error() {
    let dir = scratch_dir();
    let file = dir.path().join("not-a-directory");
    std::fs::write(&file, "x").unwrap();
    let out = ply(&["man", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("ply: error: ")
            && err
                .trim_end()
                .ends_with("not-a-directory is not a directory")
            && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

#[test]
fn pages_replace_links_instead_of_writing_through_them() {
    let dir = scratch_dir();
    let keep = dir.path().join("keep.txt");
    std::fs::write(&keep, "mine\n").unwrap();
    let man = dir.path().join("man");
    std::fs::create_dir(&man).unwrap();
    std::os::unix::fs::symlink(&keep, man.join("ply.1")).unwrap();
    let out = ply(&["man", man.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "mine\n");
    let page = man.join("ply.1");
    assert!(!page.symlink_metadata().unwrap().is_symlink());
    assert!(std::fs::read_to_string(&page).unwrap().contains(".TH"));
    // No temporary file is left beside the pages.
    let left: Vec<String> = std::fs::read_dir(&man)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert_eq!(left, Vec::<String>::new());
}
