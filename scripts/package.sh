#!/usr/bin/env bash
# Packs a built ontosite binary as a release archive, with its checksum:
#
#   scripts/package.sh BINARY TARGET OUT
#
# writes OUT/ontosite-TARGET.tar.gz (a .zip for a Windows target) holding
# a folder of that name with the binary and the README, and
# OUT/ontosite-TARGET.tar.gz.sha256 beside it, as `sha256sum -c` reads
# it. No version in the name, so that a release's `latest/download/` URL
# names the same file every time (`ontosite --version` says which). The
# release workflow runs it for each target; the tests, for the binary
# they test.
set -euo pipefail
if [ "$#" -ne 3 ]; then
  echo "usage: scripts/package.sh BINARY TARGET OUT" >&2
  exit 2
fi
binary=$1 target=$2 out=$3
root="$(cd "$(dirname "$0")/.." && pwd)"
name="ontosite-$target"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/$name"
case "$target" in
  *windows*) exe=ontosite.exe archive="$name.zip" ;;
  *) exe=ontosite archive="$name.tar.gz" ;;
esac
cp "$binary" "$work/$name/$exe"
chmod +x "$work/$name/$exe"
cp "$root/README.md" "$work/$name/"
(
  cd "$work"
  case "$archive" in
    *.zip) 7z a -tzip -bd "$out/$archive" "$name" >/dev/null ;;
    *) tar czf "$out/$archive" "$name" ;;
  esac
)
(
  cd "$out"
  if command -v sha256sum >/dev/null; then
    sha256sum "$archive" >"$archive.sha256"
  else
    shasum -a 256 "$archive" >"$archive.sha256"
  fi
)
echo "$out/$archive"
