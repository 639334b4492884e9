/**
 * An upload-only install with MQTT switched off (no embedded broker, no mqtt.url): the station
 * pipeline still runs, so an Ecowitt upload lands in the history and the status page's
 * GET /v1/stations shows the station with its reading.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { uploadSecretDigest } from '../../src/http/uploadsMatch.js';
import { mqttTempDir, silentLogger, waitUntil } from '../helpers/mqttHarness.js';
import { ecowittBody } from '../helpers/uploadPayloads.js';

const PASSKEY = '0123456789ABCDEF0123456789ABCDEF';

describe('direct uploads with MQTT off', () => {
  let daemon: RunningDaemon | undefined;
  const temp = mqttTempDir();
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    temp.cleanup();
  });

  it('feeds the pipeline and the station list', async () => {
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify({ stations: [{ id: 'garden', name: 'Garden', format: 'ecowitt-http', upload: { passkeySha256: uploadSecretDigest(PASSKEY) } }] }));
    const env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_HTTP_HOST: '127.0.0.1', MOWABILITY_HTTP_PORT: '0', MOWABILITY_BROKER_ENABLED: 'false' };
    daemon = await startDaemon({ config: loadConfig({ argv: ['--config', file], env }), logger: silentLogger });
    const dateutc = new Date(Date.now() - 30_000).toISOString().slice(0, 19).replace('T', ' ');
    const upload = await fetch(`${daemon.httpAddress}/data/report/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: ecowittBody('gw1100b', { PASSKEY, dateutc }),
    });
    expect([upload.status, await upload.text()]).toEqual([200, 'success']);
    const stations = async () => ((await (await fetch(`${daemon!.httpAddress}/v1/stations`)).json()) as { stations: Array<Record<string, unknown>> }).stations;
    await waitUntil(async () => (await stations())[0]?.last_reading_at != null, 'the uploaded reading in the station list', 10_000);
    expect(await stations()).toEqual([expect.objectContaining({ id: 'garden', name: 'Garden' })]);
  });
});
