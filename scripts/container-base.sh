#!/usr/bin/env bash
# Builds, with podman, the base images the container files name, from Debian's and the npm
# registry's packages, for machines that reach no container registry (this project's CI):
#   debian:bookworm-slim   a `debootstrap --variant=minbase` bookworm rootfs
#   node:<major>-bookworm-slim   the same plus Node.js (node-linux-<arch> from the npm registry, with
#                          its headers in /usr/local/include/node as in the official image), npm and
#                          the user "node" (uid 1000); <major> is the one the Dockerfile's BUILD_FROM names
#   eclipse-mosquitto:2    Debian's mosquitto package (scripts/container/mosquitto.Containerfile),
#                          for docker/compose.yaml
# The stand-ins also get this machine's CA bundle and apt settings: TLS to the registries goes
# through a local CA here, and the Debian mirror's release files may be older than its Valid-Until.
# An image that already exists is kept; --rebuild makes them anew.
# Usage: scripts/container-base.sh [--rebuild]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/container/env.sh

# What it needs, each missing one named with the package that brings it.
[ "$(id -u)" = 0 ] || { echo "container-base: run as root (debootstrap and chroot need it): sudo $0 $*" >&2; exit 1; }
for tool in debootstrap runc npm; do
  command -v "$tool" >/dev/null || missing="${missing:-} $tool"
done
[ -z "${missing:-}" ] || { echo "container-base: missing:$missing (apt-get install -y podman runc netavark aardvark-dns iptables debootstrap; npm comes with Node.js)" >&2; exit 1; }

rebuild=false
[ "${1:-}" = --rebuild ] && rebuild=true

node_image="$(sed -n 's/^ARG BUILD_FROM=\(node:[^ ]*\).*/\1/p' Dockerfile | head -1)"
node_major="$(echo "$node_image" | sed -n 's/^node:\([0-9]*\)-.*/\1/p')"
[ -n "$node_major" ] || { echo "container-base: no node:<major>-… base in the Dockerfile's ARG BUILD_FROM" >&2; exit 1; }

wanted() { $rebuild || ! podman image exists "$1"; }

# The mirror apt uses on this machine (deb822 sources or a sources.list line).
debian_mirror() {
  local uri
  uri="$(grep -h -m1 '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | head -1)"
  [ -n "$uri" ] || uri="$(grep -h -m1 '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | head -1)"
  echo "${uri:-http://deb.debian.org/debian}"
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

if wanted debian:bookworm-slim || wanted "$node_image"; then
  echo "container-base: debootstrap bookworm from $(debian_mirror)"
  debootstrap --variant=minbase bookworm "$rootfs" "$(debian_mirror)" >"$work/debootstrap.log" 2>&1 || {
    tail -20 "$work/debootstrap.log" >&2
    exit 1
  }
  # The host's sources (same mirror, with updates and security) and its apt date checks.
  rm -f "$rootfs/etc/apt/sources.list"
  cp /etc/apt/sources.list.d/*.sources "$rootfs/etc/apt/sources.list.d/" 2>/dev/null || cp /etc/apt/sources.list "$rootfs/etc/apt/"
  apt-config dump Acquire::Check-Valid-Until Acquire::Check-Date | grep -i '"false"' >"$rootfs/etc/apt/apt.conf.d/99stand-in" || true
  mkdir -p "$rootfs/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/"
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/*.log
  if wanted debian:bookworm-slim; then
    tar -C "$rootfs" -c . | podman import --change 'CMD ["bash"]' - debian:bookworm-slim >/dev/null
    echo "container-base: debian:bookworm-slim imported"
  fi
fi

if wanted "$node_image"; then
  scripts/fetch-node.sh "$node_major"
  node_package="${MOWABILITY_NODE_CACHE:-$HOME/.cache/mowability-node}/node-$node_major/package"
  install -m 0755 "$node_package/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules"
  cp -a "$node_package/include/node" "$rootfs/usr/local/include/"
  # npm 10, as bundled with Node.js 20 to 22 (npm pack takes the newest of the range).
  (cd "$work" && npm pack --silent npm@10 >npm.name)
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$work/$(cat "$work/npm.name")" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  tar -C "$rootfs" -c . | podman import \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' - "$node_image" >/dev/null
  echo "container-base: $node_image imported ($(podman run --rm "$node_image" node --version), npm $(podman run --rm "$node_image" npm --version))"
fi

if wanted eclipse-mosquitto:2; then
  podman build --quiet --network host --format docker -t eclipse-mosquitto:2 -f scripts/container/mosquitto.Containerfile scripts/container >/dev/null
  echo "container-base: eclipse-mosquitto:2 built from Debian's mosquitto"
fi
