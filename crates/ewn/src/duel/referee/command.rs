//! Whether a referee's agent command can start: a program that is not there is a usage error
//! before the first game, rather than a match of forfeits.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use ply_search::messages::excerpt;

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
    /// Nothing but blanks.
    Empty,
    /// Only variable assignments.
    OnlyAssignments,
}

/// Whether `word` (up to its first `=`) names a shell variable, so that it is an assignment.
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
        if assignment(&rest[..end]) {
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
/// `sh -c` then has nothing to do after it, and a referee may replace the shell by it
/// (`exec`), so that the program itself is the referee's child and dies with it.
#[must_use]
pub fn is_simple_command(command: &str) -> bool {
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

/// The program a shell command line starts, as a referee checks it before the first game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// A program that `sh` would find, after variable assignments if `assigned`.
    Found {
        /// Whether assignments (`NAME=value`) come before it.
        assigned: bool,
    },
    /// Only the shell can tell (a variable, a subshell, a word the shell runs itself).
    Shell,
    /// A program that is not there (`word`), after variable assignments if `assigned`.
    Missing {
        /// The program's name as the shell reads it.
        word: String,
        /// Whether assignments come before it.
        assigned: bool,
    },
}

/// What `sh -c command` would start ([`Program`]), or why it would start nothing at all (the
/// command is empty, or only sets variables).
///
/// # Errors
/// The problem, as [`command_problem`] says it.
pub fn program_of(command: &str) -> Result<Program, String> {
    match start_of(command) {
        Start::Opaque => Ok(Program::Shell),
        Start::Empty => Err("the command is empty".into()),
        Start::OnlyAssignments => Err(format!(
            "`{}` only sets shell variables and starts no program",
            excerpt(command.trim())
        )),
        Start::Program { word, assigned } => {
            if SHELL_WORDS.contains(&word.as_str()) {
                Ok(Program::Shell)
            } else if found(&word) {
                Ok(Program::Found { assigned })
            } else {
                Ok(Program::Missing { word, assigned })
            }
        }
    }
}

/// Why `program`, missing, cannot be started.
#[must_use]
pub fn missing_program(program: &str) -> String {
    let hint = if program.contains('/') {
        "no such executable file"
    } else {
        "not found on PATH"
    };
    format!("`{}` cannot be started: {hint}", excerpt(program))
}

/// Whether `path` is an executable regular file.
fn executable(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether `sh` would find the program `name`.
fn found(name: &str) -> bool {
    if name.contains('/') {
        return executable(Path::new(name));
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| executable(&dir.join(name))))
}

/// Why `sh -c command` would start no program (the command is empty, only sets variables,
/// or names a program that is not there), or `None` when it would start one or only the
/// shell can tell (a variable, a subshell). The CLI's referees say the same as a usage error.
/// The command is quoted as [`excerpt`] quotes input.
///
/// ```
/// use ply_ewn::duel::referee::command_problem;
/// assert_eq!(command_problem("sh -c true"), None);
/// assert_eq!(
///     command_problem("no-such-agent --fast").as_deref(),
///     Some("`no-such-agent` cannot be started: not found on PATH")
/// );
/// ```
#[must_use]
pub fn command_problem(command: &str) -> Option<String> {
    match program_of(command) {
        Ok(Program::Found { .. } | Program::Shell) => None,
        Ok(Program::Missing { word, .. }) => Some(missing_program(&word)),
        Err(problem) => Some(problem),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_word_is_read_as_the_shell_would() {
        let program = |w: &str| Start::Program {
            word: w.to_string(),
            assigned: false,
        };
        assert_eq!(start_of("  ply ewn agent random"), program("ply"));
        assert_eq!(start_of("'/opt/my agent' --fast"), program("/opt/my agent"));
        assert_eq!(
            start_of("FOO=1 BAR='a b' agent --x"),
            Start::Program {
                word: "agent".into(),
                assigned: true
            }
        );
        assert_eq!(start_of("sleep 5; touch x"), program("sleep"));
        assert_eq!(start_of("=x arg"), program("=x"));
        assert_eq!(start_of("$AGENT --x"), Start::Opaque);
        assert_eq!(start_of("  \t "), Start::Empty);
        assert_eq!(start_of("A=1 B=2"), Start::OnlyAssignments);
        assert_eq!(start_of("="), program("="));
    }

    #[test]
    fn simple_commands_have_nothing_after_them() {
        assert!(is_simple_command("sleep '1;2'"));
        assert!(!is_simple_command("printf 10; sleep 5"));
        assert!(!is_simple_command("sleep 1 & wait"));
        assert!(!is_simple_command("a | b"));
    }

    #[test]
    fn missing_programs_empty_commands_and_bare_assignments_are_named() {
        assert_eq!(command_problem("sleep 1"), None);
        assert_eq!(command_problem("exec sleep 1"), None);
        assert_eq!(command_problem("$AGENT"), None);
        assert_eq!(
            command_problem(" ").as_deref(),
            Some("the command is empty")
        );
        assert_eq!(
            command_problem("b=cmd").as_deref(),
            Some("`b=cmd` only sets shell variables and starts no program")
        );
        assert_eq!(
            command_problem("/no/such/agent").as_deref(),
            Some("`/no/such/agent` cannot be started: no such executable file")
        );
        assert!(command_problem("FOO=1 no-such-program-anywhere").is_some());
    }
}
