import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { JOURNAL_SIZE_LIMIT_BYTES } from '../../src/store/database.js';
import { SpaceReclaimer } from '../../src/store/spaceReclaimer.js';
import { databaseBytes } from '../helpers/httpTempDir.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const logger = pino({ level: 'silent' });
const MIB = 1024 * 1024;

/** 8 MiB of retained messages in one batch, then all deleted. */
async function fillAndDelete(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < 128; i++) {
      await tx.run('INSERT INTO retained_messages (topic, payload, qos, updated_at_ms) VALUES (?, ?, 0, 0)', [
        `junk/${i}`,
        Buffer.alloc(64 * 1024, i),
      ]);
    }
  });
  await db.run("DELETE FROM retained_messages WHERE topic LIKE 'junk/%'");
}

async function autoVacuum(db: Database): Promise<number | undefined> {
  return (await db.get<{ auto_vacuum: number }>('PRAGMA auto_vacuum'))?.auto_vacuum;
}

describe('SpaceReclaimer', () => {
  const database = useTempDatabase();
  let db: Database;
  beforeEach(async () => {
    db = database.db;
  });

  it('creates new databases in incremental auto-vacuum mode with a WAL size limit', async () => {
    expect(await autoVacuum(db)).toBe(2);
    expect((await db.get<{ journal_size_limit: number }>('PRAGMA journal_size_limit'))?.journal_size_limit).toBe(JOURNAL_SIZE_LIMIT_BYTES);
  });

  it('shrinks the database and the WAL after large deletes', async () => {
    await fillAndDelete(db);
    expect(databaseBytes(database.dbPath)).toBeGreaterThan(8 * MIB);
    const result = await new SpaceReclaimer(db, logger).reclaim();
    expect(result.action).toBe('incremental');
    expect(result.bytesAfter).toBeLessThan(MIB);
    expect(databaseBytes(database.dbPath)).toBeLessThan(MIB);
  });

  it('writes nothing while the free space is below the threshold', async () => {
    await db.run('INSERT INTO retained_messages (topic, payload, qos, updated_at_ms) VALUES (?, ?, 0, 0)', ['a', Buffer.alloc(8192)]);
    await db.run('DELETE FROM retained_messages');
    const version = await db.dataVersion();
    const result = await new SpaceReclaimer(db, logger).reclaim();
    expect(result.action).toBe('none');
    expect(result.bytesAfter).toBe(result.bytesBefore);
    expect(await db.dataVersion()).toBe(version);
  });

  it('converts an older database (auto_vacuum NONE) with one VACUUM while its live data is small', async () => {
    await db.exec('PRAGMA auto_vacuum = NONE; VACUUM;');
    expect(await autoVacuum(db)).toBe(0);
    await fillAndDelete(db);
    const result = await new SpaceReclaimer(db, logger).reclaim();
    expect(result.action).toBe('vacuum');
    expect(await autoVacuum(db)).toBe(2);
    expect(databaseBytes(database.dbPath)).toBeLessThan(MIB);
  });

  it('leaves a large older database alone (the VACUUM would rewrite all of it) and says how to convert it', async () => {
    await db.exec('PRAGMA auto_vacuum = NONE; VACUUM;');
    await fillAndDelete(db);
    const lines: string[] = [];
    const recording = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const reclaimer = new SpaceReclaimer(db, recording, { minFreeBytes: MIB, maxVacuumBytes: 1 });
    expect((await reclaimer.reclaim()).action).toBe('too-large');
    expect((await reclaimer.reclaim()).action).toBe('too-large');
    expect(await autoVacuum(db)).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('VACUUM');
  });
});
