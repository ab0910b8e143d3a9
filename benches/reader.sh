#!/usr/bin/env bash
# The search reader's weight, as a browser or a host downloads it (issue
# 62): the reader compiled to WebAssembly (`wasm/`) and its glue, beside
# today's JavaScript client (`assets/search.js`) and the shipped site's
# search manifest, each as it is and compressed (gzip -9, the lowest a
# static host sends).
#
#   benches/reader.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --locked --quiet -p ontosite-wasm --target wasm32-unknown-unknown --profile wasm
cargo build --locked --quiet
site="$(mktemp -d)"
trap 'rm -rf "$site"' EXIT
target/debug/ontosite build --input input --out "$site/dist" >/dev/null 2>&1
printf '| file | bytes | gzip -9 |\n|---|---:|---:|\n'
for file in target/wasm32-unknown-unknown/wasm/ontosite_wasm.wasm assets/search-wasm.js \
  assets/search.js "$site/dist/search-index.json"; do
  name="${file#"$site/dist/"}"
  printf '| %s | %s | %s |\n' "$name" "$(stat -c %s "$file")" "$(gzip -9c "$file" | wc -c)"
done
