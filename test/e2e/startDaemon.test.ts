import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { MFI_VERSION } from '../../src/core/index.js';
import { startDaemon } from '../../src/daemon.js';
import { Database } from '../../src/store/database.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir } from '../helpers/httpTempDir.js';

describe('startDaemon (in-process composition root)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  const env = () => ({
    MOWABILITY_DB_PATH: temp.dbPath,
    MOWABILITY_HTTP_HOST: '127.0.0.1',
    MOWABILITY_HTTP_PORT: '0',
    MOWABILITY_BROKER_ENABLED: 'false',
    MOWABILITY_BROKER_PORT: '0',
    MOWABILITY_TIMEZONE: 'UTC',
  });
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('starts, writes mfi_version, serves on the reported address and stops cleanly (no WAL left behind)', async () => {
    const log = captureLogger('info');
    const daemon = await startDaemon({
      config: loadConfig({ env: env() }),
      logger: log.logger,
      keyCommandHint: 'mowability keys add <owner> --config x.json',
    });
    try {
      expect(daemon.httpAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = (await (await fetch(`${daemon.httpAddress}/health`)).json()) as { mfi: { mfi_version: string } };
      expect(health.mfi.mfi_version).toBe(MFI_VERSION);
      expect(log.text()).toContain('No API key exists yet. Create one with: mowability keys add <owner> --config x.json');
      expect(log.text()).toContain(`HTTP server listening on ${daemon.httpAddress}`);
    } finally {
      await daemon.stop();
      await daemon.stop();
    }
    await expect(fetch(`${daemon.httpAddress}/health`)).rejects.toThrow();
    expect(existsSync(`${temp.dbPath}-wal`)).toBe(false);
    const db = await Database.open(temp.dbPath);
    try {
      expect(await db.get<{ value: string }>("SELECT value FROM settings WHERE key = 'mfi_version'")).toEqual({ value: MFI_VERSION });
    } finally {
      await db.close();
    }
  });

  it('rolls back the started components when a later one fails (HTTP port taken)', async () => {
    await withTakenPort(async (takenPort) => {
      const log = captureLogger('info');
      await expect(
        startDaemon({ config: loadConfig({ env: { ...env(), MOWABILITY_HTTP_PORT: String(takenPort) } }), logger: log.logger }),
      ).rejects.toThrow(
        `The HTTP server cannot listen on 127.0.0.1:${takenPort}: the port is already in use. Pick another port with MOWABILITY_HTTP_PORT`,
      );
      expect(log.text()).toContain('component failed to start');
      // The database component was stopped: the file is closed and checkpointed.
      expect(existsSync(`${temp.dbPath}-wal`)).toBe(false);
    });
  });

  it('explains a taken broker port and how to use the broker that holds it', async () => {
    await withTakenPort(async (takenPort) => {
      const config = loadConfig({ env: { ...env(), MOWABILITY_BROKER_ENABLED: 'true', MOWABILITY_BROKER_PORT: String(takenPort) } });
      const log = captureLogger('info');
      await expect(startDaemon({ config, logger: log.logger })).rejects.toThrow(
        `The embedded MQTT broker cannot listen on 127.0.0.1:${takenPort}: the port is already in use. If another broker (e.g. Mosquitto) runs there, use it instead: MOWABILITY_BROKER_ENABLED=false MOWABILITY_MQTT_URL=mqtt://127.0.0.1:${takenPort}`,
      );
      // Logged once, under the part that failed (not again for the station side that started it).
      const failures = log.lines().filter((line) => line.msg === 'component failed to start');
      expect(failures).toMatchObject([{ component: 'mqtt-broker', err: { message: expect.stringContaining('already in use') } }]);
      expect(existsSync(`${temp.dbPath}-wal`)).toBe(false);
    });
  });
});

/** Runs `use` while another server holds a loopback port. */
async function withTakenPort(use: (port: number) => Promise<void>): Promise<void> {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  try {
    await use((blocker.address() as AddressInfo).port);
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
}
