# Sourced by the container scripts: podman with this repository's settings (containers.conf
# beside this file) instead of the host's global ones. Needs root (CI runs as root).
export CONTAINERS_CONF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf"
# HEALTHCHECK and the other Docker-only instructions are dropped from OCI images.
export BUILDAH_FORMAT=docker
command -v podman >/dev/null || { echo "container: podman is not installed (apt-get install podman)" >&2; exit 1; }

# Polls a command until it succeeds, up to $1 seconds (containers start and turn healthy in their own time).
wait_for() {
  local seconds=$1
  shift
  local deadline=$(($(date +%s) + seconds))
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 1
  done
}
