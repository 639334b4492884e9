import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeCommitKinds, walOffset, walWindow } from '../../bench/lib/walFrames.js';
import { Database } from '../../src/store/database.js';

describe("the benches' WAL decoder", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('groups the commits since an offset by the tables they wrote, with their frames', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mowability-walframes-'));
    dirs.push(dir);
    const dbPath = join(dir, 'wal.db');
    const db = await Database.open(dbPath, { migrations: [] });
    try {
      await db.exec('CREATE TABLE small (id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE other (id INTEGER PRIMARY KEY, v TEXT);');
      const offset = walOffset(`${dbPath}-wal`);
      await db.run("INSERT INTO small (v) VALUES ('a')");
      await db.run("INSERT INTO small (v) VALUES ('b')");
      await db.transaction(async (tx) => {
        await tx.run("INSERT INTO small (v) VALUES ('c')");
        await tx.run("INSERT INTO other (v) VALUES ('d')");
      });
      const window = await walWindow(dbPath, offset);
      expect(window.commits).toBe(3);
      expect(window.frames).toBe(4);
      expect(window.byCommitKind).toEqual({ small: { commits: 2, frames: 2 }, 'other+small': { commits: 1, frames: 2 } });
      expect(describeCommitKinds(window)).toBe('2 × [small] 1.0 frames; 1 × [other+small] 2.0 frames');
    } finally {
      await db.close();
    }
  });
});
