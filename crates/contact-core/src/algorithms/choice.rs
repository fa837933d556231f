//! Which algorithm decides the handled set `F⁺`: the [`Algorithm`] a scene or a
//! user picks, and its names. Plain data, below the solvers and their traces:
//! [`Algorithm::solver`], the implementation of each, is in [`crate::algorithm`].

use serde::{Deserialize, Serialize};

/// Which algorithm decides the handled set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Algorithm {
    /// Platt 1992, Algorithm 1: `F⁺` kept across steps; drop `λ ≤ 0`, add `g < 0`.
    Platt,
    /// Algorithm 2: as Platt, but add on a violation tendency `J q̈ < d`.
    PlattImproved,
    /// Algorithm 3: `F⁺` emptied each step, grown until no active constraint tends to violate.
    #[default]
    Right,
    /// Our reference: the exact complementarity solution (principal pivoting).
    Exact,
}

impl Algorithm {
    pub const ALL: [Algorithm; 4] = [Algorithm::Platt, Algorithm::PlattImproved, Algorithm::Right, Algorithm::Exact];

    /// The name shown to people.
    pub fn label(self) -> &'static str {
        match self {
            Algorithm::Platt => "Platt",
            Algorithm::PlattImproved => "Platt improved",
            Algorithm::Right => "Right",
            Algorithm::Exact => "Exact (LCP)",
        }
    }

    /// The name on the command line.
    pub fn cli_name(self) -> &'static str {
        match self {
            Algorithm::Platt => "platt",
            Algorithm::PlattImproved => "platt-improved",
            Algorithm::Right => "right",
            Algorithm::Exact => "exact",
        }
    }
}
