/**
 * The PostgreSQL and Redis runners live with the benchmarks (bench/lib/sharedServers.ts); here,
 * whether the multi-instance tests can run: missing binaries skip them with a message locally and
 * fail them under CI (process.env.CI), where .ci/run installs both.
 */
import { existsSync } from 'node:fs';
import { postgresBin, REDIS_BINARY } from '../../bench/lib/sharedServers.js';

export { PostgresServer, RedisServer } from '../../bench/lib/sharedServers.js';

/** Why the shared-server tests cannot run here, or undefined; throws under CI, where they must run. */
export function sharedServersMissing(): string | undefined {
  const missing = [postgresBin() ? undefined : 'postgresql (initdb)', existsSync(REDIS_BINARY) ? undefined : 'redis-server'].filter(
    (x) => x !== undefined,
  );
  if (missing.length === 0) return undefined;
  const message = `skipping the multi-instance tests: ${missing.join(' and ')} not installed (apt-get install postgresql redis-server)`;
  if (process.env.CI) throw new Error(`${message}; CI must run them`);
  console.warn(message);
  return message;
}
