#!/usr/bin/env bash
# Installs a released ontosite binary for this machine, with no compile:
# downloads the release's archive for this system and processor and its
# SHA-256 (as the release workflow names them), checks it, and puts
# `ontosite` on the PATH. The GitHub Action runs it, and so can any CI
# (Netlify's build, a Cloudflare Pages build):
#
#   VERSION=v0.2.0 REPOSITORY=OWNER/ontosite scripts/install-release.sh
#
# VERSION: a release's tag, or `latest`. REPOSITORY: the GitHub repository
# whose releases hold the binaries (RELEASES_URL, its `releases` URL, in
# place of GitHub's). Installs into INSTALL_DIR (default: the runner's
# tool cache, else ~/.local/share/ontosite/VERSION), adds it to the PATH
# of the steps after where GITHUB_PATH is set, and prints the binary's
# path. Needs curl, tar and sha256sum (or shasum); on Windows, 7z or
# unzip.
set -euo pipefail
: "${VERSION:?set VERSION to a release tag (v0.2.0) or latest}"
if [ -z "${RELEASES_URL:-}" ]; then
  : "${REPOSITORY:?set REPOSITORY to the repository that publishes the releases (OWNER/ontosite)}"
  RELEASES_URL="https://github.com/$REPOSITORY/releases"
fi
os="${RUNNER_OS:-$(uname -s)}"
arch="${RUNNER_ARCH:-$(uname -m)}"
case "$os/$arch" in
  Linux/X64 | Linux/x86_64) target=x86_64-unknown-linux-musl archive=tar.gz ;;
  Linux/ARM64 | Linux/aarch64) target=aarch64-unknown-linux-musl archive=tar.gz ;;
  macOS/X64 | Darwin/x86_64) target=x86_64-apple-darwin archive=tar.gz ;;
  macOS/ARM64 | Darwin/arm64) target=aarch64-apple-darwin archive=tar.gz ;;
  Windows/X64 | MINGW*/x86_64 | MSYS*/x86_64) target=x86_64-pc-windows-msvc archive=zip ;;
  *)
    echo "install-release.sh: no release binary for $os on $arch; build from source with Rust: cargo install --locked --path ." >&2
    exit 1
    ;;
esac
name="ontosite-$target"
file="$name.$archive"
case "$VERSION" in
  latest) from="$RELEASES_URL/latest/download" ;;
  *) from="$RELEASES_URL/download/$VERSION" ;;
esac
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for download in "$file" "$file.sha256"; do
  if ! curl --fail --silent --show-error --location --retry 3 \
    --output "$work/$download" "$from/$download"; then
    echo "install-release.sh: could not download $from/$download: is $VERSION a release with a binary for $target?" >&2
    exit 1
  fi
done
(
  cd "$work"
  if command -v sha256sum >/dev/null; then
    sha256sum -c "$file.sha256"
  else
    shasum -a 256 -c "$file.sha256"
  fi
) >/dev/null 2>&1 || {
  echo "install-release.sh: $file does not match its SHA-256: not installed" >&2
  exit 1
}
case "$archive" in
  zip)
    if command -v 7z >/dev/null; then
      (cd "$work" && 7z x -bd "$file" >/dev/null)
    else
      (cd "$work" && unzip -q "$file")
    fi
    ;;
  *) tar xzf "$work/$file" -C "$work" ;;
esac
dir="${INSTALL_DIR:-${RUNNER_TOOL_CACHE:-$HOME/.local/share}/ontosite/$VERSION}"
mkdir -p "$dir"
cp "$work/$name"/ontosite* "$dir/"
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dir" >>"$GITHUB_PATH"
fi
echo "$dir/ontosite"
