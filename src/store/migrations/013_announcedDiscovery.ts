import type { Migration } from './migration.js';

/**
 * The Home Assistant discovery configs this daemon has announced, one row per config topic (its
 * station, or NULL for the bridge device). The embedded broker does not keep our own retained
 * configs across a restart, so the retained sweep alone finds nothing to delete there: this list
 * is how a start knows which configs of a removed station (or entity) it must delete. A row of a
 * config no longer announced stays until its deletion has been sent to a Home Assistant that
 * announced itself online (src/mqtt/announcedDiscovery.ts). Written only when the set changes.
 */
export const announcedDiscovery: Migration = {
  version: 13,
  name: 'announced Home Assistant discovery configs',
  up: `
    CREATE TABLE ha_discovery_announced (
      topic   TEXT NOT NULL PRIMARY KEY,
      station TEXT
    ) WITHOUT ROWID;
  `,
};
