#!/usr/bin/env bash
# Puts the Node.js binaries of the compatibility tests (test/compat/) into a cache outside the
# repository: the npm registry's node-linux-<arch> packages, one per major, with their C headers
# (include/node: the container stand-in base, scripts/container-base.sh, builds sqlite3 against
# them). Re-running is cheap: a major already in the cache is skipped.
# Usage: scripts/fetch-node.sh [MAJOR...] (default 22 24).
set -euo pipefail

cache="${MOWABILITY_NODE_CACHE:-$HOME/.cache/mowability-node}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  armv7l) arch=armv7l ;;
  *) echo "fetch-node: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)

mkdir -p "$cache"
for major in "${majors[@]}"; do
  target="$cache/node-$major"
  if [ -x "$target/package/bin/node" ] && [ -d "$target/package/include/node" ]; then
    echo "fetch-node: $("$target/package/bin/node" --version) already in $target"
    continue
  fi
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  tarball="$(cd "$work" && npm pack --silent "node-linux-$arch@$major")"
  mkdir -p "$work/unpacked"
  tar -xzf "$work/$tarball" -C "$work/unpacked" package/bin/node package/include
  rm -rf "$target"
  mv "$work/unpacked" "$target"
  rm -rf "$work"
  trap - EXIT
  echo "fetch-node: $("$target/package/bin/node" --version) in $target"
done
