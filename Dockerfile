# mowability in a container: build with the dev dependencies, run with the production ones as
# the unprivileged "node" user. Not built or run in this project's CI (no container engine
# there); see README.md, "Container".
FROM node:22-bookworm-slim AS build
WORKDIR /app
# sqlite3 compiles its addon where no prebuilt one fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts/prepare.mjs scripts/
COPY src src
# npm ci builds dist/ (prepare); prune then drops the dev dependencies but keeps the built addon.
RUN npm ci && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
# MALLOC_ARENA_MAX and --max-semi-space-size: as `npm start` and the systemd unit (docs/performance.md, "Memory").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MOWABILITY_DB_PATH=/data/mowability.db
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY config config
# The status page's HTML, script and style (uPlot comes from node_modules).
COPY public public
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=2", "dist/cli/main.js", "serve"]
