#!/usr/bin/env bash
# What a new user pays before the first site, and what every change pays
# in tests, as issue 61 counts them: the crates in Cargo.lock, a cold
# `cargo build --release` (a fresh target directory; the registry's
# sources already downloaded), the binary's size, and the quick tier of
# `cargo test` once built, in a clone with none of the outside tools. Run it alone on the machine.
#
#   benches/install.sh            # all four
#   benches/install.sh lock size  # some
set -euo pipefail
cd "$(dirname "$0")/.."
what="${*:-lock cold size quick}"
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
for step in $what; do
  case "$step" in
    lock)
      echo "crates in Cargo.lock: $(grep -c '^name = ' Cargo.lock)"
      ;;
    cold)
      cargo fetch --locked --quiet
      sync && sleep 5
      start=$(date +%s.%N)
      cargo build --release --locked --quiet --target-dir "$fresh"
      end=$(date +%s.%N)
      echo "cold cargo build --release: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s"
      ;;
    size)
      binary="$fresh/release/ontosite"
      [ -x "$binary" ] || cargo build --release --locked --quiet --target-dir "$fresh"
      bytes=$(stat -c %s "$binary")
      echo "binary: $bytes bytes ($(awk "BEGIN { printf \"%.1f\", $bytes / 1048576 }") MiB)"
      ;;
    quick)
      # As on a machine with Rust alone: a clone of HEAD without this
      # checkout's Node packages and WebAssembly build, its tests compiled
      # into this checkout's target directory.
      git clone --quiet . "$fresh/quick"
      target="$PWD/target"
      (
        cd "$fresh/quick"
        CARGO_TARGET_DIR="$target" cargo test --locked --no-run --quiet 2>/dev/null
        sync && sleep 3
        start=$(date +%s.%N)
        CARGO_TARGET_DIR="$target" cargo test --locked --quiet >/dev/null 2>&1
        end=$(date +%s.%N)
        echo "cargo test, built, Rust alone: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s"
      )
      ;;
    *)
      echo "benches/install.sh: no step $step (lock, cold, size, quick)" >&2
      exit 2
      ;;
  esac
done
