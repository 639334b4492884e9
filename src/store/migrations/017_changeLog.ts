import type { Migration } from './migration.js';

/**
 * The change log's bookkeeping (src/store/changeLog.ts): the random id its file's header carries (a
 * log beside another database file is refused) and the newest record folded into the tables. The
 * fold writes a record's rows and `folded_seq` in one transaction, so a record counts once.
 */
export const changeLog: Migration = {
  version: 17,
  name: 'change log: change_log',
  up: `
    CREATE TABLE change_log (
      id         INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
      log_id     TEXT    NOT NULL,
      folded_seq INTEGER NOT NULL
    );
    INSERT INTO change_log (id, log_id, folded_seq) VALUES (1, lower(hex(randomblob(16))), 0);
  `,
};
