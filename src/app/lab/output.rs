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
    /// `DIR/<what>_<date>_<time>.EXT` (UTC, to the second; `-2`, `-3` … where
    /// that is taken), the folder made if need be. `what` says what it shows
    /// ([`name_of`]): a folder of `contact-lab-1764361502123.png` said nothing.
    pub fn fresh(&self, what: &str, ext: &str) -> Result<PathBuf, String> {
        std::fs::create_dir_all(&self.0).map_err(|e| format!("cannot make the folder {}: {e}", self.0.display()))?;
        let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let stem = format!("{what}_{}", utc(secs));
        let path = (1..)
            .map(|n| self.0.join(if n == 1 { format!("{stem}.{ext}") } else { format!("{stem}-{n}.{ext}") }))
            .find(|p| !p.exists())
            .expect("a free name");
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

/// What a screenshot or a clip shows, for its file name: the scene's file
/// stem (or its title) and the simulated time, `billiard-corner_t3.300s`.
pub fn name_of(scene: &str, t: f64) -> String {
    let slug: String = scene
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c.to_ascii_lowercase() } else { '-' })
        .collect();
    let slug = slug.trim_matches('-');
    let slug = if slug.is_empty() { "contact-lab" } else { slug };
    format!("{slug}_t{t:.3}s")
}

/// `2026-11-28_20-15-02` for `secs` since 1970 (UTC; Howard Hinnant's
/// days-to-civil).
fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}_{:02}-{:02}-{:02}", rest / 3600, rest / 60 % 60, rest % 60)
}

#[cfg(test)]
mod names {
    use super::*;

    #[test]
    fn a_file_name_says_the_scene_the_instant_and_the_date() {
        assert_eq!(utc(0), "1970-01-01_00-00-00");
        // 2025-11-28 20:15:02 UTC.
        assert_eq!(utc(1_764_360_902), "2025-11-28_20-15-02");
        assert_eq!(utc(951_782_400), "2000-02-29_00-00-00", "a leap day");
        assert_eq!(name_of("billiard-corner", 3.3), "billiard-corner_t3.300s");
        assert_eq!(name_of("Block on an incline", 0.0), "block-on-an-incline_t0.000s");
        let dir = std::env::temp_dir().join(format!("contact-lab-names-{}", std::process::id()));
        let out = OutputDir(dir.clone());
        let a = out.fresh("x_t0.000s", "png").unwrap();
        std::fs::write(&a, b"").unwrap();
        let b = out.fresh("x_t0.000s", "png").unwrap();
        assert_ne!(a, b, "a taken name is not written over");
        assert!(b.to_string_lossy().ends_with("-2.png") || b.file_name() != a.file_name(), "{}", b.display());
        std::fs::remove_dir_all(dir).ok();
    }
}
