/**
 * Upload stations as the tests configure them (the secret stored as its SHA-256, as
 * `mowability upload-secret` prints it), the config file that holds them, and the daemon started
 * on such a file with HTTP on an ephemeral loopback port and no embedded broker, stopped after the test.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { uploadSecretDigest } from '../../src/http/uploadsMatch.js';
import { afterEach } from 'vitest';
import { mqttTempDir, silentLogger } from './mqttHarness.js';

/** An Ecowitt/Ambient "Customized" upload station, matched by its PASSKEY (or MAC). */
export function ecowittStation(id: string, passkey: string, name = id) {
  return { id, name, format: 'ecowitt-http', upload: { passkeySha256: uploadSecretDigest(passkey) } };
}

/** A Wunderground-protocol upload station, matched by its ID and PASSWORD. */
export function wundergroundStation(id: string, stationId: string, password: string, name = id) {
  return { id, name, format: 'wunderground', upload: { stationId, passwordSha256: uploadSecretDigest(password) } };
}

/** The pair most upload tests use: `garden` by PASSKEY and `pws` (KXXTEST1) by ID and password. */
export function gardenAndPws(passkey: string, wuPassword: string) {
  return [ecowittStation('garden', passkey, 'Garden'), wundergroundStation('pws', 'KXXTEST1', wuPassword, 'PWS')];
}

/** Writes `dir`/config.json holding `stations` (and any other settings) and returns its path. */
export function writeStationsConfig(dir: string, stations: readonly object[], settings: Record<string, unknown> = {}): string {
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ ...settings, stations }));
  return file;
}

export interface UploadDaemon {
  daemon: RunningDaemon;
  /** The config file and environment it was started with, for a CLI command on the same database. */
  configFile: string;
  env: Record<string, string>;
}

/** The daemon on `stations`: database in `temp`, HTTP on 127.0.0.1 and a free port, the embedded broker off. */
export async function startUploadDaemon(
  temp: { dir: string; dbPath: string },
  stations: readonly object[],
  extraEnv: Record<string, string> = {},
): Promise<UploadDaemon> {
  const configFile = writeStationsConfig(temp.dir, stations);
  const env = {
    MOWABILITY_DB_PATH: temp.dbPath,
    MOWABILITY_HTTP_HOST: '127.0.0.1',
    MOWABILITY_HTTP_PORT: '0',
    MOWABILITY_BROKER_ENABLED: 'false',
    ...extraEnv,
  };
  const daemon = await startDaemon({ config: loadConfig({ argv: ['--config', configFile], env }), logger: silentLogger });
  return { daemon, configFile, env };
}

/** A test's upload daemon: start() runs startUploadDaemon in a temp dir of its own; both go after the test. */
export function useUploadDaemon(): { start(stations: readonly object[], extraEnv?: Record<string, string>): Promise<UploadDaemon> } {
  const steps: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step();
  });
  return {
    async start(stations, extraEnv = {}) {
      const temp = mqttTempDir();
      steps.push(() => temp.cleanup());
      const started = await startUploadDaemon(temp, stations, extraEnv);
      steps.push(() => started.daemon.stop());
      return started;
    },
  };
}
