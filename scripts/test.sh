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
# jsonld.js, the JSON-LD processor the linked-data tests run offline.
npm ci --prefix tests/jsonld --no-audit --no-fund --loglevel=error
# A real OpenAPI 3.1 validator for openapi.json.
npm ci --prefix tests/openapi --no-audit --no-fund --loglevel=error

# A real browser for the CORS check: Debian's Chromium, driven by
# playwright-core (which never downloads a browser of its own).
if [ -z "${CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "scripts/test.sh: installing Debian's chromium for the browser tests" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "scripts/test.sh: the browser tests need Chromium: install Debian's chromium package (as root: apt-get install chromium) or set CHROMIUM to a Chromium binary" >&2
    exit 1
  fi
fi
npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
# Python tools from PyPI: each folder's requirements.txt into a virtual
# environment of its own, DIR/.venv.
python_tools() {
  if [ ! -x "$1/.venv/bin/python" ]; then
    python3 -m venv "$1/.venv"
  fi
  "$1/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$1/requirements.txt"
}
# A real RDF library for the linked-data tests: pyoxigraph.
python_tools tests/rdf
# Schemathesis, the API tester, against openapi.json and `serve`.
python_tools tests/openapi
# The hosts' real runtimes: Cloudflare's workerd (through wrangler pages
# dev, fully local) and Deno, which runs Netlify Edge Functions. Both
# packages ship their binaries. `npm install --no-save`, not `npm ci`:
# the lock file can only record the binary packages of the platforms the
# registry served when it was made (deno's others are optional), and
# `npm ci` refuses a lock file without them. The lock file is still
# followed, and never rewritten.
npm install --prefix tests/runtimes --no-save --no-audit --no-fund --loglevel=error
# A real S3-compatible server for `ontosite publish`: Garage, from
# crates.io. Building it takes minutes, so it is built once into a cache
# outside the checkout (ONTOSITE_TOOLS, else ~/.cache/ontosite-tools) and
# linked where the tests look for it.
GARAGE_VERSION=2.5.0
GARAGE_ROOT="${ONTOSITE_TOOLS:-$HOME/.cache/ontosite-tools}/garage-$GARAGE_VERSION"
if [ ! -x "$GARAGE_ROOT/bin/garage" ]; then
  echo "scripts/test.sh: building Garage $GARAGE_VERSION for the publish tests (once; minutes)" >&2
  cargo install garage --version "$GARAGE_VERSION" --locked --quiet \
    --no-default-features --features bundled-libs,sqlite --root "$GARAGE_ROOT"
fi
mkdir -p tests/s3/bin
ln -sfn "$GARAGE_ROOT/bin/garage" tests/s3/bin/garage

# actionlint, for the workflows in .github/workflows.
python_tools tests/actionlint
# hadolint, for the container's Dockerfile.
python_tools tests/container
# The wheel `pip install` takes (pyproject.toml), built by maturin; the
# tests install it into a fresh virtual environment. The dev profile, as
# the tests' binary, stripped.
python_tools tests/wheel
rm -rf target/wheels/test
tests/wheel/.venv/bin/maturin build --quiet --locked --profile dev --strip --out target/wheels/test

# The search reader compiled to WebAssembly (`wasm/`), which the tests
# drive under Node as the browser and the hosts' handlers do.
if command -v rustup >/dev/null; then
  rustup target add wasm32-unknown-unknown >/dev/null 2>&1 ||
    rustup target add wasm32-unknown-unknown
fi
cargo build --quiet --locked -p ontosite-wasm --target wasm32-unknown-unknown --profile wasm

# The full tier: every test runs, and a missing tool fails instead of skipping.
ONTOSITE_TEST_TIER=full cargo test --locked "$@"
