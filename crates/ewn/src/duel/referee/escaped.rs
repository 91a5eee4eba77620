//! What an agent starts outside its process group (`setsid`, or a group of its own), which
//! killing the group misses. The agent is made the reaper of its own orphans, so that such a
//! process stays in the agent's tree of processes while the agent lives, however deep it was
//! started and whoever started it has ended; the referee finds it there through the parent
//! links of `/proc` and kills it. Whoever hosts the match, the `ply` command or a Python
//! process, does the same and needs nothing process-wide for it.

use std::collections::HashSet;
use std::os::unix::process::CommandExt;
use std::process::Command;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// Passes of [`kill_escaped`] that look for processes not yet frozen: one a generation of
/// processes forked while the walk ran, far more than any agent's tree has.
const MAX_PASSES: usize = 64;

/// Has the child started by `command` adopt the processes its descendants leave behind: one
/// whose parent ends becomes the child's, not init's (`PR_SET_CHILD_SUBREAPER`, which `exec`
/// keeps).
#[allow(unsafe_code)]
pub(super) fn adopt_orphans(command: &mut Command) {
    // SAFETY: the closure runs in the child between fork and exec and makes one system call
    // (prctl), which is async-signal-safe.
    unsafe {
        command
            .pre_exec(|| nix::sys::prctl::set_child_subreaper(true).map_err(std::io::Error::from));
    }
}

/// Every process as `(pid, parent, process group)`, from `/proc/PID/stat`.
fn processes() -> Vec<(i32, i32, i32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // After the command's closing parenthesis: the state, the parent, the group.
            let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(1);
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some((pid, parent, group))
        })
        .collect()
}

/// The descendants of `root` in `table` (as [`processes`] gives it) outside the process group
/// that `root` leads.
fn escaped(root: i32, table: &[(i32, i32, i32)]) -> Vec<i32> {
    let mut tree = vec![root];
    let mut found = Vec::new();
    while let Some(parent) = tree.pop() {
        for &(pid, _, group) in table.iter().filter(|(_, p, _)| *p == parent) {
            tree.push(pid);
            if group != root {
                found.push(pid);
            }
        }
    }
    found
}

/// Kills every descendant of the agent `root` (the leader of its own process group) that is
/// outside that group. They are stopped first (`SIGSTOP`), pass after pass until a pass finds
/// none new, so that none forks away while the tree is walked and no pid is reused before its
/// `SIGKILL`. The group itself is the caller's to kill.
pub(super) fn kill_escaped(root: i32) {
    let mut frozen = HashSet::new();
    for _ in 0..MAX_PASSES {
        let new: Vec<i32> = escaped(root, &processes())
            .into_iter()
            .filter(|pid| !frozen.contains(pid))
            .collect();
        if new.is_empty() {
            break;
        }
        for pid in new {
            let _ = kill(Pid::from_raw(pid), Signal::SIGSTOP);
            frozen.insert(pid);
        }
    }
    for pid in frozen {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_descendants_outside_the_agents_group_are_escaped() {
        // 10 is the agent; 11 its helper in its group, 12 started with setsid by 11, 13 a
        // child of 12 in 12's group, 14 another agent's, 15 unrelated.
        let table = [
            (10, 1, 10),
            (11, 10, 10),
            (12, 11, 12),
            (13, 12, 12),
            (14, 1, 14),
            (15, 14, 15),
        ];
        let mut found = escaped(10, &table);
        found.sort_unstable();
        assert_eq!(found, [12, 13]);
        assert!(escaped(14, &table).iter().all(|&pid| pid == 15));
        assert!(escaped(15, &table).is_empty());
    }

    #[test]
    fn this_process_is_in_the_table() {
        let me = i32::try_from(std::process::id()).unwrap();
        assert!(processes().iter().any(|&(pid, _, _)| pid == me));
    }
}
