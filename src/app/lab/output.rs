//! Where the lab writes what it is not given a path for — screenshots (F12)
//! and clips (V): a folder the user chose once (the toolbar's 📁, kept in
//! `~/.config/contact-lab/output-dir`), or by default `~/Pictures/contact-lab`,
//! outside any repository. `CONTACT_LAB_OUT` overrides both (scripts, tests).

use std::path::{Path, PathBuf};

use bevy::prelude::*;

/// The folder for screenshots and clips (see the module docs).
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct OutputDir(pub PathBuf);

impl Default for OutputDir {
    fn default() -> Self {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let chosen = choice_file().and_then(|f| std::fs::read_to_string(f).ok()).map(|s| PathBuf::from(s.trim()));
        let dir = std::env::var_os("CONTACT_LAB_OUT")
            .map(PathBuf::from)
            .or(chosen.filter(|p| p.is_absolute()))
            .or_else(|| home.map(|h| h.join("Pictures").join("contact-lab")))
            .unwrap_or_else(|| std::env::temp_dir().join("contact-lab"));
        OutputDir(dir)
    }
}

impl OutputDir {
    /// `DIR/contact-lab-<ms since 1970>.EXT`, the folder made if need be.
    pub fn fresh(&self, ext: &str) -> Result<PathBuf, String> {
        std::fs::create_dir_all(&self.0).map_err(|e| format!("cannot make the folder {}: {e}", self.0.display()))?;
        let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
        let path = self.0.join(format!("contact-lab-{ms}.{ext}"));
        Ok(std::path::absolute(&path).unwrap_or(path))
    }

    /// The user's choice: used from now on and kept for the next runs.
    pub fn choose(&mut self, dir: &Path) -> Result<(), String> {
        self.0 = dir.to_path_buf();
        let Some(file) = choice_file() else { return Err("no home folder to keep the choice in".into()) };
        let keep = || -> std::io::Result<()> {
            std::fs::create_dir_all(file.parent().expect("a file in a folder"))?;
            std::fs::write(&file, dir.display().to_string())
        };
        keep().map_err(|e| format!("the choice is not kept for the next runs ({}: {e})", file.display()))
    }
}

/// `$XDG_CONFIG_HOME/contact-lab/output-dir` (`~/.config/…` by default).
fn choice_file() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("contact-lab").join("output-dir"))
}
