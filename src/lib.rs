//! contact-lab as a library: the desktop app's plugins, so the integration tests
//! (`tests/it`) can build the same app headless. The binary is `src/main.rs`.

pub mod app;
