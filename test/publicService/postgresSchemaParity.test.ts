/**
 * The service tables as PostgreSQL's migrations (src/publicService/postgres/migrations.ts) create them
 * against the same tables as SQLite's migrations (src/store/migrations/) leave them: every column's
 * name, nullability and type family, and each table's primary key. The service stores run the same
 * SQL on both, so a SQLite migration that adds or changes a service column without a PostgreSQL
 * migration fails here, not on the first instance that runs with `store.kind` `postgres`. Every
 * SQLite table is either a service table (then PostgreSQL has it) or listed below as local.
 */
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { MIGRATIONS, type Migration } from '../../src/store/migrations/index.js';
import { PgDatabase } from '../../src/publicService/postgres/pgDatabase.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { PostgresServer, sharedServersMissing } from '../helpers/sharedServers.js';

/** SQLite tables that stay in each instance's own file with `store.kind` `postgres` (docs/deployment.md, "What one instance holds"). */
const LOCAL_TABLES = [
  'chart_series',
  'forecast_cache',
  'ha_discovery_announced',
  'history_minutes',
  'history_stations',
  'lawn_balances',
  'lawn_cuts',
  'lawn_plans',
  'mower_calls',
  'mower_runs',
  'mower_switches',
  'retained_messages',
  'station_controls',
  'upload_refusals',
];
/** Bookkeeping of each store's own, not shared schema: the migration log, SQLite's AUTOINCREMENT counters and the change log's identity and fold mark (db.changeLog, one per SQLite file). */
const BOOKKEEPING = ['change_log', 'schema_migrations', 'sqlite_sequence'];

type Family = 'integer' | 'real' | 'text' | 'blob' | 'boolean' | 'other';
interface Column {
  family: Family;
  nullable: boolean;
}
/** Table → column → its shape, plus the primary key's columns in order. */
type Schema = Map<string, { columns: Map<string, Column>; primaryKey: string[] }>;

/** SQLite's type affinity rules (https://www.sqlite.org/datatype3.html, 3.1), reduced to the families both stores share. */
function sqliteFamily(declared: string): Family {
  const type = declared.toUpperCase();
  if (type.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(type)) return 'text';
  if (type === '' || type.includes('BLOB')) return 'blob';
  if (/REAL|FLOA|DOUB/.test(type)) return 'real';
  return 'other';
}

function postgresFamily(dataType: string): Family {
  if (['integer', 'bigint', 'smallint'].includes(dataType)) return 'integer';
  if (['text', 'character varying', 'character'].includes(dataType)) return 'text';
  if (['double precision', 'real'].includes(dataType)) return 'real';
  if (dataType === 'bytea') return 'blob';
  if (dataType === 'boolean') return 'boolean';
  return 'other';
}

async function sqliteSchema(db: Database): Promise<Schema> {
  const tables = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  const schema: Schema = new Map();
  for (const { name } of tables) {
    const info = await db.all<{ name: string; type: string; notnull: number; pk: number }>(`PRAGMA table_info(${JSON.stringify(name)})`);
    // A primary key column is never NULL in practice (SQLite's rowid tables would allow it only by a legacy quirk; PostgreSQL implies NOT NULL).
    const columns = new Map(
      info.map((c): [string, Column] => [c.name, { family: sqliteFamily(c.type), nullable: c.notnull === 0 && c.pk === 0 }]),
    );
    const primaryKey = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    schema.set(name, { columns, primaryKey });
  }
  return schema;
}

async function postgresSchema(db: PgDatabase): Promise<Schema> {
  const rows = await db.all<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
  );
  const keys = await db.all<{ table_name: string; column_name: string }>(
    `SELECT k.table_name, k.column_name FROM information_schema.table_constraints c
     JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema
     WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_schema = 'public' ORDER BY k.table_name, k.ordinal_position`,
  );
  const schema: Schema = new Map();
  for (const row of rows) {
    const table = schema.get(row.table_name) ?? { columns: new Map(), primaryKey: [] };
    table.columns.set(row.column_name, { family: postgresFamily(row.data_type), nullable: row.is_nullable === 'YES' });
    schema.set(row.table_name, table);
  }
  for (const key of keys) schema.get(key.table_name)?.primaryKey.push(key.column_name);
  return schema;
}

const describeColumn = (column: Column | undefined): string =>
  column === undefined ? 'missing' : `${column.family}${column.nullable ? ' NULL' : ' NOT NULL'}`;

/** Each difference as one line, "table.column: SQLite … / PostgreSQL …"; empty when the service tables agree. */
function schemaDrift(sqlite: Schema, postgres: Schema): string[] {
  const drift: string[] = [];
  for (const name of sqlite.keys()) {
    if (!postgres.has(name) && !LOCAL_TABLES.includes(name) && !BOOKKEEPING.includes(name)) {
      drift.push(
        `${name}: a SQLite table PostgreSQL lacks (a service table needs a PostgreSQL migration; a station table belongs in LOCAL_TABLES)`,
      );
    }
  }
  for (const [name, pgTable] of postgres) {
    if (BOOKKEEPING.includes(name)) continue;
    const sqliteTable = sqlite.get(name);
    if (sqliteTable === undefined) {
      drift.push(`${name}: a PostgreSQL table SQLite lacks`);
      continue;
    }
    for (const column of new Set([...sqliteTable.columns.keys(), ...pgTable.columns.keys()])) {
      const [a, b] = [describeColumn(sqliteTable.columns.get(column)), describeColumn(pgTable.columns.get(column))];
      if (a !== b) drift.push(`${name}.${column}: SQLite ${a} / PostgreSQL ${b}`);
    }
    const [keyA, keyB] = [sqliteTable.primaryKey.join(', '), pgTable.primaryKey.join(', ')];
    if (keyA !== keyB) drift.push(`${name}: primary key SQLite (${keyA}) / PostgreSQL (${keyB})`);
  }
  return drift;
}

/** A later SQLite migration that forgets PostgreSQL: a new service column, a changed one and a new service table. */
const driftingMigration: Migration = {
  version: MIGRATIONS.at(-1)!.version + 1,
  name: 'drift for the test',
  up: `
    ALTER TABLE api_keys ADD COLUMN rotated_at TEXT;
    ALTER TABLE settings ADD COLUMN weight REAL NOT NULL DEFAULT 1;
    CREATE TABLE key_events (id INTEGER PRIMARY KEY AUTOINCREMENT, key_id INTEGER NOT NULL, at TEXT NOT NULL);
  `,
};

describe.skipIf(sharedServersMissing() !== undefined)('PostgreSQL service tables against SQLite migrations', () => {
  const temp = makeTempDir('mow-parity-');
  let server: PostgresServer;
  let postgres: Schema;

  beforeAll(async () => {
    server = await PostgresServer.start();
    const db = await PgDatabase.open({
      connectionString: await server.createDatabase('parity'),
      logger: pino({ level: 'silent' }),
      listen: false,
    });
    try {
      postgres = await postgresSchema(db);
    } finally {
      await db.close();
    }
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    temp.cleanup();
  });

  const migratedSqlite = async (file: string, migrations: readonly Migration[]): Promise<Schema> => {
    const db = await Database.open(join(temp.dir, file), { migrations });
    try {
      return await sqliteSchema(db);
    } finally {
      await db.close();
    }
  };

  it('has every service table with the same columns, nullability, type families and primary key as SQLite', async () => {
    const sqlite = await migratedSqlite('current.db', MIGRATIONS);
    expect([...postgres.keys()].filter((name) => !BOOKKEEPING.includes(name)).sort()).toEqual([
      'api_keys',
      'blocked_addresses',
      'key_usage',
      'registrations',
      'settings',
    ]);
    expect(postgres.get('api_keys')?.columns.get('id')).toEqual({ family: 'integer', nullable: false });
    expect(schemaDrift(sqlite, postgres)).toEqual([]);
    // Every table SQLite's migrations create is accounted for: none of LOCAL_TABLES is stale.
    expect(LOCAL_TABLES.filter((name) => !sqlite.has(name))).toEqual([]);
  });

  it('names each column and table a later SQLite migration adds without PostgreSQL', async () => {
    const sqlite = await migratedSqlite('drifted.db', [...MIGRATIONS, driftingMigration]);
    expect(schemaDrift(sqlite, postgres)).toEqual([
      'key_events: a SQLite table PostgreSQL lacks (a service table needs a PostgreSQL migration; a station table belongs in LOCAL_TABLES)',
      'api_keys.rotated_at: SQLite text NULL / PostgreSQL missing',
      'settings.weight: SQLite real NOT NULL / PostgreSQL missing',
    ]);
  });
});

describe('schema drift comparison', () => {
  it('tells the type families, nullability and primary keys apart', () => {
    const table = (columns: Record<string, Column>, primaryKey: string[]) => ({ columns: new Map(Object.entries(columns)), primaryKey });
    const sqlite: Schema = new Map([
      [
        'settings',
        table({ key: { family: sqliteFamily('TEXT'), nullable: false }, value: { family: sqliteFamily('INTEGER'), nullable: true } }, [
          'key',
        ]),
      ],
    ]);
    const pg: Schema = new Map([
      [
        'settings',
        table(
          { key: { family: postgresFamily('text'), nullable: false }, value: { family: postgresFamily('boolean'), nullable: false } },
          [],
        ),
      ],
    ]);
    expect(schemaDrift(sqlite, pg)).toEqual([
      'settings.value: SQLite integer NULL / PostgreSQL boolean NOT NULL',
      'settings: primary key SQLite (key) / PostgreSQL ()',
    ]);
    expect([
      sqliteFamily('BIGINT'),
      sqliteFamily('VARCHAR(20)'),
      sqliteFamily('DOUBLE'),
      sqliteFamily(''),
      sqliteFamily('NUMERIC'),
    ]).toEqual(['integer', 'text', 'real', 'blob', 'other']);
    expect([
      postgresFamily('bigint'),
      postgresFamily('character varying'),
      postgresFamily('double precision'),
      postgresFamily('bytea'),
      postgresFamily('jsonb'),
    ]).toEqual(['integer', 'text', 'real', 'blob', 'other']);
  });
});
