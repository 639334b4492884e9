#!/bin/sh
# As the official redis image's entrypoint: `redis-server [options]` without a configuration file
# listens on every address of the container, without protected mode.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  case "${1:-}" in *.conf) exec redis-server "$@" ;; esac
  exec redis-server --bind '* -::*' --protected-mode no "$@"
fi
exec "$@"
