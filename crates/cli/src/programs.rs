//! The programs a referee starts (agents, players, servers): checked before the first game,
//! so that a missing program is a usage error rather than a match of forfeits.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::format::shell_quote;

/// Words `sh` runs itself, which no `PATH` lookup finds.
const SHELL_WORDS: &[&str] = &[
    "!", ".", ":", "[", "alias", "break", "case", "cd", "command", "continue", "echo", "eval",
    "exec", "exit", "export", "false", "for", "if", "kill", "printf", "read", "return", "set",
    "shift", "test", "times", "trap", "true", "type", "ulimit", "umask", "unset", "until", "wait",
    "while", "{", "(",
];

/// The first word of a shell command line, unquoted, unless the line starts with something
/// only the shell can interpret (a variable, a redirection, an assignment, a subshell).
fn first_word(command: &str) -> Option<String> {
    let trimmed = command.trim_start();
    let mut word = String::new();
    let mut chars = trimmed.chars();
    let mut quote = None;
    for c in chars.by_ref() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, c) if c.is_whitespace() || ";&|<>()".contains(c) => break,
            (None, '$' | '`' | '=' | '*' | '?' | '~') => return None,
            (None, c) => word.push(c),
        }
    }
    (!word.is_empty()).then_some(word)
}

/// Whether `path` is an executable regular file.
fn executable(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Where `sh` would find the program `name`, if anywhere.
fn find(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return executable(Path::new(name)).then(|| PathBuf::from(name));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|candidate| executable(candidate))
    })
}

/// Checks that `command` (run with `sh -c` by a referee, as `role`) starts a program that
/// exists, and returns the command to run: `ply ...` runs this very program when no `ply`
/// is on `PATH` (after a plain `cargo run`, say).
///
/// # Errors
/// A usage error naming the role and the program that is not there.
pub fn checked_command(role: &str, command: &str) -> Result<String> {
    let Some(program) = first_word(command) else {
        return Ok(command.to_string());
    };
    if SHELL_WORDS.contains(&program.as_str()) || find(&program).is_some() {
        return Ok(command.to_string());
    }
    if program == "ply" {
        if let Ok(me) = std::env::current_exe() {
            let rest = command.trim_start().strip_prefix("ply").unwrap_or_default();
            return Ok(format!("{}{rest}", shell_quote(&me.display().to_string())));
        }
    }
    let hint = if program.contains('/') {
        "no such executable file"
    } else {
        "not found on PATH"
    };
    Err(crate::usage(format!(
        "{role}: `{program}` cannot be started: {hint}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_word_is_read_as_the_shell_would() {
        assert_eq!(first_word("  ply ewn agent random").as_deref(), Some("ply"));
        assert_eq!(
            first_word("'/opt/my agent' --fast").as_deref(),
            Some("/opt/my agent")
        );
        assert_eq!(first_word("sleep 5; touch x").as_deref(), Some("sleep"));
        assert_eq!(first_word("$AGENT --x"), None);
        assert_eq!(first_word("FOO=1 agent"), None);
    }

    #[test]
    fn missing_programs_are_usage_errors_and_shell_words_pass() {
        assert!(checked_command("p0", "/nonexistent/agent").is_err());
        assert!(checked_command("p0", "no-such-program-anywhere --x").is_err());
        for fine in [
            "exit 3",
            "printf 10; sleep 5",
            "sh -c 'exit 1'",
            "while :; do :; done",
        ] {
            assert_eq!(checked_command("p0", fine).unwrap(), fine);
        }
    }
}
