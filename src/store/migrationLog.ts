/**
 * Which schema migrations this start applied, for the log: Database.open applies pending ones
 * and stamps each with its time (schema_migrations.applied_at, ISO 8601, so text order is time
 * order). Reading them back afterwards keeps the migration runner free of logging.
 */
import type { Database } from './database.js';

export interface AppliedMigration {
  version: number;
  name: string;
  applied_at: string;
}

export function migrationsAppliedSince(database: Database, sinceIso: string): Promise<AppliedMigration[]> {
  return database.all<AppliedMigration>('SELECT version, name, applied_at FROM schema_migrations WHERE applied_at >= ? ORDER BY version', [
    sinceIso,
  ]);
}
