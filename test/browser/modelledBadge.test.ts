/// <reference lib="dom" />
/**
 * A modelled station on the status page in real headless Chromium: the full daemon with a
 * station that has only a location, fed by a fake Open-Meteo on loopback, shows its index with
 * the "modelled" badge in the heading and in the station list; a measured station shows none.
 */
import { describe, expect, it } from 'vitest';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { FakeClock, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { useFakeOpenMeteo } from '../modelled/fakeModelledServer.js';

const DEADLINE_MS = 15_000;
const NOW = Date.parse('2026-06-15T10:20:00Z');

const clock = new FakeClock(NOW);
const openMeteo = useFakeOpenMeteo(clock, NOW);
// Registered after the fake, so its steps (the daemon's stop) run before the fake closes (vitest's after-hooks run as a stack).
const chromium = useChromium();

/** The whole daemon on `stations`, with the fake Open-Meteo; stopped after the test. */
async function daemonWith(stations: readonly object[]) {
  const daemon = await startOpenMeteoDaemon({ temp: openMeteo.temp, stations, openMeteoUrl: openMeteo.fake.baseUrl, clock });
  chromium.afterTest(() => daemon.stop());
  return daemon;
}

describe('modelled station on the status page', { timeout: 60_000 }, () => {
  it('shows the modelled badge for the modelled station only', async () => {
    const daemon = await daemonWith([
      { id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41 } },
      {
        id: 'garden',
        name: 'Garden',
        format: 'json',
        topic: 'garden/weather',
        fields: { temperature: 'temp', precipitation_rate: 'rate' },
      },
    ]);
    const side = daemon.station;
    await waitUntil(() => typeof side.stationState('home')?.index_score === 'number', 'the modelled index', DEADLINE_MS);

    const { page, problems } = await openWatchedPage(chromium.browser);
    await page.goto(`${daemon.httpAddress}/stations/home`);
    await page.waitForFunction(
      () => document.querySelector('#origin') !== null && !(document.querySelector('#origin') as HTMLElement).hidden,
      { timeout: DEADLINE_MS },
    );
    expect(await page.$eval('#origin', (element) => element.textContent)).toBe('modelled');
    expect(await page.$eval('#data-quality', (element) => element.textContent)).toBe('modelled');
    expect(await page.$eval('#index-value', (element) => element.textContent)).toBe(String(side.stationState('home')!.index_score));
    const list = await page.$$eval('#station-list a', (links) => links.map((link) => link.textContent ?? ''));
    expect(list.find((text) => text.startsWith('Home'))).toContain('modelled');
    expect(list.find((text) => text.startsWith('Garden'))).not.toContain('modelled');

    await page.goto(`${daemon.httpAddress}/stations/garden`);
    await page.waitForFunction(() => document.querySelector('#station-name')?.textContent === 'Garden', { timeout: DEADLINE_MS });
    expect(await page.$eval('#origin', (element) => (element as HTMLElement).hidden)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says that a broken gauge\'s rain comes from the model (gapFill.rain "model")', async () => {
    const daemon = await daemonWith([
      {
        id: 'garden',
        name: 'Garden',
        format: 'json',
        topic: 'garden/weather',
        fields: { temperature: 'temp', precipitation_rate: 'rate' },
        location: { latitude: 52.52, longitude: 13.41 },
        gapFill: { source: 'open-meteo', rain: 'model' },
      },
    ]);
    const side = daemon.station;
    side.acceptReading(
      'garden',
      { values: { temperature: 20, precipitation_rate: 30 }, rainCounters: [], fingerprint: 'gauge', dropped: [] },
      'test',
    );
    // The model's 14 days of rain arrived through the daemon's wiring: rain_14d from the model, the gauge's 30 mm/h left out.
    await waitUntil(
      () => (side.stationState('garden') as { input?: { rain_14d?: number } } | undefined)?.input?.rain_14d !== undefined,
      "the model's rain",
      DEADLINE_MS,
    );
    expect(side.stationState('garden')).toMatchObject({ rain_source: 'model', input: { precipitation_rate: 0 } });

    const { page, problems } = await openWatchedPage(chromium.browser);
    await page.goto(`${daemon.httpAddress}/stations/garden`);
    await page.waitForFunction(() => !(document.querySelector('#source-message') as HTMLElement | null)?.hidden, { timeout: DEADLINE_MS });
    expect(await page.$eval('#source-message', (element) => element.textContent)).toMatch(
      /^Rain from the Open-Meteo weather model: the station's rain gauge is not used/,
    );
    expect(await page.$eval('#origin', (element) => (element as HTMLElement).hidden)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
