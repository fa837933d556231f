//! Save as… and the folder for screenshots and clips, in one egui file dialog
//! ([`egui_file_dialog`]: drawn by egui, so it is the same on every desktop and
//! under Xvfb). The editor asks for it ([`Editor::save_requested`]: Ctrl+S,
//! "💾 Save as…"), the toolbar's 📁 for the folder ([`UiState::ask_folder`]).
//!
//! The save dialog opens in the folder of the scene edited — a built-in
//! scene's (the app's `assets/scenes`, inside its repository) or a new one's
//! in `~/Documents/contact-lab/scenes` — with the name `NAME-edited.ron`; it
//! asks before overwriting a file. A name typed as `~/…` is under the home
//! folder (the dialog joined it to the folder shown). While it is open the
//! keyboard and the pointer are its own.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use egui_file_dialog::{DialogState, FileDialog, OpeningMode};

use super::data::UiState;
use crate::app::edit::{EditAction, Editor};
use crate::app::lab::{InputClaims, OutputDir, Status};

/// What the dialog is open for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    SaveScene,
    OutputFolder,
}

/// The dialog, and what it was opened for.
#[derive(Resource)]
pub struct FileDialogs {
    dialog: FileDialog,
    purpose: Option<Purpose>,
}

impl Default for FileDialogs {
    fn default() -> Self {
        let mut dialog = FileDialog::new()
            .add_save_extension("Scene file", "ron")
            .default_save_extension("Scene file")
            .default_size([720.0, 440.0]);
        let config = dialog.config_mut();
        config.opening_mode = OpeningMode::AlwaysInitialDir;
        config.as_modal = true;
        FileDialogs { dialog, purpose: None }
    }
}

impl FileDialogs {
    /// Whether the dialog is on screen.
    pub fn is_open(&self) -> bool {
        matches!(self.dialog.state(), DialogState::Open)
    }
}

/// Opens the dialog when asked, shows it, and hands over what was picked.
#[allow(clippy::too_many_arguments)]
pub fn file_dialog(
    mut contexts: EguiContexts,
    mut dialogs: ResMut<FileDialogs>,
    mut asked: Local<Option<(Purpose, u8)>>,
    mut editor: ResMut<Editor>,
    mut ui: ResMut<UiState>,
    mut out: ResMut<OutputDir>,
    mut status: ResMut<Status>,
    real: Res<Time<Real>>,
    mut edits: MessageWriter<EditAction>,
    mut claims: ResMut<InputClaims>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let now = real.elapsed_secs_f64();
    // Opened two frames after it is asked for: the keys that asked (Ctrl+S)
    // are not typed into the dialog's fields.
    if std::mem::take(&mut editor.save_requested) {
        *asked = Some((Purpose::SaveScene, 2));
    }
    if std::mem::take(&mut ui.ask_folder) {
        *asked = Some((Purpose::OutputFolder, 2));
    }
    match *asked {
        Some((purpose, n)) if n > 0 => *asked = Some((purpose, n - 1)),
        Some((Purpose::SaveScene, _)) => {
            *asked = None;
            let (dir, name) = save_default(editor.source_file.as_deref());
            let config = dialogs.dialog.config_mut();
            config.initial_directory = dir;
            config.default_file_name = name;
            config.title = Some("Save the scene as".into());
            dialogs.dialog.save_file();
            dialogs.purpose = Some(Purpose::SaveScene);
        }
        Some((Purpose::OutputFolder, _)) => {
            *asked = None;
            let config = dialogs.dialog.config_mut();
            config.initial_directory = existing_ancestor(&out.0);
            config.title = Some("The folder for screenshots and clips".into());
            dialogs.dialog.pick_directory();
            dialogs.purpose = Some(Purpose::OutputFolder);
        }
        None => {}
    }
    dialogs.dialog.update(&ctx);
    // Closed without a file: a quit or a scene waiting for the save waits no more.
    if dialogs.purpose == Some(Purpose::SaveScene) && matches!(dialogs.dialog.state(), DialogState::Cancelled) {
        dialogs.purpose = None;
        if let Some(leave) = editor.after_save.take() {
            status.say(now, format!("Not saved: {} cancelled, the edits are kept", leave.doing().to_lowercase()));
        }
    }
    if let Some(path) = dialogs.dialog.take_picked() {
        match dialogs.purpose.take() {
            Some(Purpose::SaveScene) => {
                edits.write(EditAction::SaveAs(home_expanded(&path)));
            }
            Some(Purpose::OutputFolder) => match out.choose(&path) {
                Ok(()) => status.say(now, format!("Screenshots and clips go to {}", path.display())),
                Err(e) => status.warn(now, format!("Screenshots and clips go to {}, but {e}", path.display())),
            },
            None => {}
        }
    }
    if dialogs.is_open() {
        claims.keyboard = true;
        claims.pointer = true;
    }
    Ok(())
}

/// The folder of the scene's file (the user's scenes folder for a built-in
/// or a new scene) and `NAME-edited.ron`.
fn save_default(path: Option<&std::path::Path>) -> (PathBuf, String) {
    let stem = path.and_then(|p| p.file_stem()).map_or("scene".into(), |s| s.to_string_lossy().to_string());
    let stem = stem.strip_suffix("-edited").unwrap_or(&stem).to_string();
    let canonical = |d: &std::path::Path| std::fs::canonicalize(d).ok();
    let built_in = canonical(std::path::Path::new("assets/scenes"));
    let dir = path
        .and_then(|p| p.parent())
        .map(|d| std::path::absolute(d).unwrap_or(d.to_path_buf()))
        .filter(|d| built_in.is_none() || canonical(d) != built_in)
        .unwrap_or_else(user_scenes);
    (existing_ancestor(&dir), format!("{stem}-edited.ron"))
}

/// `~/Documents/contact-lab/scenes`, made if need be (the current folder
/// without a home).
fn user_scenes() -> PathBuf {
    let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else { return PathBuf::from(".") };
    let dir = home.join("Documents").join("contact-lab").join("scenes");
    if std::fs::create_dir_all(&dir).is_ok() { dir } else { home }
}

/// A path the dialog joined from the folder shown and a name typed `~/…`:
/// the name under the home folder (`/repo/assets/scenes/~/a.ron` is
/// `$HOME/a.ron`).
fn home_expanded(path: &std::path::Path) -> PathBuf {
    let parts: Vec<_> = path.components().collect();
    let Some(i) = parts.iter().rposition(|c| c.as_os_str() == "~") else { return path.to_path_buf() };
    let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else { return path.to_path_buf() };
    parts[i + 1..].iter().fold(home, |p, c| p.join(c))
}

/// `dir`, or its nearest ancestor that exists (the dialog opens there).
fn existing_ancestor(dir: &std::path::Path) -> PathBuf {
    dir.ancestors().find(|d| d.is_dir()).map_or_else(|| PathBuf::from("."), |d| d.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_typed_under_the_home_folder_goes_there() {
        let home = PathBuf::from(std::env::var_os("HOME").expect("a home in tests"));
        assert_eq!(home_expanded(std::path::Path::new("/repo/assets/scenes/~/a/b.ron")), home.join("a").join("b.ron"));
        let plain = std::path::Path::new("/tmp/x.ron");
        assert_eq!(home_expanded(plain), plain);
    }
}
