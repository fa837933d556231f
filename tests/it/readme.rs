//! The README's two commands are the ones CI runs, and every documented command
//! builds the same way (one build: `./target`, the dev profile, no feature or
//! target-dir switch), so running the tests then the app rebuilds only our crates.
//!
//! The README is a newcomer's page; the rest is in `docs/` (the manual, the
//! performance, the hardening): every relative link of the README and of the
//! docs points at a file and a heading that exist, the README's keys are the
//! manual's, its cold build is the manual's, and the bench tables are written
//! where they now live.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    let p = root().join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The commands of a shell text: lines without comments, trimmed, not empty.
fn commands(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split(" #").next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The text of a Markdown section: from its heading to the next heading of any level.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let body = text.split(heading).nth(1).unwrap_or_else(|| panic!("a '{heading}' section"));
    body.split("\n#").next().unwrap_or(body)
}

#[test]
fn the_readme_two_commands_are_those_ci_and_the_app_script_run() {
    let readme = read("README.md");
    let section = readme.split("## Two commands").nth(1).expect("a 'Two commands' section");
    let block = section.split("```sh").nth(1).and_then(|b| b.split("```").next()).expect("a sh block");
    assert_eq!(commands(block), ["scripts/lab", "cargo test --workspace"]);

    let ci = commands(&read(".ci/run"));
    assert!(ci.iter().any(|c| c == "cargo test --workspace"), "CI runs the README's test command: {ci:?}");
    assert!(ci.iter().any(|c| c == "bash .ci/one-build.sh"), "CI checks the single build");
    assert!(ci.iter().any(|c| c == "bash .ci/e2e.sh"), "CI runs the app end to end");

    let lab = commands(&read("scripts/lab"));
    assert_eq!(lab.last().map(String::as_str), Some(r#"exec cargo run --bin contact-lab -- "$@""#));
    // One build: no script picks another target dir, profile or feature set.
    for file in ["scripts/lab", ".ci/run", ".ci/e2e.sh", ".ci/one-build.sh", "scripts/screenshots"] {
        for c in commands(&read(file)) {
            assert!(!c.contains("export CARGO_TARGET_DIR") && !c.starts_with("CARGO_TARGET_DIR="), "{file}: {c}");
            if c.contains("cargo build") || c.contains("cargo run") || c.contains("cargo test") {
                assert!(!c.contains("--release") && !c.contains("--features"), "{file}: {c}");
            }
        }
    }
}

/// The README and every Markdown file of `docs/`, as (path from the root, text).
fn documents() -> Vec<(PathBuf, String)> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| p.strip_prefix(root()).expect("under the root").to_path_buf())
        .collect();
    docs.sort();
    for doc in ["docs/manual.md", "docs/performance.md", "docs/hardening.md", "docs/scenes.md", "docs/friction.md"] {
        assert!(docs.contains(&PathBuf::from(doc)), "{doc} exists");
    }
    docs.insert(0, PathBuf::from("README.md"));
    docs.into_iter().map(|p| (p.clone(), read(p.to_str().expect("a UTF-8 path")))).collect()
}

/// A Markdown text's lines outside its code blocks (fences excluded).
fn prose(text: &str) -> impl Iterator<Item = &str> {
    let mut code = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            code = !code;
            return false;
        }
        !code
    })
}

/// The targets of a Markdown text's inline links and images, `[…](TARGET)`,
/// outside code blocks.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        for rest in line.split("](").skip(1) {
            let target = rest.split(')').next().unwrap_or("").split_whitespace().next().unwrap_or("");
            out.push(target.to_string());
        }
    }
    out
}

/// The anchors of a Markdown text's headings, as GitHub makes them: lower case,
/// spaces to hyphens, punctuation but `-` and `_` dropped.
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        if !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#').trim();
        let mut anchor = String::new();
        for c in heading.chars() {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                anchor.extend(c.to_lowercase());
            } else if c == ' ' {
                anchor.push('-');
            }
        }
        out.push(anchor);
    }
    out
}

#[test]
fn every_relative_link_of_the_readme_and_the_docs_points_at_a_file_and_a_heading_that_exist() {
    let docs = documents();
    let mut checked = 0;
    for (path, text) in &docs {
        let dir = path.parent().unwrap_or(Path::new(""));
        for target in link_targets(text) {
            assert!(!target.is_empty(), "{}: an empty link", path.display());
            if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let file_path = if file.is_empty() { path.clone() } else { dir.join(file) };
            let abs = root().join(&file_path);
            assert!(
                abs.exists(),
                "{}: the link {target} points at {}, which does not exist",
                path.display(),
                abs.display()
            );
            if let Some(fragment) = fragment {
                let linked = std::fs::read_to_string(&abs).unwrap_or_else(|e| panic!("{}: {e}", abs.display()));
                assert!(
                    anchors(&linked).iter().any(|a| a == fragment),
                    "{}: the link {target}: {} has no heading #{fragment}",
                    path.display(),
                    file_path.display()
                );
            }
            checked += 1;
        }
    }
    // The README links its picture and every document; the manual its pictures.
    assert!(checked >= 30, "only {checked} links checked");
    let readme = &docs[0].1;
    for (path, _) in &docs[1..] {
        assert!(readme.contains(&format!("]({})", path.display())), "the README links {}", path.display());
    }
    assert!(readme.contains("](docs/img/"), "the README shows a picture");
}

#[test]
fn the_readme_is_a_newcomers_page_whose_keys_and_cold_build_are_the_manuals() {
    let readme = read("README.md");
    let manual = read("docs/manual.md");
    assert!(
        readme.len() < 8 * 1024,
        "the README stays a few minutes' read: {} bytes; the rest goes to docs/",
        readme.len()
    );

    // Every key the five things to try name is one the manual documents.
    let try_first = section(&readme, "## Five things to try first");
    let keys: Vec<&str> = try_first
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|k| !k.contains(' ') && !k.contains('/') && !k.starts_with("--") && k.chars().count() <= 5)
        .collect();
    assert!(keys.len() >= 8, "the five things name their keys: {keys:?}");
    for key in ["T", "1", "4", "Space", "K", "C", "F5", "E", "V"] {
        assert!(keys.contains(&key), "the five things to try name `{key}`: {keys:?}");
    }
    let manual_keys = section(&manual, "## Keys and mouse");
    for key in &keys {
        assert!(manual.contains(&format!("`{key}`")), "the manual documents the key `{key}`");
    }
    for key in ["Space", "R", "T", "C", "K", "F5", "F", "E", "V", "F12", "Ctrl+S", "Ctrl+Q"] {
        assert!(manual_keys.contains(&format!("`{key}`")), "the manual's keys name `{key}`");
    }
    assert!(section(&manual, "## Algorithms and friction").contains("keys `1`–`4`"), "the manual's algorithm keys");

    // The cold build the README states is the manual's, with its date.
    let build = readme
        .split("**")
        .skip(1)
        .step_by(2)
        .find(|b| b.contains("minutes to build"))
        .expect("the README states the cold build in bold");
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (readme_flat, manual_flat) = (flat(&readme), flat(&manual));
    assert!(manual_flat.contains(&flat(build)), "the manual's cold build is the README's: {build}");
    let date = "the latest on 27 Nov 2026";
    assert!(readme_flat.contains(date) && manual_flat.contains(date), "both date the cold build");
}

#[test]
fn the_bench_tables_are_written_into_docs_performance() {
    let script = read("scripts/bench-table");
    assert!(script.contains("\"docs\", \"performance.md\""), "scripts/bench-table writes docs/performance.md");
    let perf = read("docs/performance.md");
    let table = perf
        .split("<!-- bench-table -->")
        .nth(1)
        .and_then(|t| t.split("<!-- /bench-table -->").next())
        .expect("docs/performance.md has the bench-table markers");
    assert!(table.contains("| billiard-corner |"), "the bench table: {table}");
    assert!(!read("README.md").contains("<!-- bench-table -->"), "the bench tables left the README");
}
