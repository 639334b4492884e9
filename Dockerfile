# mowability in a container: build with the dev dependencies and the C toolchain, run with the
# production dependencies only, as the unprivileged "node" user. Built and run by
# scripts/container-test.sh (npm run test:container, part of CI) with podman; see
# README.md, "Container".
# Build with the Docker image format (docker build does; podman/buildah need --format docker or
# BUILDAH_FORMAT=docker), or HEALTHCHECK is dropped.
# The same recipe builds the Home Assistant add-on (homeassistant-addon/, scripts/addon-folder.sh):
# Home Assistant passes BUILD_FROM (build.yaml: the Node.js image for the device's architecture)
# and build.yaml's IMAGE_KIND=addon, which selects the last stage below.
ARG BUILD_FROM=node:22-bookworm-slim
ARG IMAGE_KIND
FROM ${BUILD_FROM} AS build
WORKDIR /app
# sqlite3 compiles its addon where no prebuilt one fits; node-gyp takes the headers the Node.js
# image ships in /usr/local/include/node instead of downloading them.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
# The dependencies first, sqlite3's addon compiled with them: this layer stays cached while only
# the sources change.
RUN npm ci --ignore-scripts && npm rebuild sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/prepare.mjs scripts/
COPY src src
# Then dist/, and prune drops the dev dependencies. Of sqlite3's build only the addon is kept:
# its object files and the bundled SQLite sources are build leftovers.
RUN npm run build && npm prune --omit=dev \
  && find node_modules/sqlite3/build -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} + \
  && find node_modules/sqlite3/build/Release -mindepth 1 ! -name node_sqlite3.node -exec rm -rf {} + \
  && rm -rf node_modules/sqlite3/deps node_modules/sqlite3/src

FROM ${BUILD_FROM} AS container
WORKDIR /app
# MALLOC_ARENA_MAX and --max-semi-space-size: as `npm start` and the systemd unit (docs/performance.md, "Memory").
# The embedded broker listens on all the container's addresses, so a published 1883 reaches it
# (on 127.0.0.1 it would be unreachable from outside the container); it then needs an account
# (MOWABILITY_BROKER_USERS, README's "Container"), or the daemon refuses to start and says so.
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MOWABILITY_DB_PATH=/data/mowability.db \
    MOWABILITY_BROKER_HOST=0.0.0.0
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY config config
# The status page's HTML, script and style (uPlot comes from node_modules).
COPY public public
RUN mkdir /data && chown node:node /data
# The first start's key hint names `docker exec` only here (docs/configuration.md, container.image).
ENV MOWABILITY_CONTAINER_IMAGE=true
VOLUME /data
USER node
EXPOSE 8080 1883
# `mowability health` asks the daemon's own /health on the address it listens on (http.host and
# http.port from the environment or MOWABILITY_CONFIG) and fails when a required part is down,
# the MQTT side included (/health itself answers 200 then: it answers for the HTTP API).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "dist/cli/main.js", "health"]
CMD ["node", "--max-semi-space-size=2", "--single-threaded-gc", "dist/cli/main.js", "serve"]

# The Home Assistant add-on: the container above, started by `mowability addon` (src/cli/commands/addon.ts)
# with the options in /data/options.json and the Supervisor's MQTT broker, home and time zone. It runs
# as root, as add-ons do: the Supervisor owns /data and writes options.json there. The Supervisor's
# watchdog asks /health (config.yaml), so the image's HEALTHCHECK (which reads http.port from a config
# file the add-on has not) is off.
FROM container AS addon
ARG BUILD_VERSION=dev
ARG BUILD_ARCH=amd64
LABEL io.hass.type="addon" io.hass.version="${BUILD_VERSION}" io.hass.arch="${BUILD_ARCH}"
USER root
ENV MOWABILITY_CONTAINER_IMAGE=false
HEALTHCHECK NONE
CMD ["node", "--max-semi-space-size=2", "--single-threaded-gc", "dist/cli/main.js", "addon"]

# Without IMAGE_KIND: the container (docker build . as before).
FROM ${IMAGE_KIND:-container}
