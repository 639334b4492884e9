/**
 * The public service's part of the command line, plugged in with the rest of it (`commands` of
 * ./plug.ts): the service tables in PostgreSQL for a one-shot command, and the registrations an
 * operator reviews (`mowability registrations`). Without this folder the CLI has neither.
 */
import { pino } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { SqlDatabase } from '../store/sqlDatabase.js';
import { RegistrationError, RegistrationStore } from './registrationStore.js';

/** A store error about the registration's state is the operator's to fix: an outcome, not a failure. */
async function outcome<T>(work: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; problem: string }> {
  try {
    return { ok: true, value: await work };
  } catch (err) {
    if (err instanceof RegistrationError) return { ok: false, problem: err.message };
    throw err;
  }
}

export const publicServiceCommands = {
  /** PostgreSQL with store.kind postgres: one connection, no LISTEN (a one-shot command). */
  async openServiceDatabase(config: AppConfig): Promise<SqlDatabase | undefined> {
    if (config.store.kind !== 'postgres') return undefined;
    // pg is imported only here, for store.kind postgres (as in ./sharedServers.ts): other commands never load it.
    const { PgDatabase } = await import('./postgres/pgDatabase.js');
    return PgDatabase.open({
      connectionString: config.store.url,
      logger: pino({ level: 'silent' }),
      poolSize: 1,
      listen: false,
      queryTimeoutMs: config.store.queryTimeoutMs,
      connectTimeoutMs: config.store.connectTimeoutMs,
    });
  },
  registrations(database: SqlDatabase) {
    const store = new RegistrationStore(database);
    return {
      list: (options: { pending?: boolean }) => store.list(options),
      approve: (id: number, nowMs: number, options: { allowGet?: boolean; note?: string }) => outcome(store.approve(id, nowMs, options)),
      reject: (id: number, nowMs: number, reason?: string) => outcome(store.reject(id, nowMs, reason).then(() => undefined)),
      purge: (olderThanMs: number, nowMs: number) => store.purge(olderThanMs, nowMs),
    };
  },
};
