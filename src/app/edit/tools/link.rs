//! What the rod, the rope and the contact share: a drag from one body to
//! another, drawn as a dashed line from the first body's centre; the link's
//! name from its ends (`A~B`, `A-B`, then `_2`, `_3`, … if taken).

use bevy::math::DVec2;

use super::super::pick::body_at;
use super::{Cx, Mark, Pending, Step};

/// The ends of the link dragged from `pending`'s body to `w`: the body
/// nearest under the release, if it is another; else a word (`label: …`).
pub(super) fn ends(label: &str, cx: &Cx, pending: &Pending, w: DVec2) -> Result<(String, String), Box<Step>> {
    let from = pending.body.clone().expect("a link starts on a body");
    match cx.name_under(w).filter(|b| *b != from) {
        Some(other) => Ok((from, other)),
        None => Err(Box::new(Step::Say(format!("{label}: release on another body")))),
    }
}

/// `base`, or the first of `base_2`, `base_3`, … no wall, constraint or row has.
pub(super) fn name(cx: &Cx, base: String) -> String {
    cx.free_of(std::iter::once(base.clone()).chain((2..).map(|i| format!("{base}_{i}"))))
}

/// A dashed line from the first body's centre to the pointer.
pub(super) fn sketch(cx: &Cx, pending: &Pending) -> Vec<Mark> {
    let from = pending.body.as_deref().and_then(|b| body_at(cx.world, b));
    from.map_or_else(Vec::new, |(p, _)| vec![Mark::Dashed(p, pending.to)])
}
