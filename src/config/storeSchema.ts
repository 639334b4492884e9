/**
 * Convict schema for where the public service's tables live (docs/deployment.md):
 * the local SQLite file (a home install, one instance) or a PostgreSQL server
 * shared by several instances. Composed in ./schema.ts.
 */
export const STORE_KINDS = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export const storeSchema = {
  store: {
    kind: {
      doc:
        'Where API keys, blocked addresses, maintenance, registrations and key usage live: sqlite (the db.path file, one instance) ' +
        'or postgres (the server at store.url, shared by several instances). Station histories stay in db.path either way.',
      format: [...STORE_KINDS],
      default: 'sqlite' as StoreKind,
      env: 'MOWABILITY_STORE_KIND',
      arg: 'store-kind',
    },
    url: {
      doc: "PostgreSQL connection URL for store.kind postgres (postgres://user:password@host:5432/database); best given in the service's root-only environment file (docs/deployment.md), which the admin command passes on too.",
      format: String,
      default: '',
      env: 'MOWABILITY_STORE_URL',
      arg: 'store-url',
      sensitive: true,
    },
    poolSize: {
      doc: 'Connections each instance keeps open to PostgreSQL at most.',
      format: 'positive-int',
      default: 5,
      env: 'MOWABILITY_STORE_POOL_SIZE',
      arg: 'store-pool-size',
    },
    queryTimeoutMs: {
      doc:
        "With postgres: longest time one statement may take, in milliseconds (PostgreSQL's statement_timeout, and on the client side the same plus 500 ms for a server that does not answer at all). " +
        'A stalled server then costs a request this long, and it answers 503 with Retry-After (registration, claim, keys.quotaMode exact) instead of hanging. Migrations at start-up are not limited.',
      format: 'positive-int',
      default: 2000,
      env: 'MOWABILITY_STORE_QUERY_TIMEOUT_MS',
      arg: 'store-query-timeout-ms',
    },
    connectTimeoutMs: {
      doc: 'With postgres: longest wait for a connection, in milliseconds: for a new one to be set up, and for a free one of the store.poolSize when all are busy. Past it the request answers 503 with Retry-After.',
      format: 'positive-int',
      default: 3000,
      env: 'MOWABILITY_STORE_CONNECT_TIMEOUT_MS',
      arg: 'store-connect-timeout-ms',
    },
    rereadSeconds: {
      doc: 'With postgres: every instance re-reads keys, blocks and maintenance this often, besides the LISTEN/NOTIFY changes (a safety net should a notification be lost).',
      format: 'positive-int',
      default: 60,
      env: 'MOWABILITY_STORE_REREAD_SECONDS',
      arg: 'store-reread-seconds',
    },
    outageGraceSeconds: {
      doc:
        'With postgres: how long /health still answers 200 while PostgreSQL is unreachable (checks.store says so; keys are served from memory). ' +
        'Longer outages turn health to 503; keep it above a failover so a supervisor does not restart every instance at once.',
      format: 'positive-int',
      default: 120,
      env: 'MOWABILITY_STORE_OUTAGE_GRACE_SECONDS',
      arg: 'store-outage-grace-seconds',
    },
  },
};
