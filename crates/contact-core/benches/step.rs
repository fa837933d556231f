//! Time per step of every built-in scene under each algorithm, the settled ball
//! pile at 30, 100, 300 and 1000 balls, and the "oracle" for the pile: one solve
//! of eq. (6) with the step's final handled set known in advance (the least any
//! active-set method can do), to compare Exact with.
//!
//! `cargo bench -p contact-core --bench step` (all), or a filter:
//! `cargo bench -p contact-core --bench step -- pile`. `scripts/bench-table`
//! runs it and writes the results table into `docs/performance.md`.
//!
//! The piles are settled first with Exact (untimed) for `CONTACT_LAB_SETTLE`
//! simulated seconds (default 3: a pile of 100 lands in about 1.5 s, and a
//! moment of low kinetic energy while it lands is not rest); Right and Exact
//! then step from that same state (the state is
//! written to `target/criterion/pile-settle-N.txt` for the table).
//! `CONTACT_LAB_PILES=30,100,300` benches only those sizes.

use std::hint::black_box;
use std::path::Path;

use contact_core::scene::{self, Overrides};
use contact_core::{Algorithm, ContactProblem, World};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// The allocator the app and the CLI run on (the root Cargo.toml says why).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SCENES: [&str; 7] = [
    "wedge.ron",
    "wedge-left.ron",
    "sticky-corner.ron",
    "billiard-corner.ron",
    "newtons-cradle.ron",
    "bead-on-curve.ron",
    "ball-pile.ron",
];

fn load(name: &str, ov: &Overrides) -> (World, f64) {
    let path = format!("{}/../../assets/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    let s = scene::load(Path::new(&path), ov).expect("scene loads");
    (s.world, s.dt)
}

/// One step of each of `algs` from the state reached by `world`.
fn bench_from(c: &mut Criterion, label: &str, world: &World, dt: f64, algs: &[Algorithm]) {
    let mut group = c.benchmark_group(label);
    for &alg in algs {
        let mut w = world.clone();
        w.settings.algorithm = alg;
        // A few steps of this algorithm first, so its warm state is its own.
        for _ in 0..5 {
            w.step(dt);
        }
        let start = w.snapshot();
        group.bench_function(BenchmarkId::from_parameter(alg.cli_name()), |b| {
            b.iter(|| {
                w.restore(&start);
                black_box(w.step(dt));
            })
        });
    }
    group.finish();
}

/// Built-in scenes after `warmup` steps (the rack broken, the cradle swinging).
fn scenes(c: &mut Criterion) {
    for name in SCENES {
        let (mut w, dt) = load(name, &Overrides::default());
        let warmup = if name.starts_with("billiard") { 600 } else { 300 };
        for _ in 0..warmup {
            w.step(dt);
        }
        bench_from(c, &format!("step/{}", name.trim_end_matches(".ron")), &w, dt, &Algorithm::ALL);
    }
}

/// The pile of `n` balls, settled by Exact.
fn settled_pile(n: usize) -> (World, f64) {
    let (mut w, dt) = load("ball-pile.ron", &Overrides { balls: Some(n), ..Default::default() });
    w.settings.algorithm = Algorithm::Exact;
    let limit: f64 = std::env::var("CONTACT_LAB_SETTLE").ok().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    while w.state.t < limit {
        w.step(dt);
    }
    let ke = w.model.kinetic_energy(&w.state);
    let line = format!("t={:.3} rows={} kinetic_energy={ke:.3e}", w.state.t, w.model.constraints.len());
    eprintln!("pile n = {n}: settled: {line}");
    // For scripts/bench-table: the state the pile benches start from.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/criterion");
    let target = std::env::var_os("CARGO_TARGET_DIR").map(|d| Path::new(&d).join("criterion")).unwrap_or(dir);
    let _ = std::fs::create_dir_all(&target);
    let _ = std::fs::write(target.join(format!("pile-settle-{n}.txt")), line);
    (w, dt)
}

fn piles(c: &mut Criterion) {
    // CONTACT_LAB_PILES=30,100 to bench fewer.
    let sizes: Vec<usize> = std::env::var("CONTACT_LAB_PILES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![30, 100, 300, 1000]);
    for n in sizes {
        let (w, dt) = settled_pile(n);
        bench_from(c, &format!("pile/n={n}"), &w, dt, &[Algorithm::Right, Algorithm::Exact]);
        // The oracle: eq. (6) assembled and solved once with the handled set
        // Exact ends with (known in advance here).
        let mut probe = w.clone();
        let report = probe.step(dt);
        let handled: Vec<usize> = (0..report.handled.len()).filter(|&k| report.handled[k]).collect();
        let mut group = c.benchmark_group(format!("pile/n={n}"));
        group.bench_function("oracle", |b| {
            b.iter(|| {
                let p = ContactProblem::new(&w.model, &w.state, w.settings.tau);
                black_box(p.solve(&handled))
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = scenes, piles
}
criterion_main!(benches);
