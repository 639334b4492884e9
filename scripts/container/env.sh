# Sourced by the container scripts: podman with this repository's settings (containers.conf
# beside this file) instead of the host's global ones. Needs root (CI runs as root).
export CONTAINERS_CONF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf"
# HEALTHCHECK and the other Docker-only instructions are dropped from OCI images.
export BUILDAH_FORMAT=docker
command -v podman >/dev/null || { echo "container: podman is not installed (apt-get install podman)" >&2; exit 1; }
