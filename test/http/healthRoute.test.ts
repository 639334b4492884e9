import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MFI_VERSION } from '../../src/core/index.js';
import { DATABASE_MESSAGES } from '../../src/http/healthRoute.js';
import { setMaintenance, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

describe('GET /health and /v1/health (spec: health table)', () => {
  let h: HttpHarness;
  beforeEach(async () => {
    h = await startHttpHarness();
  });
  afterEach(async () => h.close());

  it.each([['/health'], ['/v1/health']])('200 ok — all components normal (%s, no API key needed)', async (url) => {
    const response = await h.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      status: 'ok',
      message: '',
      mfi: {
        status: 'ok',
        maintenance_mode: false,
        mfi_version: MFI_VERSION,
        checks: { database: { status: 'ok' }, maintenance: { status: 'inactive' }, config: { status: 'ok' } },
      },
    });
    expect(Number.isInteger(body.mfi.response_time_ms)).toBe(true);
    expect(body.mfi.response_time_ms).toBeGreaterThanOrEqual(0);
  });

  it('503 maintenance — maintenance mode active', async () => {
    await setMaintenance(h, true);
    for (const url of ['/health', '/v1/health']) {
      const response = await h.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        status: 'maintenance',
        message: 'The API is in maintenance mode.',
        mfi: { status: 'maintenance', maintenance_mode: true, mfi_version: MFI_VERSION, checks: { maintenance: { status: 'active' } } },
      });
    }
  });

  it('503 error — database faulty: checks.database error with a message, mfi_version null, maintenance_mode false', async () => {
    await h.db.close();
    const response = await h.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(503);
    const body = response.json();
    expect(body).toMatchObject({
      status: 'error',
      message: 'One or more system checks failed.',
      mfi: { status: 'error', maintenance_mode: false, mfi_version: null, checks: { database: { status: 'error' } } },
    });
    expect(body.mfi.checks.database.message).toMatch(/\S/);
  });

  it("regression: a database error shows neither the path nor SQLite's text without login; the log has them, once", async () => {
    const capture = captureLogger('info');
    const logged = await startHttpHarness({ logger: capture.logger });
    try {
      await logged.db.close();
      for (let i = 0; i < 3; i++) {
        const response = await logged.app.inject({ method: 'GET', url: '/health' });
        expect(response.statusCode).toBe(503);
        expect(response.json().mfi.checks.database).toEqual({ status: 'error', message: DATABASE_MESSAGES.queryFailed });
        expect(response.body).not.toContain(logged.dir);
        expect(response.body).not.toMatch(/SQLITE_/);
      }
      const errors = capture.lines().filter((line) => line.level === 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ module: 'database', msg: expect.stringMatching(/^health: database query failed: \S/) });
    } finally {
      await logged.close();
    }
  });

  it('503 error — configuration faulty (data directory no longer usable)', async () => {
    const broken = await startHttpHarness();
    try {
      rmSync(join(broken.dir), { recursive: true, force: true });
      const response = await broken.app.inject({ method: 'GET', url: '/v1/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        status: 'error',
        message: 'One or more system checks failed.',
        mfi: { status: 'error', checks: { config: { status: 'error' } } },
      });
      expect(response.json().mfi.checks.config.message).toMatch(/directory of db\.path is not writable/);
      expect(response.body).not.toContain(broken.dir);
    } finally {
      await broken.close();
    }
  });

  it('reports a health check result from the database (the first request runs the checks)', async () => {
    await h.store.setSetting('mfi_version', '9.9.9-test');
    const response = await h.app.inject({ method: 'GET', url: '/health' });
    expect(response.json().mfi.mfi_version).toBe('9.9.9-test');
  });
});
