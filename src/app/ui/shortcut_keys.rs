//! Ctrl+letter in a text field is a shortcut, never a letter, at any frame
//! rate (issue 47, item 13: Ctrl+A in the save dialog's file name typed an
//! "a").
//!
//! bevy_egui takes the modifiers once a frame, from all of the frame's key
//! messages, and then turns each character pressed into text unless Ctrl is
//! down *at the frame's end*. A quick Ctrl+A (Ctrl down, A down and up, Ctrl
//! up) that falls within one frame, which at the software renderer's 10–25
//! frames/s is a typist's ordinary speed, so reached egui as the text "a"
//! and a plain A key. This system, between bevy_egui's reading of the
//! frame's messages and its feeding of egui, follows Ctrl message by message
//! and, for each character pressed while it was down, drops that text and
//! gives the key its Ctrl (egui's select-all, copy, paste).

use bevy::input::keyboard::{Key, KeyboardFocusLost, KeyboardInput};
use bevy::prelude::*;
use bevy_egui::input::EguiInputEvent;
use bevy_egui::{EguiInputSet, egui};

pub struct ShortcutKeysPlugin;

impl Plugin for ShortcutKeysPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PreUpdate,
            shortcuts_are_not_text.after(EguiInputSet::ReadBevyMessages).before(EguiInputSet::WriteEguiEvents),
        );
    }
}

fn shortcuts_are_not_text(
    mut keys: MessageReader<KeyboardInput>,
    mut focus_lost: MessageReader<KeyboardFocusLost>,
    mut egui_events: ResMut<Messages<EguiInputEvent>>,
    mut ctrl: Local<bool>,
) {
    // Ctrl released in another window (Ctrl+Tab away) is not held here.
    if focus_lost.read().count() > 0 {
        *ctrl = false;
    }
    // The characters pressed while Ctrl was down, in order.
    let mut with_ctrl: Vec<String> = Vec::new();
    for k in keys.read() {
        match &k.logical_key {
            Key::Control => *ctrl = k.state.is_pressed(),
            Key::Character(c) if *ctrl && k.state.is_pressed() => with_ctrl.push(c.to_string()),
            _ => {}
        }
    }
    if with_ctrl.is_empty() {
        return;
    }
    let events: Vec<EguiInputEvent> = egui_events.drain().collect();
    let mut text = with_ctrl.clone().into_iter().peekable();
    let mut key = with_ctrl.into_iter().peekable();
    for mut e in events {
        match &mut e.event {
            egui::Event::Text(t) if text.peek() == Some(t) => {
                text.next();
                continue;
            }
            egui::Event::Key { key: k, pressed: true, modifiers, .. }
                if key.peek().is_some_and(|c| egui::Key::from_name(c).is_some_and(|n| n == *k)) =>
            {
                key.next();
                modifiers.ctrl = true;
                modifiers.command = true;
            }
            _ => {}
        }
        egui_events.write(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::ButtonState;
    use bevy::input::keyboard::KeyCode;

    fn key(logical: Key, code: KeyCode, state: ButtonState, window: Entity) -> KeyboardInput {
        KeyboardInput { key_code: code, logical_key: logical, state, text: None, repeat: false, window }
    }

    /// Ctrl down, A down and up, Ctrl up, all in one frame: egui gets no
    /// text "a" and an A key with Ctrl; a plain B typed after it stays text.
    #[test]
    fn a_ctrl_letter_within_one_frame_is_a_shortcut_not_text() {
        let mut app = App::new();
        app.add_message::<KeyboardInput>().add_message::<KeyboardFocusLost>().add_message::<EguiInputEvent>();
        app.add_systems(Update, shortcuts_are_not_text);
        let w = Entity::PLACEHOLDER;
        let a = || Key::Character("a".into());
        for m in [
            key(Key::Control, KeyCode::ControlLeft, ButtonState::Pressed, w),
            key(a(), KeyCode::KeyA, ButtonState::Pressed, w),
            key(a(), KeyCode::KeyA, ButtonState::Released, w),
            key(Key::Control, KeyCode::ControlLeft, ButtonState::Released, w),
            key(Key::Character("b".into()), KeyCode::KeyB, ButtonState::Pressed, w),
        ] {
            app.world_mut().write_message(m);
        }
        // What bevy_egui wrote from them, Ctrl being up at the frame's end.
        let plain = egui::Modifiers::NONE;
        let key_event = |k: egui::Key| egui::Event::Key {
            key: k,
            physical_key: Some(k),
            pressed: true,
            repeat: false,
            modifiers: plain,
        };
        for event in [
            egui::Event::Text("a".into()),
            key_event(egui::Key::A),
            egui::Event::Text("b".into()),
            key_event(egui::Key::B),
        ] {
            app.world_mut().write_message(EguiInputEvent { context: w, event });
        }
        app.update();
        let events = app.world().resource::<Messages<EguiInputEvent>>();
        let got: Vec<egui::Event> = events.iter_current_update_messages().map(|e| e.event.clone()).collect();
        let ctrl_a = match &got[0] {
            egui::Event::Key { key: egui::Key::A, modifiers, .. } => modifiers.ctrl && modifiers.command,
            _ => false,
        };
        assert!(ctrl_a, "the A key with Ctrl first: {got:?}");
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[1], egui::Event::Text("b".into()));
        assert!(matches!(&got[2], egui::Event::Key { key: egui::Key::B, modifiers, .. } if !modifiers.ctrl));
    }
}
