//! Time per step of the built-in scenes under each algorithm, and the cost of one
//! Exact solve as the pile grows. Goals (on the 2-core reference machine, release):
//! the billiard corner under 100 µs a step for every algorithm, so the app keeps
//! a 1 kHz physics rate in real time with room to spare.
//!
//! `cargo bench -p contact-core`

use std::hint::black_box;
use std::path::Path;

use contact_core::scene::{self, Overrides};
use contact_core::{Algorithm, World};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn load(name: &str, ov: &Overrides) -> (World, f64) {
    let path = format!("{}/../../assets/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    let s = scene::load(Path::new(&path), ov).expect("scene loads");
    (s.world, s.dt)
}

/// One step from a state reached after `warmup` steps (the rack broken, the pile settled).
fn bench_scene(c: &mut Criterion, name: &str, ov: Overrides, warmup: usize) {
    let label = match ov.balls {
        Some(n) => format!("step/{name}/n={n}"),
        None => format!("step/{name}"),
    };
    let mut group = c.benchmark_group(label);
    for alg in Algorithm::ALL {
        let (mut w, dt) = load(name, &ov);
        w.settings.algorithm = alg;
        for _ in 0..warmup {
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

fn steps(c: &mut Criterion) {
    bench_scene(c, "wedge.ron", Overrides::default(), 10);
    bench_scene(c, "billiard-corner.ron", Overrides::default(), 600);
    bench_scene(c, "newtons-cradle.ron", Overrides::default(), 300);
    for n in [10, 30, 60] {
        bench_scene(c, "ball-pile.ron", Overrides { balls: Some(n) }, 1500);
    }
}

criterion_group!(benches, steps);
criterion_main!(benches);
