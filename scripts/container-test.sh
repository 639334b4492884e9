#!/usr/bin/env bash
# Builds the image from the Dockerfile with podman and runs it the way a user would
# (npm run test:container; .ci/run runs it as root on a clean machine). Steps:
#  1. the stand-in base images (scripts/container-base.sh: no container registry is reachable here)
#  2. the image (Docker format, or HEALTHCHECK is dropped); the size of its layers above the
#     Node.js base (at most MAX_LAYERS_MB) and no build toolchain, headers or sqlite3 build leftovers
#  3. one container as the README runs it (ports published on loopback, the image's defaults, a
#     broker account; without one it refuses to start, naming MOWABILITY_BROKER_USERS): /health 200, HEALTHCHECK healthy, `keys add` inside, the new key accepted by
#     /v1/calculate, an anonymous MQTT client refused, a reading published from the host with the
#     account on the published 1883 and the station's state back
#  4. docker/compose.yaml with podman-compose and the Mosquitto stand-in: healthy once connected
#     to Mosquitto, `keys add` through compose, MQTT through the published loopback port, then
#     unhealthy while Mosquitto is stopped (where /health still answers 200) and healthy again
#  5. the Home Assistant add-on built from scripts/addon-folder.sh's folder and run against a fake Supervisor
# Prints each step's time and the total wall time. Usage: scripts/container-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/container/env.sh

MAX_LAYERS_MB=100
IMAGE=localhost/mowability:test
PROJECT=mowtest
started=$(date +%s)
step_started=$started
step() {
  local now
  now=$(date +%s)
  echo "container-test: [$((now - step_started)) s] $*"
  step_started=$now
}
fail() {
  echo "container-test: FAILED: $*" >&2
  exit 1
}

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
compose() { MOWABILITY_HTTP_PUBLISH="127.0.0.1:$http_port" MOSQUITTO_PUBLISH="127.0.0.1:$mqtt_port" podman-compose -p "$PROJECT" -f docker/compose.yaml "$@"; }
cleanup() {
  podman rm -f -t 2 mowtest-single >/dev/null 2>&1 || true
  [ -z "${single_dir:-}" ] || rm -rf "$single_dir"
  [ -z "${http_port:-}" ] || compose down -v >/dev/null 2>&1 || true
}
trap cleanup EXIT

# GET a URL; prints the HTTP status (000: no answer).
http_status() { curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$@" || true; }
health_is() { [ "$(http_status "http://127.0.0.1:$1/health")" = "$2" ]; }
# Runs the image's HEALTHCHECK now (podman schedules it with systemd timers, absent here) and
# compares the container's health with $2: healthy, or unhealthy after the image's --retries
# failures in a row.
healthcheck_is() {
  podman healthcheck run "$1" >/dev/null 2>&1 || true
  [ "$(podman inspect "$1" --format '{{.State.Health.Status}}')" = "$2" ]
}
# Podman logs an error for every container with a HEALTHCHECK when systemd does not run.
podman_quiet() { podman "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }

# 1. Base images
scripts/container-base.sh
step "base images ready"

# 2. The image
podman build --quiet --network host --format docker -t "$IMAGE" . >/dev/null
base_image="$(sed -n 's/^ARG BUILD_FROM=\(node:[^ ]*\).*/\1/p' Dockerfile | tail -1)"
image_bytes=$(podman image inspect "$IMAGE" --format '{{.Size}}')
base_bytes=$(podman image inspect "$base_image" --format '{{.Size}}')
layers_mb=$(((image_bytes - base_bytes) / 1000000))
step "image built: $((image_bytes / 1000000)) MB, of which ${layers_mb} MB above $base_image"
[ "$layers_mb" -le "$MAX_LAYERS_MB" ] || fail "the layers above $base_image are $layers_mb MB (at most $MAX_LAYERS_MB)"
healthcheck="$(podman image inspect "$IMAGE" --format '{{json .Config.Healthcheck}}')"
[[ "$healthcheck" == *'"dist/cli/main.js","health"'* ]] || fail "the image has no HEALTHCHECK running mowability health: $healthcheck"
leftovers="$(podman run --rm --network none --no-healthcheck --entrypoint sh "$IMAGE" -c \
  'for tool in gcc g++ cc make python3; do command -v $tool; done; ls -d node_modules/sqlite3/deps node_modules/sqlite3/src node_modules/sqlite3/build/Release/obj.target 2>/dev/null; ls node_modules/typescript node_modules/vitest 2>/dev/null | head -1; true')"
[ -z "$leftovers" ] || fail "the runtime image holds build leftovers: $leftovers"

# 3. One container as README's "Container" section runs it: ports published on loopback (HTTP on a
#    port other than 8080), the image's defaults (the embedded broker on 0.0.0.0 inside the
#    container) with a broker account from an env file and a station from a mounted config file.
http_port=$(free_port)
mqtt_port=$(free_port)
single_dir="$(mktemp -d)"
chmod 755 "$single_dir"
broker_password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
printf 'MOWABILITY_TIMEZONE=Europe/Berlin\nMOWABILITY_BROKER_USERS=[{"username":"rtl433","password":"%s"}]\n' "$broker_password" >"$single_dir/mowability.env"
cat >"$single_dir/mowability.json" <<'JSON'
{ "stations": [{ "id": "garden", "name": "Garden", "format": "json", "topic": "garden/weather",
  "fields": { "temperature": "t", "humidity": "h", "precipitation_rate": "r" } }] }
JSON
chmod 644 "$single_dir/mowability.json"
# Without an account the image's broker on 0.0.0.0 does not start anonymous: the daemon exits naming the setting.
refused="$(timeout 60 podman run --rm --no-healthcheck --network none -e MOWABILITY_TIMEZONE=Europe/Berlin "$IMAGE" 2>&1 || true)"
[[ "$refused" == *'MOWABILITY_BROKER_USERS'* ]] || fail "without a broker account the image should refuse to start, naming MOWABILITY_BROKER_USERS: $(tail -3 <<<"$refused")"
podman_quiet run -d --name mowtest-single -p "127.0.0.1:$http_port:8080" -p "127.0.0.1:$mqtt_port:1883" \
  --env-file "$single_dir/mowability.env" -v "$single_dir/mowability.json:/config/mowability.json:ro" \
  -e MOWABILITY_CONFIG=/config/mowability.json "$IMAGE" >/dev/null
wait_for 30 health_is "$http_port" 200 || { podman logs mowtest-single | tail -20; fail "/health on port $http_port did not answer 200"; }
wait_for 20 healthcheck_is mowtest-single healthy || fail "HEALTHCHECK on port $http_port: $(podman healthcheck run mowtest-single 2>&1; podman exec mowtest-single node dist/cli/main.js health 2>&1)"
# The image's own marker (ENV MOWABILITY_CONTAINER_IMAGE) makes the first start's key hint a docker exec.
started_log="$(podman logs mowtest-single 2>&1)"
[[ "$started_log" == *'Create one with: docker exec <container> node dist/cli/main.js keys add <owner>'* ]] \
  || fail "the first start's key hint is not the docker exec command: $(grep 'No API key' <<<"$started_log" | tail -1)"
key="$(podman exec mowtest-single node dist/cli/main.js keys add alice --json | node -e "let s='';process.stdin.on('data',(c)=>s+=c).on('end',()=>console.log(JSON.parse(s).key))")"
[ -n "$key" ] || fail "keys add printed no key"
# The daemon sees a key added by another process within db.changePollIntervalMs.
calculate_is() { [ "$(http_status -X POST -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d '{"temperature": 18, "humidity": 60, "precipitation_rate": 0}' "http://127.0.0.1:$http_port/v1/calculate")" = "$1" ]; }
wait_for 20 calculate_is 200 || fail "POST /v1/calculate with the new key did not answer 200"
# A station on the host (rtl_433, WeeWX) publishes to the published 1883 with the account; its state comes back.
node scripts/container/mqtt-roundtrip.mjs "mqtt://127.0.0.1:$mqtt_port" --refused || fail "the published broker port let an anonymous client in"
node scripts/container/mqtt-roundtrip.mjs "mqtt://rtl433:$broker_password@127.0.0.1:$mqtt_port" \
  --publish garden/weather '{"t": 17.25, "h": 61, "r": 0}' --expect mowability/garden/state '17.25' \
  || { podman logs mowtest-single | tail -20; fail "a reading published to 127.0.0.1:$mqtt_port with the broker account did not come back as the station's state"; }
podman_quiet rm -f -t 5 mowtest-single >/dev/null
rm -rf "$single_dir"
step "single container: /health 200 and healthy on port $http_port, keys add, the key accepted, a reading through the published broker port $mqtt_port with an account"

# 4. docker/compose.yaml with Mosquitto
http_port=$(free_port)
mqtt_port=$(free_port)
podman tag "$IMAGE" "localhost/${PROJECT}_mowability"
compose up -d >/dev/null 2>&1 || { compose up -d; fail "podman-compose up"; }
app="${PROJECT}_mowability_1"
broker="${PROJECT}_mosquitto_1"
wait_for 30 health_is "$http_port" 200 || { podman logs "$app" | tail -20; fail "/health through the published port $http_port"; }
wait_for 30 healthcheck_is "$app" healthy || fail "compose: not healthy with Mosquitto up: $(podman exec "$app" node dist/cli/main.js health 2>&1)"
# podman-compose 1.0 does not pass on the command's exit code: the printed key is the proof.
added="$(compose exec -T mowability node dist/cli/main.js keys add bob --json 2>&1)"
[[ "$added" == *'"key": "mow_'* ]] || fail "keys add through podman-compose exec: $added"
node scripts/container/mqtt-roundtrip.mjs "mqtt://127.0.0.1:$mqtt_port" || fail "MQTT through the published port $mqtt_port"
for container in "$app" "$broker"; do
  binding="$(podman port "$container")"
  [[ "$binding" =~ ^[0-9]+/tcp\ -\>\ 127\.0\.0\.1:[0-9]+$ ]] || fail "$container is not published on loopback alone: $binding"
done
step "compose: healthy with Mosquitto, keys add, MQTT on 127.0.0.1:$mqtt_port, HTTP on 127.0.0.1:$http_port"
podman stop -t 2 "$broker" >/dev/null
wait_for 30 healthcheck_is "$app" unhealthy || fail "compose: still healthy with Mosquitto stopped"
health_is "$http_port" 200 || fail "/health should still answer 200 (it answers for the HTTP API)"
podman_quiet start "$broker" >/dev/null
wait_for 60 healthcheck_is "$app" healthy || fail "compose: not healthy again after Mosquitto came back"
step "compose: unhealthy while Mosquitto was stopped (/health 200), healthy again after"
compose down -v >/dev/null 2>&1

# 5. The Home Assistant add-on: the folder scripts/addon-folder.sh writes, built as the Supervisor builds a
#    local add-on (that folder as the context, build.yaml's base for amd64 and its args; the layers below the
#    add-on stage come from the cache of step 2), then run against a fake Supervisor, Mosquitto and a fake
#    Open-Meteo on loopback, the page through an ingress prefix in Chromium (test/container/addonImage.container.ts).
addon_dir="$(mktemp -d)"
scripts/addon-folder.sh "$addon_dir" >/dev/null
addon_from="$(sed -n 's/^  amd64: *//p' homeassistant-addon/mowability/build.yaml)"
# The stand-in base under the name build.yaml gives (no registry is reachable here).
podman tag "$base_image" "$addon_from"
addon_args=()
while read -r arg; do addon_args+=(--build-arg "$arg"); done < <(sed -n 's/^  \([A-Z_]*\): *\(.*\)$/\1=\2/p' homeassistant-addon/mowability/build.yaml)
addon_version="$(sed -n 's/^version: *"\(.*\)"$/\1/p' homeassistant-addon/mowability/config.yaml)"
podman build --quiet --network host --format docker --build-arg "BUILD_FROM=$addon_from" --build-arg BUILD_ARCH=amd64 \
  --build-arg "BUILD_VERSION=$addon_version" "${addon_args[@]}" -t localhost/mowability-addon:test "$addon_dir/mowability" >/dev/null
rm -rf "$addon_dir"
[ "$(podman image inspect localhost/mowability-addon:test --format '{{index .Config.Labels "io.hass.type"}}')" = addon ] || fail "the add-on image has no io.hass.type=addon label"
ADDON_IMAGE=localhost/mowability-addon:test npx vitest run --config test/container/vitest.config.ts || fail "the add-on image against the fake Supervisor"
step "add-on: built from the add-on folder, started against a fake Supervisor, discovery, a modelled station at home, the page through ingress"
echo "container-test: passed in $(($(date +%s) - started)) s (image $((image_bytes / 1000000)) MB, ${layers_mb} MB above $base_image)"
