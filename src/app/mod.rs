//! The desktop lab (Bevy).

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;

/// Options of the desktop app.
#[derive(clap::Args, Debug, Clone)]
pub struct AppOptions {
    /// Scene file to open (default: assets/scenes/wedge.ron).
    pub scene: Option<PathBuf>,
}

pub fn run(_opts: AppOptions) -> ExitCode {
    App::new().add_plugins(DefaultPlugins).run();
    ExitCode::SUCCESS
}
