/**
 * A refused upload is visible where the user looks, not only in the throttled
 * log: the station's state and status page say "last upload refused: <reason>"
 * at once, also for a second, different problem right after the first; an
 * accepted reading clears it; `mowability status` lists the refusals per
 * station (and per unmatched console) with the reason, and a counter-only
 * station has its first index with its second reading.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/httpCli.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { payloadText } from '../helpers/mqttPayloads.js';
import { useUploadDaemon, wundergroundStation } from '../helpers/uploadStations.js';

const PASSWORD = 'pws-secret-9';

describe('refused uploads where the user looks', () => {
  const uploads = useUploadDaemon();

  it('state, status page and mowability status say why an upload was refused', async () => {
    const {
      daemon,
      configFile: file,
      env,
    } = await uploads.start([wundergroundStation('pws', 'KXXTEST2', PASSWORD, 'PWS')], { MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0' });
    const base = daemon.httpAddress;
    const get = async (path: string) => {
      const response = await fetch(`${base}${path}`);
      expect([response.status, await response.text()]).toEqual([200, 'success']);
    };
    const detail = async () => ((await (await fetch(`${base}/v1/stations/pws`)).json()) as { station: Record<string, unknown> }).station;
    const refusedReason = async () => ((await detail()).last_upload_refused as { reason?: string } | null)?.reason ?? '';

    const counterOnly = payloadText('wunderground-get__wu-protocol__counter-only.txt')
      .trim()
      .replace('PASSWORD=PASSWORD', `PASSWORD=${PASSWORD}`);
    await get(counterOnly.replace('dateutc=now', 'dateutc=2016-13-4%2021:2:35'));
    await waitUntil(async () => (await refusedReason()).includes('dateutc "2016-13-4 21:2:35"'), 'the bad date in the status page', 10_000);
    // A second, different problem is shown at once (the log would stay quiet for a minute).
    await get(
      `/weatherstation/updateweatherstation.asp?ID=KXXTEST2&PASSWORD=${PASSWORD}&dateutc=now&tempf=-9999&humidity=-9999&dailyrainin=-9999`,
    );
    await waitUntil(async () => (await refusedReason()).includes('no weather field found'), 'the second reason', 10_000);
    expect(((await detail()).last_upload_refused as { count: number }).count).toBe(2);
    await get('/weatherstation/updateweatherstation.php?ID=KOTHER&PASSWORD=x&tempf=50');

    // Counter-only: the first reading sets the baseline, the second gives the rate and the index.
    await get(counterOnly);
    await waitUntil(async () => (await detail()).last_upload_refused === null, 'an accepted reading clears the refusal', 10_000);
    expect((await detail()).index).toBeNull();
    await get(counterOnly.replace('dailyrainin=0.12', 'dailyrainin=0.12&tempf=61.4'));
    await waitUntil(async () => typeof (await detail()).index === 'number', 'the index after the second counter reading', 10_000);

    await daemon.stop();
    const status = await runCliInProcess(['status', '--config', file], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/uploads refused:\n {4}2 × unparsable \(wunderground\), last \d+ min ago: no weather field found/);
    expect(status.stdout).toContain('Uploads that matched no station');
    expect(status.stdout).toMatch(
      /1 × unknown_station_id \(wunderground, ID KOTHER\), last \d+ min ago: no configured station has this station ID/,
    );
    const json = JSON.parse((await runCliInProcess(['status', '--json', '--config', file], env)).stdout) as {
      stations: Array<{ uploads_refused: unknown[] }>;
    };
    expect(json.stations[0]?.uploads_refused).toEqual([
      expect.objectContaining({ outcome: 'unparsable', count: 2, protocol: 'wunderground' }),
    ]);
  });
});
