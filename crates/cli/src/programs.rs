//! The programs a referee starts (agents, players, servers): checked before the first game,
//! so that a missing program is a usage error rather than a match of forfeits.

use anyhow::Result;
use ply_ewn::duel::referee::{Program, is_simple_command, missing_program, program_of};

use crate::format::shell_quote;

/// Checks that `command` (run with `sh -c` by a referee, as `role`) starts a program that
/// exists, and returns the command to run: `ply ...` runs this very program when no `ply`
/// is on `PATH` (after a plain `cargo run`, say), and one simple command replaces the shell
/// (`exec`), so that the program itself is the referee's child and dies with it.
///
/// # Errors
/// A usage error naming the role and the program that is not there.
pub(crate) fn checked_command(role: &str, command: &str) -> Result<String> {
    let usage = |problem: String| crate::outcome::usage(format!("{role}: {problem}"));
    // `exec` cannot take assignments before the program: such a command keeps its shell.
    let exec = |command: String, assigned: bool| {
        if is_simple_command(&command) && !assigned {
            format!("exec {command}")
        } else {
            command
        }
    };
    match program_of(command).map_err(usage)? {
        Program::Shell => Ok(command.to_string()),
        Program::Found { assigned } => Ok(exec(command.to_string(), assigned)),
        Program::Missing { word, assigned } => {
            if word == "ply"
                && !assigned
                && let Ok(me) = std::env::current_exe()
            {
                let rest = command.trim_start().strip_prefix("ply").unwrap_or_default();
                return Ok(exec(
                    format!("{}{rest}", shell_quote(&me.display().to_string())),
                    false,
                ));
            }
            Err(usage(missing_program(&word)))
        }
    }
}

/// Makes this process the reaper of every process it starts, however deep: a descendant
/// that leaves its process group (`setsid`) and loses its parent becomes this process's
/// child instead of init's, so that [`stop_orphans`] can still stop it.
pub(crate) fn adopt_orphans() {
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// Kills and reaps every child of this process: at the end of a referee's run, whatever its
/// agents left behind (they themselves are stopped by their process groups).
pub(crate) fn stop_orphans() {
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
