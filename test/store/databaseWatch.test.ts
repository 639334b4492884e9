import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_MESSAGES } from '../../src/http/healthRoute.js';
import { DatabaseWatch } from '../../src/store/databaseWatch.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

function errorLines(capture: ReturnType<typeof captureLogger>): Array<Record<string, unknown>> {
  return capture.lines().filter((line) => line.level === 50);
}

describe('database problems while running: health 503 and one log line', () => {
  let h: HttpHarness;
  let capture: ReturnType<typeof captureLogger>;
  let watch: DatabaseWatch;
  beforeEach(async () => {
    h = await startHttpHarness();
    capture = captureLogger('info');
    watch = new DatabaseWatch({ database: h.db, logger: capture.logger });
  });
  afterEach(async () => h.close());

  async function health(): Promise<{ status: number; database: { status: string; message?: string } }> {
    const response = await h.app.inject({ method: 'GET', url: '/health' });
    return { status: response.statusCode, database: response.json().mfi.checks.database };
  }

  it('regression: the database file deleted → checks.database error, 503, logged once', async () => {
    expect(await health()).toEqual({ status: 200, database: { status: 'ok' } });
    expect(watch.check()).toBeNull();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${h.config.db.path}${suffix}`, { force: true });
    const after = await health();
    expect(after.status).toBe(503);
    // Health answers without login: the kind of problem, never the path; the log has it.
    expect(after.database).toEqual({ status: 'error', message: DATABASE_MESSAGES.fileChanged });
    expect(JSON.stringify(after)).not.toContain(h.dir);
    for (let i = 0; i < 5; i++) expect(watch.check()).toMatch(/was deleted/);
    expect(errorLines(capture)).toHaveLength(1);
    expect(errorLines(capture)[0]).toMatchObject({
      module: 'database',
      path: h.config.db.path,
      problem: expect.stringContaining(`database file ${h.config.db.path} was deleted`),
    });
  });

  it('regression: the database file replaced by another file → error naming the replacement', async () => {
    const other = join(h.dir, 'other.db');
    writeFileSync(other, '');
    renameSync(other, h.config.db.path);
    expect(await health()).toEqual({ status: 503, database: { status: 'error', message: DATABASE_MESSAGES.fileChanged } });
    expect(watch.check()).toMatch(/was replaced/);
  });

  it('regression: a full disk (SQLITE_FULL) → error until a write succeeds again; one error and one recovery line', async () => {
    const { page_count: pages } = (await h.db.get<{ page_count: number }>('PRAGMA page_count'))!;
    await h.db.exec(`PRAGMA max_page_count = ${pages + 1}`);
    // Larger than the free pages the migrations left (tables replaced by later ones), so the file must grow.
    const { freelist_count: free } = (await h.db.get<{ freelist_count: number }>('PRAGMA freelist_count'))!;
    const big = 'x'.repeat((free + 5) * 4096);
    await expect(h.db.run("INSERT INTO settings (key, value) VALUES ('big', ?)", [big])).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(await health()).toEqual({ status: 503, database: { status: 'error', message: DATABASE_MESSAGES.writesFailing } });
    expect(watch.check()).toMatch(/database writes are failing: the last write failed \(SQLITE_FULL/);
    watch.check();
    await h.db.exec('PRAGMA max_page_count = 1073741823');
    await h.db.run("INSERT INTO settings (key, value) VALUES ('big', ?)", [big]);
    expect(await health()).toEqual({ status: 200, database: { status: 'ok' } });
    expect(watch.check()).toBeNull();
    expect(errorLines(capture)).toHaveLength(1);
    expect(capture.lines().filter((line) => line.msg === 'database problem cleared')).toHaveLength(1);
  });
});
