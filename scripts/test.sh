#!/usr/bin/env bash
# The project's test command: installs what the tests need, then runs them.
# Works on a fresh machine with Rust and Node.js 20+ (see the README).
set -euo pipefail
cd "$(dirname "$0")/.."

# Netlify's own parsers and matcher, which the host-file tests run.
if ! command -v node >/dev/null; then
  echo "scripts/test.sh: Node.js 20 or newer is needed for the Netlify checks" >&2
  exit 1
fi
npm ci --prefix tests/netlify --no-audit --no-fund --loglevel=error

cargo test --locked "$@"
