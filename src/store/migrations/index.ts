/**
 * Versioned schema migrations, applied in order by Database.open(). A
 * migration, once released, is never edited: add a new one instead.
 */
import { serviceTables } from './001_serviceTables.js';
import { historyTables } from './002_historyTables.js';
import { historyFingerprints } from './003_historyFingerprints.js';
import { historyHighWater } from './004_historyHighWater.js';
import { lawnMemory } from './007_lawnMemory.js';

export interface Migration {
  version: number;
  name: string;
  /** One or more SQL statements, run inside one transaction. */
  up: string;
}

export const MIGRATIONS: readonly Migration[] = [serviceTables, historyTables, historyFingerprints, historyHighWater, lawnMemory];
