//! The README's two commands are the ones CI runs, and every documented command
//! builds the same way (one build: `./target`, the dev profile, no feature or
//! target-dir switch), so running the tests then the app rebuilds only our crates.

use std::path::Path;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
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
