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

/// What a shell command line starts with.
#[derive(Debug, PartialEq, Eq)]
enum Start {
    /// A program (or a word the shell runs itself), unquoted, after any variable assignments.
    Program {
        /// The word.
        word: String,
        /// Whether assignments (`NAME=value`) come before it.
        assigned: bool,
    },
    /// Something only the shell can interpret: a variable, a redirection, a subshell.
    Opaque,
    /// Nothing but blanks: the shell would run nothing.
    Empty,
    /// Only variable assignments: the shell would set them and run nothing.
    OnlyAssignments,
}

/// Whether `word` (up to its first `=`) names a shell variable, so that `word` is an
/// assignment rather than a program.
fn assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// How the shell would read the start of `command`: its first word after any variable
/// assignments, unquoted.
fn start_of(command: &str) -> Start {
    let mut rest = command;
    let mut assigned = false;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return if assigned {
                Start::OnlyAssignments
            } else {
                Start::Empty
            };
        }
        // The word as typed (quotes kept, to find its end) and as the shell reads it.
        let mut word = String::new();
        let mut quote = None;
        let mut end = rest.len();
        let mut opaque = false;
        for (i, c) in rest.char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), c) => word.push(c),
                (None, '\'' | '"') => quote = Some(c),
                (None, c) if c.is_whitespace() || ";&|<>()".contains(c) => {
                    end = i;
                    break;
                }
                (None, '$' | '`' | '*' | '?' | '~') => {
                    opaque = true;
                    word.push(c);
                }
                (None, c) => word.push(c),
            }
        }
        let typed = &rest[..end];
        if assignment(typed) {
            // The value may hold anything; the program, if any, comes after it.
            assigned = true;
            rest = &rest[end..];
            continue;
        }
        if opaque || word.is_empty() {
            return Start::Opaque;
        }
        return Start::Program { word, assigned };
    }
}

/// Whether `command` is one simple command: no `;`, `&`, `|` or line break outside quotes.
/// `sh -c` then has nothing to do after it, and can be replaced by it (`exec`).
fn simple(command: &str) -> bool {
    let mut quote = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, ';' | '&' | '|' | '\n') => return false,
            (None, _) => {}
        }
    }
    quote.is_none()
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
/// is on `PATH` (after a plain `cargo run`, say), and one simple command replaces the shell
/// (`exec`), so that the program itself is the referee's child and dies with it.
///
/// # Errors
/// A usage error naming the role and the program that is not there.
pub fn checked_command(role: &str, command: &str) -> Result<String> {
    let (program, assigned) = match start_of(command) {
        Start::Program { word, assigned } => (word, assigned),
        Start::Opaque => return Ok(command.to_string()),
        Start::Empty => {
            return Err(crate::outcome::usage(format!(
                "{role}: the command is empty"
            )));
        }
        Start::OnlyAssignments => {
            return Err(crate::outcome::usage(format!(
                "{role}: `{command}` only sets shell variables and starts no program"
            )));
        }
    };
    // `exec` cannot take assignments before the program: such a command keeps its shell.
    let exec = |command: String| {
        if simple(&command) && !assigned {
            format!("exec {command}")
        } else {
            command
        }
    };
    if SHELL_WORDS.contains(&program.as_str()) {
        return Ok(command.to_string());
    }
    if find(&program).is_some() {
        return Ok(exec(command.to_string()));
    }
    if program == "ply"
        && !assigned
        && let Ok(me) = std::env::current_exe()
    {
        let rest = command.trim_start().strip_prefix("ply").unwrap_or_default();
        return Ok(exec(format!(
            "{}{rest}",
            shell_quote(&me.display().to_string())
        )));
    }
    let hint = if program.contains('/') {
        "no such executable file"
    } else {
        "not found on PATH"
    };
    Err(crate::outcome::usage(format!(
        "{role}: `{program}` cannot be started: {hint}"
    )))
}

/// Makes this process the reaper of every process it starts, however deep: a descendant
/// that leaves its process group (`setsid`) and loses its parent becomes this process's
/// child instead of init's, so that [`stop_orphans`] can still stop it.
pub fn adopt_orphans() {
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// Kills and reaps every child of this process: at the end of a referee's run, whatever its
/// agents left behind (they themselves are stopped by their process groups).
pub fn stop_orphans() {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The fields after the command's closing parenthesis: state, then the parent's pid.
        let parent = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1));
        if parent == Some(me.as_str()) {
            let pid = nix::unistd::Pid::from_raw(pid);
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
            let _ = nix::sys::wait::waitpid(pid, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(word: &str) -> Start {
        Start::Program {
            word: word.to_string(),
            assigned: false,
        }
    }

    #[test]
    fn the_first_word_is_read_as_the_shell_would() {
        assert_eq!(start_of("  ply ewn agent random"), program("ply"));
        assert_eq!(start_of("'/opt/my agent' --fast"), program("/opt/my agent"));
        assert_eq!(start_of("sleep 5; touch x"), program("sleep"));
        assert_eq!(start_of("$AGENT --x"), Start::Opaque);
        assert_eq!(
            start_of("FOO=1 BAR='a b' agent --x"),
            Start::Program {
                word: "agent".into(),
                assigned: true
            }
        );
        assert_eq!(start_of(""), Start::Empty);
        assert_eq!(start_of("  \t "), Start::Empty);
        assert_eq!(start_of("b=cmd"), Start::OnlyAssignments);
        assert_eq!(start_of("A=1 B=2"), Start::OnlyAssignments);
        // A word with `=` that is no variable name is a program's name.
        assert_eq!(start_of("="), program("="));
        assert_eq!(start_of("=x arg"), program("=x"));
    }

    #[test]
    fn empty_commands_and_bare_assignments_are_usage_errors() {
        for (command, says) in [
            ("", "the command is empty"),
            ("   ", "the command is empty"),
            ("b=cmd", "only sets shell variables"),
            ("=", "`=` cannot be started"),
        ] {
            let error = checked_command("p0", command).unwrap_err();
            assert!(error.to_string().contains(says), "{command:?}: {error}");
            assert!(
                error.is::<crate::outcome::Usage>(),
                "{command:?}: a usage error"
            );
        }
        // A program after assignments is checked too, and keeps its shell.
        assert!(checked_command("p0", "FOO=1 no-such-program-anywhere").is_err());
        assert_eq!(
            checked_command("p0", "FOO=1 sleep 1").unwrap(),
            "FOO=1 sleep 1"
        );
    }

    #[test]
    fn missing_programs_are_usage_errors_and_shell_words_pass() {
        assert!(checked_command("p0", "/nonexistent/agent").is_err());
        assert!(checked_command("p0", "no-such-program-anywhere --x").is_err());
        for shell in [
            "exit 3",
            "printf 10; sleep 5",
            "while :; do :; done",
            "sleep 1 & wait",
        ] {
            assert_eq!(checked_command("p0", shell).unwrap(), shell);
        }
        assert_eq!(
            checked_command("p0", "sh -c 'exit 1'").unwrap(),
            "exec sh -c 'exit 1'"
        );
        assert_eq!(
            checked_command("p0", "sleep '1;2'").unwrap(),
            "exec sleep '1;2'"
        );
    }
}
