#!/usr/bin/env bash
# End-to-end check of the desktop lab: the real app under Xvfb with Mesa's
# software Vulkan (llvmpipe).
#
#  1. A scripted screenshot of the wedge (--screenshot --frames) is checked to be
#     neither blank nor panel-less: pixel statistics over the whole image and over
#     each panel region (toolbar, algorithm/controls, plots, table/trace, world).
#  1b. Presenter mode (--present) renders: a banner with the algorithm and the
#     handled set over the world view, and no bottom panels.
#  1c. The visual check over every built-in scene × {normal, presenter}, compare
#     mode on the wedge, the billiard and every scene of bodies that turn, presenter mode on every scene at
#     1280x720 and 1920x1080, every step of the paper's tour as it opens (at
#     its own pause) (scripts/screenshots views): each screenshot checked against the
#     app's own world → screen mapping (--check-view); PNGs and logs kept in
#     $OUT/views.
#  2. An xdotool drag on a ball: the app logs where each body is on screen once
#     the view is fitted; the mouse grabs the ball there and drags it; the app's
#     log line "drag: puck moved from … to …" and its --dump-state file must show
#     it moved the way it was dragged.
#
# Artifacts (screenshots, logs) go to $E2E_OUT (default: target/e2e).
set -euo pipefail
cd "$(dirname "$0")/.."

# The one build of the README's commands: ./target (CI links it to a cache).
TARGET="${CARGO_TARGET_DIR:-target}"
OUT="${E2E_OUT:-$TARGET/e2e}"
mkdir -p "$OUT"
rm -f "$OUT"/*.png "$OUT"/*.log "$OUT"/*.txt

say() { printf 'e2e: %s\n' "$*"; }
fail() { printf 'e2e: FAIL: %s\n' "$*" >&2; exit 1; }

# --- Tools -------------------------------------------------------------------
need=()
command -v xvfb-run >/dev/null || need+=(xvfb xauth)
command -v xdotool >/dev/null || need+=(xdotool)
# `convert` alone proves nothing: a fresh machine has a stand-in of that name.
command -v identify >/dev/null || need+=(imagemagick)
dpkg -s mesa-vulkan-drivers >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
# winit's X11 keyboard handling loads libxkbcommon-x11 at run time.
ldconfig -p | grep -q 'libxkbcommon-x11.so.0' || need+=(libxkbcommon-x11-0)
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

cargo build --bin contact-lab
BIN="$TARGET/debug/contact-lab"
export XDG_RUNTIME_DIR="$(mktemp -d)"
export WGPU_BACKEND=vulkan
W=1600; H=900

# --- 1. Screenshot -------------------------------------------------------------
say "screenshot of the wedge"
timeout 600 xvfb-run -a -s "-screen 0 ${W}x${H}x24" \
  "$BIN" assets/scenes/wedge.ron --size ${W}x${H} --play --speed 0.05 --frames 60 \
  --screenshot "$OUT/wedge.png" >"$OUT/screenshot.log" 2>&1 || { tail -20 "$OUT/screenshot.log"; fail "the app did not exit cleanly"; }
[ -s "$OUT/wedge.png" ] || fail "no screenshot written"
grep -q "Screenshot saved to" "$OUT/screenshot.log" || fail "the app did not say where the screenshot went"

read -r iw ih < <(identify -format '%w %h\n' "$OUT/wedge.png")
[ "$iw" = "$W" ] && [ "$ih" = "$H" ] || fail "screenshot is ${iw}x${ih}, expected ${W}x${H}"

# mean and standard deviation (0..1) of a region WxH+X+Y
stats() { convert "$OUT/wedge.png" -crop "$1" +repage -colorspace Gray -format '%[fx:mean] %[fx:standard_deviation]\n' info:; }
check() { # name geometry min_stddev
  read -r mean sd < <(stats "$2")
  say "  $1 ($2): mean $mean, stddev $sd"
  awk -v sd="$sd" -v min="$3" 'BEGIN { exit !(sd >= min) }' || fail "$1 looks empty (stddev $sd < $3)"
}
check "whole window" "${W}x${H}+0+0" 0.05
check "toolbar" "1600x34+0+0" 0.04
check "algorithm and controls (left)" "300x420+0+40" 0.05
check "plots (right)" "440x700+1150+40" 0.05
check "constraint table and trace (bottom)" "1100x180+0+660" 0.04
check "world view (centre)" "600x440+420+60" 0.03
# Panels are drawn: their fill colour rgb(30,33,40) (the world's clear colour is
# rgb(22,25,31)) covers much of each panel region and almost none of the world.
fill() { convert "$OUT/wedge.png" -crop "$1" +repage -fuzz 3% -fill white -opaque "rgb(30,33,40)" \
  -fill black +opaque white -format '%[fx:mean]\n' info:; }
panel() { # name geometry min_fraction max_fraction
  read -r f < <(fill "$2")
  say "  $1: panel fill covers $f"
  awk -v f="$f" -v lo="$3" -v hi="$4" 'BEGIN { exit !(f >= lo && f <= hi) }' || fail "$1: panel fill $f not in [$3, $4]"
}
panel "toolbar" "1600x34+0+0" 0.3 1
panel "left panel" "300x420+0+40" 0.3 1
panel "plots panel" "440x700+1150+40" 0.2 1
panel "bottom panel" "1100x180+0+660" 0.3 1
panel "world view" "600x440+420+60" 0 0.1

# --- 1b. Presenter mode ----------------------------------------------------------
say "screenshot of presenter mode"
timeout 600 xvfb-run -a -s "-screen 0 ${W}x${H}x24" \
  "$BIN" assets/scenes/wedge.ron --size ${W}x${H} --algorithm platt --present --pause-at 0.02 --frames 30 \
  --screenshot "$OUT/present.png" >"$OUT/present.log" 2>&1 || { tail -20 "$OUT/present.log"; fail "presenter mode did not exit cleanly"; }
[ -s "$OUT/present.png" ] || fail "no presenter screenshot written"
read -r iw ih < <(identify -format '%w %h\n' "$OUT/present.png")
[ "$iw" = "$W" ] && [ "$ih" = "$H" ] || fail "presenter screenshot is ${iw}x${ih}, expected ${W}x${H}"
pstat() { convert "$OUT/present.png" -crop "$1" +repage -colorspace Gray -format '%[fx:mean] %[fx:standard_deviation]\n' info:; }
pfill() { convert "$OUT/present.png" -crop "$1" +repage -fuzz 3% -fill white -opaque "rgb(30,33,40)" \
  -fill black +opaque white -format '%[fx:mean]\n' info:; }
read -r mean sd < <(pstat "300x160+515+105")
say "  banner (algorithm and E ∪ F⁺): mean $mean, stddev $sd"
awk -v sd="$sd" 'BEGIN { exit !(sd >= 0.08) }' || fail "presenter banner looks empty (stddev $sd)"
# (Above the presenter's own timeline bar, along the bottom edge.)
read -r f < <(pfill "560x110+540+720")
say "  no inspector in presenter mode: panel fill $f where the table and trace usually are"
awk -v f="$f" 'BEGIN { exit !(f <= 0.1) }' || fail "presenter mode still shows the bottom panels (fill $f)"

# --- 1c. Every scene in every mode, checked against the view's mapping ------------
say "visual check of every scene and mode (artifacts in $OUT/views)"
bash scripts/screenshots views "$OUT/views" | sed 's/^/e2e:   /'

# --- 2. Drag a ball ------------------------------------------------------------
say "dragging a ball"
SCENE="$OUT/puck.ron"
cat >"$SCENE" <<'RON'
// The end-to-end drag: one ball at rest on a floor, no gravity, damped.
Scene(
    name: "Puck",
    description: "A ball at rest for the end-to-end drag test.",
    gravity: (0, 0),
    bodies: [Ball(name: "puck", position: (0, 0), mass: 1, radius: 0.1, damping: 1.5)],
    walls: [(name: "floor", normal: (0, 1), offset: -0.2)],
    solver: (algorithm: Right, dt: 1e-3),
    view: (min: (-1, -0.4), max: (1.5, 1.2)),
)
RON
# For the sessions below (each a `bash -c` under Xvfb): wait until the app
# logs where the puck is on screen (failing if the app dies first), and read
# the last such line (the view is fitted again as the panels settle).
wait_for_puck() { # LOG APP_PID
  for i in $(seq 1 300); do
    grep -q "layout: puck at window" "$1" && return 0
    kill -0 "$2" 2>/dev/null || { echo "the app died"; return 1; }
    sleep 0.2
  done
  echo "no layout line"
  return 1
}
puck_on_screen() { # LOG -> "x y" in window pixels
  sed -n "s/.*layout: puck at window (\([-0-9.]*\), \([-0-9.]*\)) px.*/\1 \2/p" "$1" | tail -1
}
# The app's window, once the puck is laid out on it (the panels settled).
puck_window() { # LOG APP_PID -> window id
  wait_for_puck "$1" "$2" || return 1
  xdotool search --sync --name "contact-lab" | head -1
  sleep 1.5
}
# Quit with Ctrl+Q (no window manager here: give the window the focus
# first); stop the app if the key does not reach it.
quit_app() { # WID APP_PID LOG
  xdotool windowfocus --sync "$1"
  xdotool key --clearmodifiers ctrl+q
  for i in $(seq 1 100); do kill -0 "$2" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$2" 2>/dev/null; then
    echo "Ctrl+Q did not reach the window: stopping the app" >>"$3"
    kill "$2"; sleep 1
  fi
  wait "$2" || true
}
# xvfb-run is a /bin/sh script, which drops exported functions: the sessions
# get the definitions as text at the head of their script.
PUCK_HELPERS="$(declare -f wait_for_puck puck_on_screen puck_window quit_app)"

LOG="$OUT/drag.log"
DUMP="$OUT/drag-state.txt"
xvfb-run -a -s "-screen 0 ${W}x${H}x24" bash -c "$PUCK_HELPERS"'
  set -euo pipefail
  "$0" "$1" --size 1600x900 --dump-state "$2" >"$3" 2>&1 &
  app=$!
  trap "kill $app 2>/dev/null || true" EXIT
  # Wait for the window and the fitted view.
  wid=$(puck_window "$3" $app)
  read -r x y < <(puck_on_screen "$3")
  xdotool mousemove --window "$wid" "$x" "$y"; sleep 0.5
  xdotool mousedown 1; sleep 0.3
  # 160 px right and 120 px up, in steps, holding the spring there a moment.
  for i in $(seq 1 8); do
    xdotool mousemove --window "$wid" $((x + 20 * i)) $((y - 15 * i)); sleep 0.15
  done
  sleep 2.5
  xdotool mouseup 1; sleep 1.5
  quit_app "$wid" $app "$3"
' "$BIN" "$SCENE" "$DUMP" "$LOG" || { tail -30 "$LOG"; fail "the drag session failed"; }

line=$(sed 's/\x1b\[[0-9;]*m//g' "$LOG" | grep "drag: puck moved" | tail -1) || true
[ -n "$line" ] || { tail -30 "$LOG"; fail "no drag log line (the ball was not grabbed)"; }
say "  ${line##*control: }"
read -r x0 y0 x1 y1 d < <(sed -n 's/.*moved from (\([-0-9.e]*\), \([-0-9.e]*\)) to (\([-0-9.e]*\), \([-0-9.e]*\)), |Δ| = \([-0-9.e]*\) m.*/\1 \2 \3 \4 \5/p' <<<"$line")
awk -v x0="$x0" -v y0="$y0" -v x1="$x1" -v y1="$y1" -v d="$d" \
  'BEGIN { exit !(d > 0.1 && x1 - x0 > 0.05 && y1 - y0 > 0.03) }' \
  || fail "the ball did not follow the drag (from ($x0, $y0) to ($x1, $y1))"
[ -s "$DUMP" ] || fail "no state dump"
read -r _ px py < <(grep "^puck " "$DUMP")
say "  state dump at exit: puck at ($px, $py)"
awk -v x="$px" -v y="$py" 'BEGIN { exit !((x*x + y*y) > 0.01) }' || fail "the dump says the puck is still at the start"
# --- 2b. Edit mode: a ball added with the mouse, saved, loaded back -----------
# E (edit mode), B (the ball tool), a click 200 px right of the puck and 100 px
# up, Ctrl+S and Enter (the save dialog's default: puck-edited.ron beside the
# scene): the file holds the new ball where the click was, and loads in the CLI.
say "edit mode: adding a ball with the mouse and saving"
EDITED="$OUT/puck-edited.ron"
rm -f "$EDITED"
LOG="$OUT/edit.log"
xvfb-run -a -s "-screen 0 ${W}x${H}x24" bash -c "$PUCK_HELPERS"'
  set -euo pipefail
  "$0" "$1" --size 1600x900 >"$2" 2>&1 &
  app=$!
  trap "kill $app 2>/dev/null || true" EXIT
  wid=$(puck_window "$2" $app)
  xdotool windowfocus --sync "$wid"
  xdotool key e; sleep 2
  # Edit mode lays the panels out anew and fits the view again: where the puck is now.
  read -r x y < <(puck_on_screen "$2")
  xdotool key b; sleep 0.5
  xdotool mousemove --window "$wid" $((x + 200)) $((y - 100)); sleep 0.3
  xdotool click 1; sleep 1
  xdotool key --clearmodifiers ctrl+s; sleep 2
  # The save dialog opens on puck-edited.ron beside the scene: Enter saves.
  xdotool key Return; sleep 3
  quit_app "$wid" $app "$2"
' "$BIN" "$SCENE" "$LOG" || { tail -30 "$LOG"; fail "the edit session failed"; }
grep -q "Saved to" "$LOG" || { tail -30 "$LOG"; fail "the edited scene was not saved"; }
[ -s "$EDITED" ] || fail "no $EDITED"
grep -q 'Ball(name: "ball1"' "$EDITED" || { cat "$EDITED"; fail "the saved scene has no ball1"; }
read -r bx by < <(sed -n 's/.*Ball(name: "ball1", position: (\([-0-9.e]*\), \([-0-9.e]*\)).*/\1 \2/p' "$EDITED")
say "  ball1 saved at ($bx, $by)"
# 200 px right and 100 px up of the puck at (0, 0), at the fitted view's scale.
awk -v x="$bx" -v y="$by" 'BEGIN { exit !(x > 0.3 && y > 0.1 && x > 1.5 * y) }' || fail "ball1 is not where the click was"
"$BIN" run "$EDITED" --duration 0.01 >"$OUT/edit-run.txt" || fail "the saved scene does not run in the CLI"
grep -q "model: 2 bodies" "$OUT/edit-run.txt" || { cat "$OUT/edit-run.txt"; fail "the saved scene has not 2 bodies"; }

# --- 3. A clip ----------------------------------------------------------------
# 10 frames per simulated second for 1 s of the billiard break: the GIF has 10
# frames of the world view's size, and its frame k is the screenshot taken
# paused at t = k/10 (cut to the same rectangle) more closely than its
# neighbours are (trails may differ by a few pixels: they follow frames drawn).
say "a clip of the billiard break"
timeout 600 xvfb-run -a -s "-screen 0 ${W}x${H}x24" "$BIN" assets/scenes/billiard-corner.ron --size ${W}x${H} \
  --record "$OUT/clip.gif" --duration 1 --fps 10 >"$OUT/clip.log" 2>&1 || { tail -20 "$OUT/clip.log"; fail "the clip run failed"; }
grep -q "Clip saved to" "$OUT/clip.log" || fail "the app did not say where the clip went"
geom=$(sed 's/\x1b\[[0-9;]*m//g' "$OUT/clip.log" | sed -n 's/.*clip: \([0-9]*x[0-9]*+[0-9]*+[0-9]*\) px.*/\1/p' | tail -1)
[ -n "$geom" ] || fail "the app did not log the clip's rectangle"
nframes=$(identify "$OUT/clip.gif" | wc -l)
[ "$nframes" = 10 ] || fail "the clip has $nframes frames, expected 10"
read -r cw ch < <(identify -format '%W %H\n' "$OUT/clip.gif[0]")
[ "${cw}x${ch}" = "${geom%%+*}" ] || fail "the clip is ${cw}x${ch}, the world view ${geom%%+*}"
convert "$OUT/clip.gif" -coalesce "$OUT/clip-%d.png"
timeout 600 xvfb-run -a -s "-screen 0 ${W}x${H}x24" "$BIN" assets/scenes/billiard-corner.ron --size ${W}x${H} \
  --pause-at 0.5 --frames 10 --screenshot "$OUT/clip-at-0.5.png" >"$OUT/clip-shot.log" 2>&1 \
  || { tail -20 "$OUT/clip-shot.log"; fail "the screenshot at t = 0.5 s failed"; }
convert "$OUT/clip-at-0.5.png" -crop "$geom" +repage "$OUT/clip-at-0.5-view.png"
# `compare` exits 1 when the images differ at all (they do: the palette).
rmse() { { compare -metric RMSE "$1" "$2" null: 2>&1 || true; } | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p'; }
r4=$(rmse "$OUT/clip-4.png" "$OUT/clip-at-0.5-view.png")
r5=$(rmse "$OUT/clip-5.png" "$OUT/clip-at-0.5-view.png")
r6=$(rmse "$OUT/clip-6.png" "$OUT/clip-at-0.5-view.png")
say "  10 frames of ${cw}x${ch}; RMSE against the screenshot at t = 0.5 s: frame 4 $r4, frame 5 $r5, frame 6 $r6"
awk -v a="$r4" -v b="$r5" -v c="$r6" 'BEGIN { exit !(b < 0.05 && b < a && b < c) }' \
  || fail "frame 5 of the clip is not the screenshot at t = 0.5 s"

# --- 4. A tour step's keys, as its text gives them ---------------------------
# Step 9: "Press R (back to t = 0, paused), then 3 (Right) and Space: the cube
# stays level". The keys two seconds apart, in the text's order; the state
# dumped at the second pause must be Right's, the cube level (issue 37: R
# replayed the step under Exact before the 3 arrived, and the cube tipped).
say "tour step 9: R, then 3 and Space"
T9="$OUT/tour9.log"
xvfb-run -a -s "-screen 0 ${W}x${H}x24" bash -c '
  set -euo pipefail
  "$0" --tour --tour-step 9 --size 1600x900 --dump-state "$1" >"$2" 2>&1 &
  app=$!
  log="$2"
  paused() { sed "s/\x1b\[[0-9;]*m//g" "$log" | grep -ac "Paused at t = 0.2 s" || true; }
  for i in $(seq 1 600); do [ "$(paused)" -ge 1 ] && break; kill -0 $app || exit 1; sleep 0.2; done
  wid=$(xdotool search --sync --name "contact-lab" | head -1)
  xdotool windowfocus --sync "$wid"
  xdotool key r; sleep 2; xdotool key 3; sleep 2; xdotool key space
  for i in $(seq 1 900); do [ "$(paused)" -ge 2 ] && break; kill -0 $app || exit 1; sleep 0.2; done
  sleep 1
  xdotool key --clearmodifiers ctrl+q
  for i in $(seq 1 100); do kill -0 $app 2>/dev/null || break; sleep 0.1; done
  kill $app 2>/dev/null || true
' "$BIN" "$OUT/tour9-state.txt" "$T9" || { tail -20 "$T9"; fail "the tour step 9 session failed"; }
[ "$(sed 's/\x1b\[[0-9;]*m//g' "$T9" | grep -ac "Paused at t = 0.2 s")" -ge 2 ] || { tail -20 "$T9"; fail "step 9 did not play to its pause again"; }
grep -q "^algorithm right$" "$OUT/tour9-state.txt" || { cat "$OUT/tour9-state.txt"; fail "step 9: not under Right after R, 3, Space"; }
theta=$(sed -n 's/^angle box \(.*\)/\1/p' "$OUT/tour9-state.txt")
say "  under Right at t = 0.2 s, the cube at θ = $theta"
awk -v th="$theta" 'BEGIN { exit !(th < 1e-6 && th > -1e-6) }' || fail "step 9: the cube tipped (θ = $theta)"

# The manual's clip form (docs/manual.md, "Clips") on the default scene (the
# wedge, which opens at 0.02× with a pause at 0.02 s): a scripted clip plays it
# through and ends.
say "a clip of the default scene"
timeout 300 xvfb-run -a -s "-screen 0 ${W}x${H}x24" "$BIN" --size ${W}x${H} \
  --record "$OUT/wedge.gif" --duration 1 --fps 10 >"$OUT/wedge-clip.log" 2>&1 \
  || { tail -20 "$OUT/wedge-clip.log"; fail "the clip of the default scene did not end"; }
grep -q "Clip saved to" "$OUT/wedge-clip.log" || fail "the default scene's clip was not saved"
nframes=$(identify "$OUT/wedge.gif" | wc -l)
[ "$nframes" = 10 ] || fail "the default scene's clip has $nframes frames, expected 10"
say "  10 frames of the default scene"

say "OK (artifacts in $OUT)"
