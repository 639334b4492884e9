# Sourced by the container scripts: podman with this repository's settings (containers.conf
# beside this file) instead of the host's global ones. Needs root (CI runs as root).
export CONTAINERS_CONF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf"
# HEALTHCHECK and the other Docker-only instructions are dropped from OCI images.
export BUILDAH_FORMAT=docker
command -v podman >/dev/null || { echo "container: podman is not installed (apt-get install -y podman runc netavark aardvark-dns)" >&2; exit 1; }
# containers.conf names runc (crun fails on cgroup v1/v2 hybrid hosts: "cgroups in hybrid mode not supported").
# netavark publishes ports (-p, compose's ports:) with iptables; without it: "netavark: No such file or directory".
command -v iptables >/dev/null || { echo "container: iptables is not installed (apt-get install -y iptables); podman's netavark needs it to publish ports" >&2; exit 1; }
command -v runc >/dev/null || { echo "container: runc is not installed (apt-get install -y runc); scripts/container/containers.conf uses it" >&2; exit 1; }

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
