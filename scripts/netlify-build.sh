#!/usr/bin/env bash
# Netlify's build command (netlify.toml): installs a released ontosite
# (scripts/install-release.sh, seconds) rather than compiling it on every
# deploy, then builds the site for Netlify into dist/.
#
# ONTOSITE_VERSION: a release's tag, or `latest` (the default).
# ONTOSITE_REPOSITORY: the GitHub repository whose releases hold the
# binaries (OWNER/ontosite); by default the one Netlify builds, from
# REPOSITORY_URL. Where no release can be installed (a fork that has
# made none), ontosite is compiled instead, and that is said.
set -euo pipefail
repository="${ONTOSITE_REPOSITORY:-}"
if [ -z "$repository" ] && [[ "${REPOSITORY_URL:-}" =~ github\.com[/:]([^/]+/[^/]+)$ ]]; then
  repository="${BASH_REMATCH[1]%.git}"
fi
if binary=$(VERSION="${ONTOSITE_VERSION:-latest}" REPOSITORY="$repository" "$(dirname "$0")/install-release.sh"); then
  exec "$binary" build --host netlify "$@"
fi
echo "netlify-build.sh: no release of ontosite could be installed from ${repository:-this repository}; compiling it instead (minutes)" >&2
exec cargo run --release --locked -- build --host netlify "$@"
