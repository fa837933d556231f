//! Headless tests of the desktop lab: the real plugins on `MinimalPlugins` with
//! a manual clock (each `app.update()` advances the virtual time by `h`, so one
//! fixed step), checked against the core stepped alone.
//!
//! One test binary on purpose: each binary links Bevy.

mod bounds;
mod common;
mod compare;
mod cue;
mod drag;
mod energy;
mod inputs;
mod physics;
mod readme;
mod save;
mod scenes;
mod slow;
mod timeline;
mod tour;
mod view;
mod worker;
