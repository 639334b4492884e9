import type { Migration } from './migration.js';

/**
 * The week plan (src/lawn/planUnit.ts): the last plan of each lawn as JSON, written when it changes
 * (about hourly, never per reading), so a restart keeps the slots' ids and sequence numbers (the
 * iCalendar UIDs and SEQUENCE) and the plan stays stable across it.
 */
export const lawnPlans: Migration = {
  version: 15,
  name: 'week plan: lawn_plans',
  up: `
    CREATE TABLE lawn_plans (
      lawn        TEXT    NOT NULL PRIMARY KEY,
      station     TEXT    NOT NULL,
      plan        TEXT    NOT NULL,
      saved_at_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};
