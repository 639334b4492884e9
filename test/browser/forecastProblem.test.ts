/// <reference lib="dom" />
/**
 * A forecast that cannot be fetched because of a setting (Open-Meteo's address answers with a
 * redirect to another host, which the daemon refuses): the whole daemon against a fake Open-Meteo
 * on loopback says why in `mowability status` and on the status page's forecast card (English and
 * German, in real Chromium), with the setting to fix.
 */
import { describe, expect, it } from 'vitest';
import { FakeOpenMeteo } from '../forecast/fakeOpenMeteo.js';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { FakeClock, mqttTempDir, reading, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { writeStationsConfig } from '../helpers/uploadStations.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const NOW = Date.parse('2026-06-15T10:20:00Z');
const DEADLINE_MS = 15_000;
const GARDEN = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
  location: { latitude: 48.14, longitude: 11.58, elevation: 520 },
  forecast: { source: 'open-meteo' },
};
const PROBLEM = 'HTTP 302 redirect to another host (elsewhere.invalid) refused; set forecast.openMeteoUrl to the server that answers';

const chromium = useChromium();

describe('a forecast refused by a setting', { timeout: SLOW_TEST_TIMEOUT_MS * 2 }, () => {
  it('is named in mowability status and on the forecast card', async () => {
    const temp = mqttTempDir();
    const fake = await FakeOpenMeteo.start();
    // Another host than forecast.openMeteoUrl's: never asked (.invalid never resolves, RFC 2606).
    fake.fallback = { kind: 'redirect', location: 'http://elsewhere.invalid/v1/forecast' };
    chromium.afterTest(() => temp.cleanup());
    chromium.afterTest(() => fake.close());
    const clock = new FakeClock(NOW);
    const daemon = await startOpenMeteoDaemon({ temp, stations: [GARDEN], openMeteoUrl: fake.baseUrl, clock });
    chromium.afterTest(() => daemon.stop());
    const side = daemon.station;
    expect(side.acceptReading('garden', reading({ temperature: 22, humidity: 50, wind_speed: 6, precipitation_rate: 0 }), 'test')).toBe(
      'accepted',
    );
    // The refusal reaches the state with the next recompute after the fetch failed.
    await waitUntil(
      () => {
        side.recompute('garden');
        return side.stationState('garden')?.forecast_problem !== undefined;
      },
      'the problem in the state',
      DEADLINE_MS,
    );
    expect(side.stationState('garden')!.forecast_problem).toBe(PROBLEM);

    const status = await runCliInProcess(['status'], {
      MOWABILITY_CONFIG: writeStationsConfig(temp.dir, [GARDEN]),
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: new URL(daemon.httpAddress).port,
      MOWABILITY_TIMEZONE: 'UTC',
    });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`  forecast:     cannot be fetched: ${PROBLEM}\n`);

    for (const [language, sentence] of [
      ['en', `The forecast cannot be fetched: ${PROBLEM}`],
      ['de', `Die Vorhersage kann nicht abgerufen werden: ${PROBLEM}`],
    ] as const) {
      const { page, problems } = await openWatchedPage(chromium.browser, { language });
      await page.goto(`${daemon.httpAddress}/stations/garden`);
      await page.waitForFunction(() => document.querySelector<HTMLElement>('#forecast-problem')?.checkVisibility() === true, {
        timeout: DEADLINE_MS,
      });
      expect(await page.$eval('#forecast-problem', (element) => (element as HTMLElement).innerText)).toBe(sentence);
      // The setting's English words are marked as English on the German page too.
      expect(await page.$eval('#forecast-problem span', (element) => element.getAttribute('lang'))).toBe('en');
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
