/** Settings that say where the daemon runs (src/cli/commands/serve.ts, the first start's key hint). */
export const containerSchema = {
  container: {
    image: {
      doc: "Whether the daemon runs in mowability's container image: the image's Dockerfile sets it, so the first start's key hint names `docker exec <container> node dist/cli/main.js`. Leave it false elsewhere: a clone run inside another container (a CI job, a devcontainer) keeps the `npx mowability` command, which works there.",
      format: 'boolean',
      default: false,
      env: 'MOWABILITY_CONTAINER_IMAGE',
    },
  },
};
