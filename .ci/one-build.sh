#!/usr/bin/env bash
# After `cargo test --workspace`, the app's build (`scripts/lab`, `cargo run`)
# must compile at most our own crates: no second build of Bevy because
# dev-dependencies switched features of crates Bevy shares (see the feature pins
# in Cargo.toml). Fails with the list of crates rebuilt otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
cargo build --bin contact-lab 2>&1 | tee "$log"
others=$(grep -E '^\s+Compiling ' "$log" | grep -vE 'Compiling (contact-lab|contact-core) ' || true)
rm -f "$log"
if [ -n "$others" ]; then
  echo "one-build: FAIL: the app's build after the tests recompiled crates besides ours:" >&2
  echo "$others" >&2
  exit 1
fi
echo "one-build: ok, the app's build after the tests compiled only contact-lab/contact-core"
