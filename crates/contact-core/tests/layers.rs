//! The crate's folders are its layers (`src/lib.rs`): `geometry/` and
//! `solve/` and `lcg.rs` (foundations), `model/`, `algorithms/`, `step/`, then `input.rs`
//! and `lanes.rs`, then `scene/`. No source line of a layer names a module
//! (or a type re-exported at the crate root) of a layer above it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The layers from the bottom up; a file's layer is that of its folder, or
/// of its own name at the top (`input.rs`, `lanes.rs`, `scene.rs`).
const LAYERS: [(&str, usize); 10] = [
    ("geometry", 0),
    // A deterministic stream of numbers: imports nothing.
    ("lcg", 0),
    ("solve", 1),
    ("model", 2),
    ("algorithms", 3),
    ("step", 4),
    ("input", 5),
    ("lanes", 5),
    ("scene", 6),
    // Test helpers: small models (they build a `Model`); unit-test modules
    // of any layer may use them.
    ("testing", 2),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn layer_of_top(name: &str) -> Option<usize> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

/// Every name `crate::NAME` may start with, and its layer: the folders, the
/// modules re-exported from them, and the types re-exported at the root.
fn names() -> HashMap<String, usize> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
    let mut out: HashMap<String, usize> = LAYERS.iter().map(|(n, l)| (n.to_string(), *l)).collect();
    // `pub use folder::{a, b};` (modules) and `pub use module::{Type, …};` (types).
    for line in lib.lines().filter(|l| l.starts_with("pub use ")) {
        let rest = line.trim_start_matches("pub use ").trim_end_matches(';');
        let (head, list) = rest.split_once("::").expect("pub use a::b");
        let layer = match out.get(head) {
            Some(l) => *l,
            None => panic!("lib.rs re-exports from `{head}`, of no known layer"),
        };
        for name in list.trim_matches(|c| c == '{' || c == '}').split(',') {
            out.insert(name.trim().to_string(), layer);
        }
    }
    out
}

#[test]
fn no_source_line_imports_a_layer_above_its_own() {
    let names = names();
    let root = src();
    let mut all = Vec::new();
    files(&root, &mut all);
    let mut wrong = Vec::new();
    for path in &all {
        let rel = path.strip_prefix(&root).expect("under src");
        let first = rel.components().next().expect("a component").as_os_str().to_string_lossy().to_string();
        let top = first.trim_end_matches(".rs");
        if top == "lib" {
            continue;
        }
        let Some(own) = layer_of_top(top) else { panic!("{}: a file outside every layer", rel.display()) };
        let text = std::fs::read_to_string(path).expect("source");
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for part in code.split("crate::").skip(1) {
                let name: String = part.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let Some(&layer) = names.get(&name) else { continue };
                // Test helpers may be used anywhere (unit-test modules).
                if name == "testing" {
                    continue;
                }
                if layer > own {
                    wrong.push(format!("{}:{}: `crate::{name}` (layer {layer} above {own})", rel.display(), n + 1));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports up a layer:\n{}", wrong.join("\n"));
}
