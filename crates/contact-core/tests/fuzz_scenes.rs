//! Fuzzing the scene parser (issue 9): scene and tour files are written by hand,
//! by people who make mistakes, so `scene::parse` and `scene::tour::parse` must
//! take any text without panicking and point every error at a line and column.
//!
//! cargo-fuzz needs a nightly toolchain; this is the same idea on proptest. Each
//! case takes a seed file (the built-in scenes, the tour, and every file of
//! `tests/fuzz-corpus/`) and edits it one to three times: bytes and characters
//! deleted, inserted or replaced (multi-byte UTF-8 and control characters
//! included), RON tokens and schema names inserted, string literals copied over
//! others, numbers replaced by nasty ones (`NaN`, `1e308`, `1e-320`, integer
//! overflows, any `f64`), truncation, lines duplicated, swapped or deleted, and
//! lines spliced in from another seed. Scenes are also loaded with `--balls N`
//! now and then. Then:
//!
//! - the parser never panics;
//! - every error has a line and a column inside the text, a message, and
//!   displays as `ORIGIN:LINE:COL: …`;
//! - every scene that loads starts finite (state, bodies' points, constraint
//!   values) and steps 20 times without panicking, its state finite until a
//!   step reports [`StepStatus::Diverged`] (where a run stops).
//!
//! The budget is `CONTACT_LAB_FUZZ_CASES` cases per property (default
//! [`DEFAULT_CASES`], a few seconds in the dev profile); the RNG seed is fixed
//! so CI is reproducible (`CONTACT_LAB_FUZZ_SEED` picks another). A failing case
//! is shrunk and its seed kept in `fuzz_scenes.proptest-regressions`, replayed
//! first on the next run; the input itself belongs in `tests/fuzz-corpus/` (a
//! seed entry no longer replays the same input once the corpus changes).

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use contact_core::scene::{self, Overrides, SceneError, tour};
use contact_core::{State, StepStatus};
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

/// Cases per property when `CONTACT_LAB_FUZZ_CASES` is not set.
const DEFAULT_CASES: u32 = 10_000;

/// Steps taken by every scene that loads.
const STEPS: usize = 20;

/// A file the mutations start from, and the directory its tour steps are read from.
struct Seed {
    name: String,
    text: String,
    dir: PathBuf,
    /// A tour (`assets/tours/*`, `[broken-]tour-*` in the corpus) rather than a scene.
    tour: bool,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-corpus")
}

/// The `.ron` files of `dir`, sorted by name.
fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

fn read_seed(path: &Path) -> Seed {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let dir = path.parent().unwrap().to_path_buf();
    Seed {
        tour: dir.ends_with("tours") || name.trim_start_matches("broken-").starts_with("tour-"),
        text: std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        name,
        dir,
    }
}

/// Every seed: the built-in scenes and tours, and the corpus.
fn all_seeds() -> impl Iterator<Item = Seed> {
    ["assets/scenes", "assets/tours"]
        .map(|d| root().join(d))
        .into_iter()
        .chain([corpus_dir()])
        .flat_map(|d| ron_files(&d).into_iter().map(|p| read_seed(&p)))
}

static SCENES: LazyLock<Vec<Seed>> = LazyLock::new(|| all_seeds().filter(|s| !s.tour).collect());
static TOURS: LazyLock<Vec<Seed>> = LazyLock::new(|| all_seeds().filter(|s| s.tour).collect());

/// RON punctuation, schema names and fragments that are easy to get wrong, and
/// two with spaces.
const TOKENS: &str = r##"( ) [ ] { } , : " ' \ // /* */ # r#" b" Some( None () "p" true false Scene Tour Particle
    Ball Bead Anchor FixedBall HalfPlane Wall Contact Rod Rope String BeadBound Segment CircleArc Parabola Cycloid
    Right Exact Sequential name: description: gravity: bodies: constraints: walls: ball_pairs: ball_pair_restitution:
    ball_pile: solver: view: plots: duration: position: velocity: mass: radius: force: damping: curve: u: u_dot:
    body: a: b: normal: offset: length: min: max: restitution: count: prefix: first: columns: spacing: stagger:
    algorithm: dt: tau: events: impulses: max_events_per_step: min_impact_speed: series: title: steps: scene: balls:
    text: look: Box Polygon Disc Pin angle: angular_velocity: inertia: size: vertices: fixed: at: at_a: at_b:
    friction: pair_friction:"##;
const SPACED_TOKENS: [&str; 2] = ["(0, 0)", "#![enable(implicit_some)]"];

/// Numbers that break naive code: non-finite, extreme, overflowing, malformed.
const NASTY_NUMBERS: &str = "NaN inf -inf +inf 1e308 -1e308 1e309 1e-320 5e-324 -0 0 0.0 -1 1e99999 -1e99999 1e-99999
    99999999999999999999 18446744073709551615 18446744073709551616 4294967296 100000 1e6 0x10 1_000 1. .5 - 1e 2.5e-7";

/// Characters of every UTF-8 width, controls, line and paragraph separators, a
/// BOM, and a few that mean something in RON.
const NASTY_CHARS: &str =
    "\0\t\n\r\u{b}\u{c}\u{1b}\u{7f}\u{85}\u{a0}\u{2028}\u{2029}\u{feff}\u{200b}\u{fffd}\u{10ffff}éλ€𝄞\"\\/*#!9-";

fn words(list: &'static str) -> Vec<&'static str> {
    list.split_whitespace().collect()
}

/// One edit of the text. Positions are [`Index`]es, scaled to the text at hand.
/// `CopyString` writes the string literal at `from` over the one at `to` (names
/// that clash, refer to the wrong body or become series); `Splice` inserts lines
/// `from..from + len` of another seed before line `at`.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteBytes { at: Index, len: usize },
    ReplaceByte { at: Index, byte: u8 },
    InsertChar { at: Index, c: char },
    ReplaceChar { at: Index, c: char },
    InsertToken { at: Index, token: &'static str },
    CopyString { from: Index, to: Index },
    ReplaceNumber { which: Index, by: String },
    Truncate { at: Index },
    DuplicateLine { which: Index },
    DeleteLine { which: Index },
    SwapLines { a: Index, b: Index },
    Splice { seed: Index, from: Index, len: usize, at: Index },
}

/// A nasty number, any `f64` (NaN, infinities and subnormals included) or a
/// small integer (counts, columns).
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        select(words(NASTY_NUMBERS)).prop_map(str::to_string),
        any::<f64>().prop_map(|x| format!("{x:?}")),
        (0..1000u32).prop_map(|n| n.to_string()),
    ]
}

fn nasty_char() -> impl Strategy<Value = char> {
    prop_oneof![select(NASTY_CHARS.chars().collect::<Vec<_>>()), any::<char>()]
}

/// Edits, weighted towards those that keep the text close to RON: inserted
/// tokens and replaced numbers reach the checks after the syntax.
fn mutation() -> impl Strategy<Value = Mutation> {
    let i = any::<Index>;
    let tokens = [words(TOKENS), SPACED_TOKENS.to_vec()].concat();
    prop_oneof![
        1 => (i(), 1..16usize).prop_map(|(at, len)| Mutation::DeleteBytes { at, len }),
        1 => (i(), any::<u8>()).prop_map(|(at, byte)| Mutation::ReplaceByte { at, byte }),
        1 => (i(), nasty_char()).prop_map(|(at, c)| Mutation::InsertChar { at, c }),
        1 => (i(), nasty_char()).prop_map(|(at, c)| Mutation::ReplaceChar { at, c }),
        3 => (i(), select(tokens)).prop_map(|(at, token)| Mutation::InsertToken { at, token }),
        4 => (i(), number()).prop_map(|(which, by)| Mutation::ReplaceNumber { which, by }),
        2 => (i(), i()).prop_map(|(from, to)| Mutation::CopyString { from, to }),
        1 => i().prop_map(|at| Mutation::Truncate { at }),
        1 => i().prop_map(|which| Mutation::DuplicateLine { which }),
        1 => i().prop_map(|which| Mutation::DeleteLine { which }),
        1 => (i(), i()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        1 => (i(), i(), 1..8usize, i()).prop_map(|(seed, from, len, at)| Mutation::Splice { seed, from, len, at }),
    ]
}

/// A seed (an index into `seeds`) and the edits made to it.
fn mutated(seeds: usize) -> impl Strategy<Value = (usize, Vec<Mutation>)> {
    (0..seeds, proptest::collection::vec(mutation(), 1..=3))
}

/// The byte ranges of the double-quoted strings, quotes included.
fn strings(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(open) = b[i..].iter().position(|&c| c == b'"').map(|k| i + k) {
        let mut close = open + 1;
        while close < b.len() && b[close] != b'"' {
            close += if b[close] == b'\\' { 2 } else { 1 };
        }
        if close >= b.len() {
            break;
        }
        out.push((open, close + 1));
        i = close + 1;
    }
    out
}

/// The byte offsets where numbers (with their sign) start and end.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let after_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if !b[i].is_ascii_digit() || after_word {
            i += 1;
            continue;
        }
        let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
        while i < b.len()
            && (b[i].is_ascii_alphanumeric()
                || b[i] == b'.'
                || b[i] == b'_'
                || (b"+-".contains(&b[i]) && b"eE".contains(&b[i - 1])))
        {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// Byte `at` (scaled to the text's length) moved back to a char boundary.
fn char_at(text: &str, at: Index) -> usize {
    text.floor_char_boundary(at.index(text.len() + 1))
}

/// The text's bytes edited; bytes that are no longer UTF-8 read as U+FFFD, as a
/// lossy editor would save them.
fn edit_bytes(text: &str, edit: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut bytes = text.as_bytes().to_vec();
    edit(&mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The text's lines (each with its `\n`) edited, unless there are none.
fn edit_lines(text: &str, edit: impl FnOnce(&mut Vec<&str>)) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    if !lines.is_empty() {
        edit(&mut lines);
    }
    lines.concat()
}

fn edit_str(text: &str, edit: impl FnOnce(&mut String)) -> String {
    let mut t = text.to_string();
    edit(&mut t);
    t
}

fn apply(text: &str, m: &Mutation, seeds: &[Seed]) -> String {
    match *m {
        Mutation::DeleteBytes { at, len } => edit_bytes(text, |b| {
            let start = at.index(b.len() + 1);
            b.drain(start..(start + len).min(b.len()));
        }),
        Mutation::ReplaceByte { at, byte } => edit_bytes(text, |b| {
            if !b.is_empty() {
                *at.get_mut(b) = byte;
            }
        }),
        Mutation::InsertChar { at, c } => edit_str(text, |t| t.insert(char_at(text, at), c)),
        Mutation::ReplaceChar { at, c } => edit_str(text, |t| {
            let i = char_at(text, at);
            let old = text[i..].chars().next().map_or(0, char::len_utf8);
            t.replace_range(i..i + old, c.encode_utf8(&mut [0; 4]));
        }),
        Mutation::InsertToken { at, token } => edit_str(text, |t| t.insert_str(char_at(text, at), token)),
        Mutation::CopyString { from, to } => edit_str(text, |t| {
            let spans = strings(text);
            if !spans.is_empty() {
                let ((a, b), (start, end)) = (*from.get(&spans), *to.get(&spans));
                t.replace_range(start..end, &text[a..b]);
            }
        }),
        Mutation::ReplaceNumber { which, ref by } => edit_str(text, |t| {
            let spans = numbers(text);
            if !spans.is_empty() {
                let (start, end) = *which.get(&spans);
                t.replace_range(start..end, by);
            }
        }),
        Mutation::Truncate { at } => text[..char_at(text, at)].to_string(),
        Mutation::DuplicateLine { which } => edit_lines(text, |ls| {
            let k = which.index(ls.len());
            ls.insert(k, ls[k]);
        }),
        Mutation::DeleteLine { which } => edit_lines(text, |ls| {
            ls.remove(which.index(ls.len()));
        }),
        Mutation::SwapLines { a, b } => edit_lines(text, |ls| {
            let n = ls.len();
            ls.swap(a.index(n), b.index(n));
        }),
        Mutation::Splice { seed, from, len, at } => {
            let other: Vec<&str> = seed.get(seeds).text.split_inclusive('\n').collect();
            let from = from.index(other.len());
            let piece = other[from..(from + len).min(other.len())].concat();
            let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
            lines.insert(at.index(lines.len() + 1), &piece);
            lines.concat()
        }
    }
}

/// The seed's text after the edits, one after the other.
fn mutate(seeds: &[Seed], seed: usize, edits: &[Mutation]) -> String {
    edits.iter().fold(seeds[seed].text.clone(), |text, m| apply(&text, m, seeds))
}

/// An error names the origin, a line and a column inside the text, and says something.
fn check_error(e: &SceneError, text: &str, origin: &str) -> Result<(), TestCaseError> {
    let shown = e.to_string();
    let (Some(line), Some(col)) = (e.line, e.column) else {
        return Err(TestCaseError::fail(format!("an error without a position: {shown}")));
    };
    let line_text = text.split('\n').nth(line.wrapping_sub(1));
    prop_assert!(line_text.is_some(), "line {line} is past the end of the text: {shown}");
    let width = line_text.unwrap().chars().count();
    prop_assert!((1..=width + 1).contains(&col), "column {col} is outside line {line} ({width} chars): {shown}");
    prop_assert!(!e.message.trim().is_empty(), "an empty message: {shown}");
    prop_assert_eq!(&e.file, origin);
    prop_assert!(shown.starts_with(&format!("{origin}:{line}:{col}: ")), "{shown}");
    Ok(())
}

/// Whether every coordinate and velocity is finite. (Not the time: a step of
/// `h = 1e308` s overflows `t` while `q` and `q̇` stay finite and the step says
/// Ok, which is `World::step`'s matter, not the parser's.)
fn finite(state: &State) -> bool {
    state.q.iter().chain(&state.qd).all(|v| v.is_finite())
}

/// A loaded scene starts finite: its state, its bodies' points and its
/// constraints' values (the parser refuses non-finite numbers). It steps
/// [`STEPS`] times; its state stays finite until a step reports that the run
/// diverged (where the CLI and the app stop).
fn check_steps(s: scene::Scene) -> Result<(), TestCaseError> {
    let mut world = s.world;
    let (model, start) = (&world.model, &world.state);
    prop_assert!(finite(start), "a non-finite start: {start:?}");
    for i in 0..model.bodies.len() {
        let p = model.position(i, start);
        prop_assert!(p.iter().all(|v| v.is_finite()), "body `{}` starts at {p:?}", model.bodies[i].name);
    }
    let g = model.constraint_values(&start.q);
    prop_assert!(g.iter().all(|v| v.is_finite()), "non-finite constraint values at the start: {g:?}");
    for k in 0..STEPS {
        if let StepStatus::Diverged { .. } = world.step(s.dt).status {
            break;
        }
        prop_assert!(finite(&world.state), "step {k} is Ok but left a non-finite state: {:?}", world.state);
    }
    Ok(())
}

/// Runs `check`, adding the input to its failure so it can go to the corpus.
fn with_input(text: &str, check: impl FnOnce() -> Result<(), TestCaseError>) -> Result<(), TestCaseError> {
    check().map_err(|e| TestCaseError::fail(format!("{e}\n--- input ---\n{text}\n---")))
}

/// Loads a scene (or a tour) and checks the outcome.
fn check_file(seed: &Seed, text: &str, origin: &str, ov: &Overrides) -> Result<(), TestCaseError> {
    with_input(text, || {
        if seed.tour {
            match tour::parse(text, origin, &seed.dir) {
                Ok(_) => Ok(()),
                Err(e) => check_error(&e, text, origin),
            }
        } else {
            match scene::parse(text, origin, ov) {
                Ok(s) => check_steps(s),
                Err(e) => check_error(&e, text, origin),
            }
        }
    })
}

/// The overrides a file can meet: `--balls N` (a tour step's `balls`), or none.
fn overrides() -> impl Strategy<Value = Overrides> {
    proptest::option::weighted(0.2, 0..40usize).prop_map(|balls| Overrides { balls, ..Default::default() })
}

/// `name` from the environment, or `default`.
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// `CONTACT_LAB_FUZZ_CASES` cases from a fixed seed, failures kept beside this file.
fn config() -> Config {
    Config {
        cases: env_or("CONTACT_LAB_FUZZ_CASES", DEFAULT_CASES),
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(env_or("CONTACT_LAB_FUZZ_SEED", 20070308)),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_scenes_load_or_fail_with_a_position((seed, edits) in mutated(SCENES.len()), ov in overrides()) {
        let text = mutate(&SCENES, seed, &edits);
        check_file(&SCENES[seed], &text, &format!("mutated-{}", SCENES[seed].name), &ov)?;
    }

    #[test]
    fn mutated_tours_load_or_fail_with_a_position((seed, edits) in mutated(TOURS.len())) {
        let text = mutate(&TOURS, seed, &edits);
        check_file(&TOURS[seed], &text, &format!("mutated-{}", TOURS[seed].name), &Overrides::default())?;
    }
}

/// What follows `// KEY:` on a line of a corpus file (a BOM before it is skipped).
fn directive<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let comment = |l: &'a str| l.trim_start_matches('\u{feff}').trim().strip_prefix("//");
    text.lines().find_map(|l| comment(l)?.trim().strip_prefix(key)?.strip_prefix(':')).map(str::trim)
}

/// Every corpus file loads (and steps), with the overrides of its `// balls:`
/// line if any, except `broken-*` ones: they say what they check on a
/// `// checks:` line and fail with a positioned error that contains their
/// `// error:` line.
#[test]
fn every_corpus_file_loads_or_fails_as_it_says() {
    let files = ron_files(&corpus_dir());
    assert!(files.len() >= 12, "{} corpus files", files.len());
    for path in files {
        let s = read_seed(&path);
        let origin = path.display().to_string();
        let balls = directive(&s.text, "balls").map(|n| n.parse().unwrap_or_else(|_| panic!("{origin}: balls: {n}")));
        let outcome = if s.tour {
            tour::parse(&s.text, &origin, &s.dir).map(drop)
        } else {
            let ov = Overrides { balls, ..Default::default() };
            scene::parse(&s.text, &origin, &ov)
                .map(|scene| check_steps(scene).unwrap_or_else(|e| panic!("{origin}: {e}")))
        };
        match outcome {
            Ok(()) => assert!(!s.name.starts_with("broken-"), "{origin}: loads"),
            Err(e) => {
                assert!(s.name.starts_with("broken-"), "{origin}: {e}");
                check_error(&e, &s.text, &origin).unwrap_or_else(|c| panic!("{origin}: {c}"));
                assert!(directive(&s.text, "checks").is_some(), "{origin}: no `// checks:` line");
                let expected = directive(&s.text, "error").unwrap_or_else(|| panic!("{origin}: no `// error:` line"));
                assert!(e.to_string().contains(expected), "{origin}: `{e}` does not contain `{expected}`");
            }
        }
    }
}
