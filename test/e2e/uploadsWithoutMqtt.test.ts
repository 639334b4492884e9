/**
 * An upload-only install with MQTT switched off (no embedded broker, no mqtt.url): the station
 * pipeline still runs, so an Ecowitt upload lands in the history and the status page's
 * GET /v1/stations shows the station with its reading.
 */
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/mqttHarness.js';
import { ecowittBody } from '../helpers/uploadPayloads.js';
import { ecowittStation, useUploadDaemon } from '../helpers/uploadStations.js';

const PASSKEY = '0123456789ABCDEF0123456789ABCDEF';

describe('direct uploads with MQTT off', () => {
  const uploads = useUploadDaemon();

  it('feeds the pipeline and the station list', async () => {
    const { daemon } = await uploads.start([ecowittStation('garden', PASSKEY, 'Garden')]);
    const dateutc = new Date(Date.now() - 30_000).toISOString().slice(0, 19).replace('T', ' ');
    const upload = await fetch(`${daemon.httpAddress}/data/report/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: ecowittBody('gw1100b', { PASSKEY, dateutc }),
    });
    expect([upload.status, await upload.text()]).toEqual([200, 'success']);
    const stations = async () =>
      ((await (await fetch(`${daemon.httpAddress}/v1/stations`)).json()) as { stations: Array<Record<string, unknown>> }).stations;
    await waitUntil(async () => (await stations())[0]?.last_reading_at != null, 'the uploaded reading in the station list', 10_000);
    expect(await stations()).toEqual([expect.objectContaining({ id: 'garden', name: 'Garden' })]);
  });
});
