#!/usr/bin/env bash
# Walks through docs/deployment.md, "In containers", as written: docker/compose.public.yaml with
# podman-compose (PostgreSQL, Redis, two instances, Caddy on port 80), then checks what the guide
# promises. Not part of CI (several minutes; port 80); run it after changing the compose file,
# the Caddyfile or the guide. Steps:
#  1. the stand-in base images (scripts/container-base.sh) and stand-ins for postgres:16, redis:7
#     and caddy:2 from Debian's packages (scripts/container/public/; no registry is reachable here)
#  2. the secrets as the guide creates them (kept if docker/secrets/ already holds them), then
#     `up -d --build` and /health through Caddy with the shared store and Redis ok
#  3. `keys add` on instance A; the key works through Caddy on both instances
#  4. a client naming a blocked address in its own X-Forwarded-For is not blocked; maintenance
#     switched on B applies through Caddy and off again
#  5. instance B stopped: at most one 502 through Caddy, then 200s
# Usage: scripts/container-public.sh (as root, like scripts/container-test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/container/env.sh

PROJECT=mowpublic
FILE=docker/compose.public.yaml
URL=http://127.0.0.1
started=$(date +%s)
step() { echo "container-public: [$(($(date +%s) - started)) s] $*"; }
fail() {
  echo "container-public: FAILED: $*" >&2
  exit 1
}
compose() { podman-compose -p "$PROJECT" -f "$FILE" "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
cleanup() { compose down -v >/dev/null 2>&1 || true; }
trap cleanup EXIT

calculate() {
  curl -s -o /dev/null -w '%{http_code}' --max-time 5 -X POST -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "$@" \
    -d '{"temperature": 18, "humidity": 60, "precipitation_rate": 0}' "$URL/v1/calculate" || true
}
# The status codes of n calculations through Caddy, space-separated.
calculations() {
  local n=$1 codes=()
  shift
  for _ in $(seq "$n"); do codes+=("$(calculate "$@")"); done
  echo "${codes[*]}"
}
all_are() { [ "$(calculations 4)" = "$1 $1 $1 $1" ]; }
cli() { podman exec "${PROJECT}_$1_1" node dist/cli/main.js "${@:2}"; }

# 1. Images
scripts/container-base.sh
for image in postgres:16 redis:7 caddy:2; do
  name="${image%%:*}"
  podman image exists "$image" || podman build --quiet --network host --format docker -t "$image" -f "scripts/container/public/$name.Containerfile" scripts/container/public >/dev/null
done
step "base images and the postgres, redis and caddy stand-ins ready"

# 2. Secrets and start, as docs/deployment.md writes them
if [ ! -f docker/secrets/store.url ]; then
  install -d -m 0700 docker/secrets
  echo 'walk-through-only' >docker/secrets/postgres_password
  echo 'postgres://mowability:walk-through-only@postgres:5432/mowability' >docker/secrets/store.url
  chmod 0644 docker/secrets/postgres_password docker/secrets/store.url
fi
compose up -d --build >/dev/null 2>&1 || { compose up -d; fail "podman-compose up"; }
store_ok() { curl -s --max-time 3 "$URL/health" | grep -q '"store":{"status":"ok"},"rate_limit_store":{"status":"ok"}'; }
wait_for 90 store_ok || { podman logs "${PROJECT}_mowability-a_1" 2>&1 | tail -5; fail "/health through Caddy with the store and Redis ok: $(curl -s "$URL/health")"; }
step "up: /health through Caddy, checks.store and checks.rate_limit_store ok"

# 3. A key added on A works through Caddy on both instances (round robin)
key="$(cli mowability-a keys add walkthrough --json | node -e "let s='';process.stdin.on('data',(c)=>s+=c).on('end',()=>console.log(JSON.parse(s).key))")"
wait_for 10 all_are 200 || fail "the new key through Caddy: $(calculations 4)"
# Each instance on its own (inside its container: they publish no port).
for instance in mowability-a mowability-b; do
  status="$(podman exec "${PROJECT}_${instance}_1" node -e "fetch('http://127.0.0.1:8080/v1/calculate', { method: 'POST', headers: { authorization: 'Bearer $key', 'content-type': 'application/json' }, body: '{\"temperature\": 18, \"precipitation_rate\": 0}' }).then((r) => console.log(r.status))")"
  [ "$status" = 200 ] || fail "$instance answers $status to the new key"
done
step "keys add on A: 200 through Caddy, and on each instance"

# 4. Client addresses and maintenance
cli mowability-b ip block 203.0.113.7 >/dev/null
sleep 2
[ "$(calculations 4 -H 'X-Forwarded-For: 203.0.113.7')" = "200 200 200 200" ] || fail "a client named a blocked address in X-Forwarded-For and was believed"
cli mowability-b ip unblock 203.0.113.7 >/dev/null
cli mowability-b maintenance on >/dev/null
wait_for 10 all_are 503 || fail "maintenance on B, through Caddy: $(calculations 4)"
cli mowability-a maintenance off >/dev/null
wait_for 10 all_are 200 || fail "maintenance off: $(calculations 4)"
step "X-Forwarded-For from the client not believed; maintenance on and off on both"

# 5. One instance stopped
podman stop -t 5 "${PROJECT}_mowability-b_1" >/dev/null 2>&1
codes="$(calculations 8)"
[[ "$codes" =~ ^(502\ )?(200\ ?)+$ ]] || fail "B stopped, through Caddy: $codes (at most one 502, then 200s)"
step "B stopped: $codes"
echo "container-public: passed in $(($(date +%s) - started)) s"
