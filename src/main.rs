//! contact-lab: a laboratory for contact handled with Lagrange multipliers.
//!
//! `contact-lab [SCENE]` opens the desktop lab; `contact-lab run|compare SCENE`
//! runs the same scenes headless, `contact-lab figure paper-fig2|paper-fig3`
//! draws the paper's figures (see `--help`).

use contact_lab::app;
mod cli;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc (Cargo.toml says why): the app's and the CLI's steps run on it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match args.command {
        None => app::run(args.app),
        Some(cmd) => cli::execute(cmd),
    }
}
