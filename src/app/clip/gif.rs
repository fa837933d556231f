//! Frames to an animated GIF that slide programs play (PowerPoint, Keynote,
//! Impress, Google Slides, browsers).
//!
//! * **One global palette**: NeuQuant (Dekker 1994, `color_quant`) trained once
//!   on a sample of every frame's pixels, 255 colours; index 255 is transparent.
//!   The lab draws flat colours on a dark background, so 255 colours lose little,
//!   and a frame is mapped to it through a cache of the colours already seen.
//! * **Only what changed**: a frame after the first is the bounding box of the
//!   pixels that differ from the frame before, those that did not are
//!   transparent (disposal `Keep`): a billiard break moves a few balls over a
//!   still table, and LZW packs long transparent runs into a few bits.
//! * **The frame rate**: GIF delays are in hundredths of a second, so 30 fps
//!   alternates 3, 4 and 3 (33.3 ms on average): each frame ends where the
//!   next one's time falls, rounded to the hundredth, never drifting from the
//!   simulated clock; frames taken as a slow window draws them (not evenly)
//!   keep their own times; the last lasts `1/fps`.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use color_quant::NeuQuant;

/// An RGBA frame, row by row from the top.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// When the frame shows, seconds from the clip's start as it plays.
    pub at: f64,
}

/// The palette index of "unchanged since the previous frame".
const TRANSPARENT: u8 = 255;
/// NeuQuant learns from one pixel in this many (1 is every pixel: slow and no better).
const SAMPLE: i32 = 10;

/// Writes `frames` (all of the first's size) as a looping GIF at `fps`,
/// counting the frames done in `progress`. Returns the bytes written.
pub fn encode(frames: &[Frame], fps: f64, out: impl Write, progress: &AtomicUsize) -> Result<usize, String> {
    let Some(first) = frames.first() else { return Err("no frame to write".into()) };
    let (w, h) = (first.width, first.height);
    if w == 0 || h == 0 || w > u16::MAX as u32 || h > u16::MAX as u32 {
        return Err(format!("a frame of {w}×{h} pixels cannot be a GIF"));
    }
    if let Some(f) = frames.iter().find(|f| (f.width, f.height) != (w, h)) {
        return Err(format!("frames of different sizes: {w}×{h} and {}×{}", f.width, f.height));
    }
    let quant = palette_of(frames);
    let mut palette = quant.color_map_rgb();
    palette.resize(3 * 256, 0);
    let mut counter = Counter { inner: out, bytes: 0 };
    let mut enc = gif::Encoder::new(&mut counter, w as u16, h as u16, &palette).map_err(|e| e.to_string())?;
    enc.set_repeat(gif::Repeat::Infinite).map_err(|e| e.to_string())?;
    let mut cache: HashMap<[u8; 3], u8> = HashMap::new();
    let mut index = |p: &[u8]| -> u8 {
        let c = [p[0], p[1], p[2]];
        *cache.entry(c).or_insert_with(|| quant.index_of(&[c[0], c[1], c[2], 255]) as u8)
    };
    let mut previous: Option<Vec<u8>> = None;
    for (k, f) in frames.iter().enumerate() {
        let indices: Vec<u8> = f.rgba.chunks_exact(4).map(&mut index).collect();
        let (left, top, fw, fh, buffer) = match &previous {
            None => (0, 0, w, h, indices.clone()),
            Some(prev) => changed_box(prev, &indices, w, h),
        };
        let frame = gif::Frame {
            delay: delay(f.at, frames.get(k + 1).map_or(f.at + 1.0 / fps, |n| n.at)),
            dispose: gif::DisposalMethod::Keep,
            transparent: previous.is_some().then_some(TRANSPARENT),
            left: left as u16,
            top: top as u16,
            width: fw as u16,
            height: fh as u16,
            buffer: buffer.into(),
            ..gif::Frame::default()
        };
        enc.write_frame(&frame).map_err(|e| e.to_string())?;
        previous = Some(indices);
        progress.store(k + 1, Ordering::Relaxed);
    }
    drop(enc);
    Ok(counter.bytes)
}

/// The delay of a frame shown at `at` until the next one at `next` (s), in
/// hundredths of a second: each frame ends where the next one's time falls,
/// to the nearest hundredth, so the delays add up to the clip's times.
fn delay(at: f64, next: f64) -> u16 {
    let hundredths = |t: f64| (t * 100.0).round() as i64;
    (hundredths(next) - hundredths(at)).clamp(1, u16::MAX as i64) as u16
}

/// NeuQuant trained on every frame (a sample of each), 255 colours.
fn palette_of(frames: &[Frame]) -> NeuQuant {
    // At most ~4 M samples: NeuQuant's learning is linear in what it is given.
    let stride = (frames.len() / 16).max(1);
    let mut pixels = Vec::new();
    for f in frames.iter().step_by(stride) {
        pixels.extend_from_slice(&f.rgba);
    }
    for p in pixels.chunks_exact_mut(4) {
        p[3] = 255;
    }
    NeuQuant::new(SAMPLE, 255, &pixels)
}

/// The bounding box of the pixels of `now` that differ from `prev`, as
/// `(left, top, width, height, indices)` with the unchanged ones transparent
/// (a 1×1 transparent box when nothing changed).
fn changed_box(prev: &[u8], now: &[u8], w: u32, h: u32) -> (u32, u32, u32, u32, Vec<u8>) {
    let (w, h) = (w as usize, h as usize);
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        let row = y * w;
        for x in 0..w {
            if prev[row + x] != now[row + x] {
                x0 = x0.min(x);
                x1 = x1.max(x + 1);
                y0 = y0.min(y);
                y1 = y1.max(y + 1);
            }
        }
    }
    if x0 >= x1 {
        return (0, 0, 1, 1, vec![TRANSPARENT]);
    }
    let mut out = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        for x in x0..x1 {
            let i = y * w + x;
            out.push(if prev[i] == now[i] { TRANSPARENT } else { now[i] });
        }
    }
    (x0 as u32, y0 as u32, (x1 - x0) as u32, (y1 - y0) as u32, out)
}

/// Counts the bytes that go through.
struct Counter<W> {
    inner: W,
    bytes: usize,
}

impl<W: Write> Write for Counter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Decodes a GIF into full frames (each composed over the ones before, as a
/// player shows it) and their delays: what the tests check.
pub fn decode(bytes: &[u8]) -> Result<(Vec<Frame>, Vec<u16>), String> {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(bytes).map_err(|e| e.to_string())?;
    let (w, h) = (dec.width() as usize, dec.height() as usize);
    let mut canvas = vec![0u8; 4 * w * h];
    let (mut frames, mut delays) = (Vec::new(), Vec::new());
    while let Some(f) = dec.read_next_frame().map_err(|e| e.to_string())? {
        let (fl, ft, fw) = (f.left as usize, f.top as usize, f.width as usize);
        for (i, px) in f.buffer.chunks_exact(4).enumerate() {
            if px[3] == 0 {
                continue;
            }
            let (x, y) = (fl + i % fw, ft + i / fw);
            if x < w && y < h {
                canvas[4 * (y * w + x)..4 * (y * w + x) + 4].copy_from_slice(px);
            }
        }
        let at = delays.iter().map(|d| f64::from(*d) / 100.0).sum();
        delays.push(f.delay);
        frames.push(Frame { width: w as u32, height: h as u32, rgba: canvas.clone(), at });
    }
    Ok((frames, delays))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dark background with a red square moving right and a fixed blue one.
    fn frame(k: u32) -> Frame {
        let (w, h) = (64, 40);
        let mut rgba = Vec::with_capacity((4 * w * h) as usize);
        for y in 0..h {
            for x in 0..w {
                let red = (10 + 3 * k..20 + 3 * k).contains(&x) && (5..15).contains(&y);
                let blue = (40..50).contains(&x) && (25..35).contains(&y);
                rgba.extend_from_slice(match (red, blue) {
                    (true, _) => &[230, 60, 60, 255],
                    (_, true) => &[60, 90, 230, 255],
                    _ => &[20, 24, 30, 255],
                });
            }
        }
        Frame { width: w, height: h, rgba, at: f64::from(k) / 30.0 }
    }

    #[test]
    fn a_clip_decodes_to_its_frames_their_size_and_the_frame_rate() {
        let frames: Vec<Frame> = (0..9).map(frame).collect();
        let progress = AtomicUsize::new(0);
        let mut bytes = Vec::new();
        let n = encode(&frames, 30.0, &mut bytes, &progress).unwrap();
        assert_eq!(n, bytes.len());
        assert_eq!(progress.load(Ordering::Relaxed), 9);
        let (decoded, delays) = decode(&bytes).unwrap();
        assert_eq!(decoded.len(), 9);
        for (d, f) in decoded.iter().zip(&frames) {
            assert_eq!((d.width, d.height), (64, 40));
            // Three flat colours: the palette holds each within a few levels.
            let worst = d.rgba.iter().zip(&f.rgba).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
            assert!(worst <= 8, "a pixel off by {worst} levels");
        }
        // 30 fps: 3.33 hundredths rounded where each frame ends, 9 frames in 0.30 s exactly.
        assert_eq!(delays, [3, 4, 3, 3, 4, 3, 3, 4, 3]);
        assert_eq!(delays.iter().map(|d| *d as u32).sum::<u32>(), 30);
    }

    /// Frames taken as a slow window draws them keep their own times: a
    /// clip recorded at 8 frames a second of a run at real time plays at
    /// the run's speed, not 3.75 times faster (issue 47, item 12).
    #[test]
    fn frames_taken_unevenly_keep_their_times() {
        let times = [0.0, 0.12, 0.25, 0.37, 0.61];
        let frames: Vec<Frame> = times.iter().zip(0..).map(|(t, k)| Frame { at: *t, ..frame(k) }).collect();
        let mut bytes = Vec::new();
        encode(&frames, 30.0, &mut bytes, &AtomicUsize::new(0)).unwrap();
        let (decoded, delays) = decode(&bytes).unwrap();
        assert_eq!(delays, [12, 13, 12, 24, 3], "each until the next one's time, the last 1/30 s");
        for (d, t) in decoded.iter().zip(times) {
            assert!((d.at - t).abs() < 1e-12, "{} against {t}", d.at);
        }
    }

    #[test]
    fn a_frame_that_moves_a_little_is_stored_as_the_little_that_moved() {
        let still: Vec<Frame> = (0..20).map(|_| frame(0)).collect();
        let moving: Vec<Frame> = (0..20).map(frame).collect();
        let size = |frames: &[Frame]| encode(frames, 30.0, Vec::new(), &AtomicUsize::new(0)).unwrap();
        let (one, still_n, moving_n) = (size(&still[..1]), size(&still), size(&moving));
        // A frame that changes nothing costs a few bytes, one that moves a square little more.
        assert!(still_n - one < 20 * 40, "{still_n} vs {one}");
        assert!(moving_n < 3 * one, "{moving_n} vs {one}");
    }

    #[test]
    fn frames_of_different_sizes_are_refused_with_both_sizes() {
        let mut other = frame(0);
        other.width = 32;
        let e = encode(&[frame(0), other], 30.0, Vec::new(), &AtomicUsize::new(0)).unwrap_err();
        assert!(e.contains("64×40") && e.contains("32×40"), "{e}");
    }
}
