/**
 * The add-on image's test (./addonImage.container.ts), run by scripts/container-test.sh (npm run
 * test:container, .ci/run) once the image is built: it needs podman and root, so it is not part of
 * `npm test` (vitest.config.ts includes only test/**\/*.test.ts).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['test/container/**/*.container.ts'], environment: 'node', testTimeout: 180_000, hookTimeout: 60_000 },
});
