//! The command line: `contact-lab [SCENE]` opens the app, `run` and `compare` are headless.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A real-time laboratory for contact handled with Lagrange multipliers
/// (Jonquet, Nocent & Remion, GRAPP 2007).
#[derive(Parser, Debug)]
#[command(name = "contact-lab", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub app: crate::app::AppOptions,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a scene headless.
    Run { scene: PathBuf },
}

pub fn execute(cmd: Command) -> ExitCode {
    match cmd {
        Command::Run { scene } => {
            eprintln!("contact-lab: `run` is not built yet ({})", scene.display());
            ExitCode::FAILURE
        }
    }
}
