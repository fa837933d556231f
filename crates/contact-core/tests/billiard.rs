//! The billiard corner of section 5 / figure 4, from `assets/scenes/billiard-corner.ron`:
//! 11 balls and 77 inequality constraints; under Right and Exact, over 10 s, no
//! ball leaves the table (crosses a cushion) or penetrates another.

use contact_core::scene::{self, Overrides};
use contact_core::{Algorithm, BodyKind, ImpulseMode};

fn billiard() -> scene::Scene {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/scenes/billiard-corner.ron");
    scene::load(std::path::Path::new(path), &Overrides::default()).expect("the billiard scene loads")
}

#[test]
fn billiard_has_11_balls_and_77_inequalities() {
    let s = billiard();
    let balls = s.world.model.bodies.iter().filter(|b| b.kind == BodyKind::Particle && b.radius > 0.0).count();
    assert_eq!(balls, 11);
    assert_eq!(s.world.model.constraints.len(), 77);
    assert!(s.world.model.constraints.iter().all(|c| c.is_inequality()));
}

#[test]
fn billiard_right_and_exact_keep_every_ball_on_the_table_and_apart() {
    for alg in [Algorithm::Right, Algorithm::Exact] {
        for mode in [ImpulseMode::Simultaneous, ImpulseMode::Sequential] {
            let s = billiard();
            let mut w = s.world;
            w.settings.algorithm = alg;
            w.settings.events.impulses = mode;
            let steps = (10.0 / s.dt).round() as usize;
            let (mut worst, mut events) = (0.0_f64, 0);
            for _ in 0..steps {
                let r = w.step(s.dt);
                worst = worst.max(r.max_violation);
                events += r.events.len();
                assert!(r.g.iter().all(|g| g.is_finite()));
            }
            assert!(events > 0, "{alg:?}/{mode:?}: the cue ball hits the rack");
            assert!(worst < 1e-6, "{alg:?}/{mode:?}: worst violation {worst:e} m");
            println!("{alg:?}/{mode:?}: {events} events, worst violation {worst:.2e} m");
        }
    }
}
