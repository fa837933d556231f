//! Runs are deterministic, and a snapshot restored at a step boundary replays
//! the run bit for bit (what the app's timeline relies on).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use contact_core::scene::{self, Overrides};
use contact_core::{Algorithm, World};

fn scene_world(name: &str) -> (World, f64) {
    let path = format!("{}/../../assets/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    let s = scene::load(std::path::Path::new(&path), &Overrides::default()).expect("scene loads");
    (s.world, s.dt)
}

/// A hash of the exact bits of the state.
fn state_hash(w: &World) -> u64 {
    let mut h = DefaultHasher::new();
    for v in w.state.q.iter().chain(&w.state.qd) {
        v.to_bits().hash(&mut h);
    }
    w.state.t.to_bits().hash(&mut h);
    w.active_set.handled.hash(&mut h);
    h.finish()
}

#[test]
fn same_start_same_bits() {
    for alg in Algorithm::ALL {
        let hashes: Vec<u64> = (0..2)
            .map(|_| {
                let (mut w, dt) = scene_world("billiard-corner.ron");
                w.settings.algorithm = alg;
                for _ in 0..1500 {
                    w.step(dt);
                }
                state_hash(&w)
            })
            .collect();
        assert_eq!(hashes[0], hashes[1], "{alg:?}");
    }
}

#[test]
fn restoring_a_snapshot_replays_bit_for_bit() {
    for name in ["billiard-corner.ron", "newtons-cradle.ron", "wedge.ron"] {
        let (mut w, dt) = scene_world(name);
        w.settings.algorithm = Algorithm::Platt; // the algorithm whose F⁺ carries over steps
        for _ in 0..300 {
            w.step(dt);
        }
        let snap = w.snapshot();
        let first: Vec<u64> = (0..500)
            .map(|_| {
                w.step(dt);
                state_hash(&w)
            })
            .collect();
        w.restore(&snap);
        let again: Vec<u64> = (0..500)
            .map(|_| {
                w.step(dt);
                state_hash(&w)
            })
            .collect();
        assert_eq!(first, again, "{name}");
    }
}
