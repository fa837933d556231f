//! The C allocator's thresholds, set for a software renderer.
//!
//! Our own allocations go to mimalloc (`src/main.rs`); Mesa's drivers, and
//! llvmpipe's rasterizer threads above all, allocate with the C library's
//! `malloc`. Under glibc's defaults a frame's large buffers (megabytes: a
//! window's worth of pixels) are handed back to the system when freed and
//! taken again the next frame, every page zeroed by the kernel on its first
//! touch: on the billiard at 1600×900 under llvmpipe, a fifth of the app's
//! samples were page faults and `clear_page` (issue 47, deliverable 5).
//! Keeping buffers of up to 32 MiB in the heap, and up to 512 MiB of freed
//! memory before giving it back, takes them out: 15.8–16.7 → 20.1–22.6
//! frames/s over six runs of 300 frames each (Xvfb, 2 cores, 29 Nov 2026).
//! On a GPU the driver's buffers live on the card and nothing changes.

/// Sets glibc's `malloc` thresholds (above) for the whole process; call it
/// before any thread starts. Elsewhere (musl, macOS, Windows) it does nothing.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets the allocator's parameters; it is called
    // before Bevy starts a thread, and its result needs no handling (a value
    // glibc refuses leaves its default).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 512 << 20);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}
