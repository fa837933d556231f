//! contact-lab as a library: the desktop app's plugins, so the integration tests
//! (`tests/it`) can build the same app headless. The binary is `src/main.rs`.
//!
//! Its docs are the developers', read with private items
//! (`cargo doc --document-private-items`): a plugin's module doc points at
//! the private modules that hold its parts, as `edit`'s does at its table of
//! tools.
#![allow(rustdoc::private_intra_doc_links)]

pub mod app;
