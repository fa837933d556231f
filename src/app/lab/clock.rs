//! The clock a scene opens with ([`Opening`]): paused at t = 0 or playing, at
//! its speed, and the automatic pause of [`PauseAt`]. A scene installed with
//! `open` (the first one, the picker's, a tour step's, Reset all) and a reset
//! apply it; an edit or a hot reload keeps the clock the user has.

use bevy::prelude::*;
use contact_core::scene::Opening;

use super::messages::Status;
use super::world::{Lab, PauseAt, StepSettings};

/// Sets the clock as `opening` says: paused or playing, the automatic pause
/// re-armed, and (with `speed`) its speed.
pub fn open_clock(world: &mut World, opening: &Opening, speed: bool) {
    {
        let mut virt = world.resource_mut::<Time<Virtual>>();
        if opening.paused { virt.pause() } else { virt.unpause() }
    }
    if speed {
        world.resource_mut::<StepSettings>().speed = opening.speed;
    }
    *world.resource_mut::<PauseAt>() = PauseAt { at: opening.pause_at, reached: false };
}

/// What the status bar says of an opening: how the clock runs, and how to go on.
pub fn opening_text(o: &Opening) -> String {
    let speed = if o.speed == 1.0 { "in real time".to_string() } else { format!("at {}× real time", o.speed) };
    let until = o.pause_at.map_or(String::new(), |t| format!(" up to t = {t} s"));
    if o.paused { format!("Paused at t = 0: Space plays {speed}{until}") } else { format!("Playing {speed}{until}") }
}

/// [`PauseAt`]: pause on the first step that ends at or after its time, and
/// drop the rest of the frame's fixed steps.
pub(super) fn pause_at_time(
    mut pause: ResMut<PauseAt>,
    lab: Option<Res<Lab>>,
    mut virt: ResMut<Time<Virtual>>,
    mut fixed: ResMut<Time<Fixed>>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
) {
    let (Some(t), Some(lab)) = (pause.at, lab) else { return };
    if !pause.reached && lab.time() >= t - 1e-12 {
        pause.reached = true;
        virt.pause();
        fixed.discard_overstep(std::time::Duration::MAX);
        // (The status line logs it too.)
        status.say_while_paused(
            real.elapsed_secs_f64(),
            format!("Paused at t = {t} s, where the scene stops: Space goes on"),
        );
    }
}
