//! The house rules that no compiler checks: inside each crate, no source file imports from a
//! file that imports it back, however long the way round (docs/DESIGN.md). A file imports
//! another when a path it names (`crate::a::b`, `super::x`, or a name in a `{...}` group after
//! one) resolves to that file, through the re-exports (`pub use x::Name`) of the module it
//! names, and then imports that module too; a folder module imports the submodules its `use`
//! items name; the files of a folder may import its module freely (the folder is one room to
//! them); a file's unit tests may import anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module by its path inside its crate (`["solver", "case"]`; `[]` for the crate's root).
type Module = Vec<String>;

/// The `.rs` files under `dir`, by module path.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut out = BTreeMap::new();
    let mut pending = vec![src.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("a source directory")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).expect("under src");
                let mut module: Module = relative
                    .with_extension("")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if module
                    .last()
                    .is_some_and(|last| ["mod", "lib", "main"].contains(&last.as_str()))
                {
                    module.pop();
                }
                out.insert(module, path);
            }
        }
    }
    out
}

/// `text` without line comments (doc links are no imports) and without a trailing
/// `#[cfg(test)] mod tests { ... }`, whose imports are the tests'.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `c` may be part of an identifier.
fn ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifiers of a `::`-separated path starting at `text`, and what follows it.
fn path_at(text: &str) -> (Vec<String>, &str) {
    let mut parts = Vec::new();
    let mut rest = text;
    loop {
        let end = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        parts.push(rest[..end].to_string());
        rest = &rest[end..];
        match rest.strip_prefix("::") {
            Some(after) if after.starts_with(ident) => rest = after,
            _ => break,
        }
    }
    (parts, rest)
}

/// Every `crate::...` or `super::...` path in `text`, with each name of a `{...}` group after
/// one as a path of its own: (whether it starts at `super`, the parts after `crate`).
fn references(text: &str) -> Vec<(bool, Vec<String>)> {
    let mut out = Vec::new();
    for (at, _) in text
        .match_indices("crate::")
        .chain(text.match_indices("super::"))
    {
        if text[..at].ends_with(ident) {
            continue;
        }
        let is_super = text[at..].starts_with("super");
        let (mut parts, rest) = path_at(&text[at..]);
        if !is_super {
            parts.remove(0);
        }
        if let Some(group) = rest.strip_prefix("::{") {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let (inner, _) = path_at(item.trim());
                if let Some(first) = inner.first() {
                    let mut full = parts.clone();
                    full.push(first.clone());
                    out.push((is_super, full));
                }
            }
        }
        out.push((is_super, parts));
    }
    out
}

/// Per module, the names it re-exports from its own submodules (`pub use x::{A, B}`).
fn reexports(files: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeMap<String, Module>> {
    let mut out: BTreeMap<Module, BTreeMap<String, Module>> = BTreeMap::new();
    for (module, text) in files {
        for line in text.split(';') {
            let line = line.trim();
            let Some(used) = ["pub use ", "pub(crate) use ", "pub(super) use "]
                .iter()
                .find_map(|p| line.strip_prefix(p))
            else {
                continue;
            };
            let used = used.strip_prefix("self::").unwrap_or(used);
            let (parts, rest) = path_at(used);
            let Some(first) = parts.first() else { continue };
            let mut sub = module.clone();
            sub.push(first.clone());
            if !files.contains_key(&sub) {
                continue;
            }
            let names: Vec<String> = match rest.strip_prefix("::{") {
                Some(group) => group
                    .split(|c: char| !ident(c))
                    .filter(|w| !w.is_empty())
                    .map(str::to_string)
                    .collect(),
                None => parts.last().into_iter().cloned().collect(),
            };
            for name in names {
                out.entry(module.clone())
                    .or_default()
                    .insert(name, sub.clone());
            }
        }
    }
    out
}

/// The paths of `module`'s `use` items (re-exports included) that start at one of its own
/// submodules (`use case::Case`, `pub(crate) use self::tuning::AMPLE`), as full module paths.
fn own_submodule_uses(
    module: &Module,
    text: &str,
    files: &BTreeMap<Module, String>,
) -> Vec<Module> {
    let mut out = Vec::new();
    for item in text.split(';') {
        let item = item.trim_start();
        let item = item
            .lines()
            .skip_while(|line| line.trim_start().starts_with("#["))
            .collect::<Vec<_>>()
            .join("\n");
        let item = item.trim_start();
        let Some(used) = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| item.strip_prefix(p))
        else {
            continue;
        };
        let used = used.strip_prefix("self::").unwrap_or(used);
        let (parts, rest) = path_at(used);
        let Some(first) = parts.first() else { continue };
        let mut sub = module.clone();
        sub.push(first.clone());
        if !files.contains_key(&sub) {
            continue;
        }
        let mut base = module.clone();
        base.extend(parts.iter().cloned());
        match rest.strip_prefix("::{") {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for name in group.split(',') {
                    let (inner, _) = path_at(name.trim());
                    let mut full = base.clone();
                    full.extend(inner);
                    out.push(full);
                }
            }
            None => out.push(base),
        }
    }
    out
}

/// The import cycles of the crate whose sources are in `src`: each a set of modules.
fn cycles(src: &Path) -> Vec<BTreeSet<Module>> {
    let paths = modules(src);
    let files: BTreeMap<Module, String> = paths
        .iter()
        .map(|(m, p)| {
            (
                m.clone(),
                code(&std::fs::read_to_string(p).expect("a source file")),
            )
        })
        .collect();
    let reexported = reexports(&files);
    // The file a path names, and the folder module whose re-export it went through, if any.
    let resolve = |path: &[String]| -> Option<(Module, Option<Module>)> {
        (1..=path.len()).rev().find_map(|k| {
            let prefix = path[..k].to_vec();
            if !files.contains_key(&prefix) {
                return None;
            }
            Some(
                match path
                    .get(k)
                    .and_then(|next| reexported.get(&prefix)?.get(next).cloned())
                {
                    Some(defined) => (defined, Some(prefix)),
                    None => (prefix, None),
                },
            )
        })
    };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    let mut tie = |from: &Module, to: Module| {
        // A folder is one room to the files in it: their imports of its module are no ties
        // (its own imports of them are, below).
        if &to != from && !to.is_empty() && !from.starts_with(&to) {
            edges.entry(from.clone()).or_default().insert(to);
        }
    };
    for (module, text) in &files {
        let mut paths: Vec<Module> = references(text)
            .into_iter()
            .map(|(is_super, mut parts)| {
                // `super` is the module above the file's own, however the file is named.
                if !is_super {
                    return parts;
                }
                let mut base = module.clone();
                while parts.first().is_some_and(|p| p == "super") {
                    parts.remove(0);
                    base.pop();
                }
                base.extend(parts);
                base
            })
            .collect();
        paths.extend(own_submodule_uses(module, text, &files));
        for path in paths {
            let Some((target, through)) = resolve(&path) else {
                continue;
            };
            // A name taken through a folder module's re-export ties the file to that module
            // too: the module is where the name is looked up, and what it imports comes along.
            if let Some(folder) = through {
                tie(module, folder);
            }
            tie(module, target);
        }
    }
    // The strongly connected sets of more than one module: for each module, those it reaches
    // that reach it back.
    let reach = |from: &Module| -> BTreeSet<Module> {
        let mut seen = BTreeSet::new();
        let mut pending = vec![from.clone()];
        while let Some(m) = pending.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    pending.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<Module, BTreeSet<Module>> =
        files.keys().map(|m| (m.clone(), reach(m))).collect();
    let mut out: Vec<BTreeSet<Module>> = Vec::new();
    for module in files.keys() {
        let set: BTreeSet<Module> = reached[module]
            .iter()
            .filter(|other| reached[*other].contains(module))
            .cloned()
            .collect();
        if set.len() > 1 && !out.contains(&set) {
            out.push(set);
        }
    }
    out
}

#[test]
fn no_crate_has_a_module_cycle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&crates).expect("crates").flatten() {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        for cycle in cycles(&src) {
            let names: Vec<String> = cycle.iter().map(|m| m.join("/")).collect();
            found.push(format!(
                "{}: {}",
                entry.file_name().to_string_lossy(),
                names.join(", ")
            ));
        }
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

#[test]
fn a_cycle_through_a_reexport_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("solver")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod schedule;\nmod solver;\n").unwrap();
    std::fs::write(
        src.join("schedule.rs"),
        "use crate::solver::{Case, tuning::AMPLE};\n",
    )
    .unwrap();
    std::fs::write(
        src.join("solver/mod.rs"),
        "mod case;\npub(crate) use case::Case;\npub mod tuning;\n",
    )
    .unwrap();
    std::fs::write(src.join("solver/tuning.rs"), "pub const AMPLE: u32 = 1;\n").unwrap();
    std::fs::write(
        src.join("solver/case.rs"),
        "use super::tuning::AMPLE;\nuse crate::schedule::Answer;\n// crate::nothing\n",
    )
    .unwrap();
    let found = cycles(src);
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|c| c.iter().map(|m| m.join("/")).collect())
        .collect();
    // The folder's module is on the way: the name is looked up there, and it imports `case`.
    assert_eq!(names, [vec!["schedule", "solver", "solver/case"]]);
    // Without the import back there is none.
    std::fs::write(src.join("solver/case.rs"), "use super::tuning::AMPLE;\n").unwrap();
    assert!(cycles(src).is_empty());
}

/// A file outside a folder that takes a name through the folder module's re-export is tied
/// to the module, and so to what the module imports: the loop frozen -> solver -> case ->
/// frozen is one even though the name is defined in `solver/tuning`, which imports nothing.
#[test]
fn a_loop_through_a_folder_modules_reexport_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("solver")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod frozen;\nmod solver;\n").unwrap();
    std::fs::write(src.join("frozen.rs"), "use crate::solver::MAX_TABLES;\n").unwrap();
    std::fs::write(
        src.join("solver/mod.rs"),
        "mod case;\nmod tuning;\nuse case::Case;\npub(crate) use tuning::MAX_TABLES;\n\
         pub struct Solution;\n",
    )
    .unwrap();
    std::fs::write(
        src.join("solver/tuning.rs"),
        "pub const MAX_TABLES: u32 = 1;\n",
    )
    .unwrap();
    std::fs::write(
        src.join("solver/case.rs"),
        "use super::Solution;\nuse crate::frozen::Tables;\n",
    )
    .unwrap();
    let names: Vec<Vec<String>> = cycles(src)
        .iter()
        .map(|c| c.iter().map(|m| m.join("/")).collect())
        .collect();
    assert_eq!(names, [vec!["frozen", "solver", "solver/case"]]);
    // Taken from the defining file, the name brings no tie to the folder's module.
    std::fs::write(
        src.join("frozen.rs"),
        "use crate::solver::tuning::MAX_TABLES;\n",
    )
    .unwrap();
    assert!(cycles(src).is_empty());
}
