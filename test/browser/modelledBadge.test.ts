/// <reference lib="dom" />
/**
 * A modelled station on the status page in real headless Chromium: the full daemon with a
 * station that has only a location, fed by a fake Open-Meteo on loopback, shows its index with
 * the "modelled" badge in the heading and in the station list; a measured station shows none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'puppeteer-core';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { launchChromium, openWatchedPage } from '../helpers/browser.js';
import { FakeClock, mqttTempDir, silentLogger, waitUntil } from '../helpers/mqttHarness.js';
import { FakeModelledServer } from '../modelled/fakeModelledServer.js';

const DEADLINE_MS = 15_000;

let browser: Browser;
let temp: ReturnType<typeof mqttTempDir> | undefined;
let fake: FakeModelledServer | undefined;
let daemon: RunningDaemon | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await daemon?.stop();
  await fake?.close();
  temp?.cleanup();
  daemon = fake = temp = undefined;
});

describe('modelled station on the status page', { timeout: 60_000 }, () => {
  it('shows the modelled badge for the modelled station only', async () => {
    temp = mqttTempDir();
    const clock = new FakeClock(Date.parse('2026-06-15T10:20:00Z'));
    fake = await FakeModelledServer.start(() => clock.now());
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify({
      stations: [
        { id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41 } },
        { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp', precipitation_rate: 'rate' } },
      ],
    }));
    const config = loadConfig({
      env: {
        MOWABILITY_CONFIG: file, MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_HTTP_HOST: '127.0.0.1', MOWABILITY_HTTP_PORT: '0', MOWABILITY_BROKER_PORT: '0',
        MOWABILITY_FORECAST_OPEN_METEO_URL: fake.baseUrl, MOWABILITY_FORECAST_RETRIES: '0', MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '200',
      },
    });
    daemon = await startDaemon({ config, logger: silentLogger, clock });
    const side = daemon.stationSide!;
    await waitUntil(() => typeof side.stationState('home')?.index_score === 'number', 'the modelled index', DEADLINE_MS);

    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${daemon.httpAddress}/stations/home`);
    await page.waitForFunction(() => document.querySelector('#origin') !== null && !(document.querySelector('#origin') as HTMLElement).hidden, { timeout: DEADLINE_MS });
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
    temp = mqttTempDir();
    const clock = new FakeClock(Date.parse('2026-06-15T10:20:00Z'));
    fake = await FakeModelledServer.start(() => clock.now());
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify({
      stations: [{
        id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp', precipitation_rate: 'rate' },
        location: { latitude: 52.52, longitude: 13.41 }, gapFill: { source: 'open-meteo', rain: 'model' },
      }],
    }));
    const config = loadConfig({
      env: {
        MOWABILITY_CONFIG: file, MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_HTTP_HOST: '127.0.0.1', MOWABILITY_HTTP_PORT: '0', MOWABILITY_BROKER_PORT: '0',
        MOWABILITY_FORECAST_OPEN_METEO_URL: fake.baseUrl, MOWABILITY_FORECAST_RETRIES: '0', MOWABILITY_MQTT_RECOMPUTE_DEBOUNCE_MS: '200',
      },
    });
    daemon = await startDaemon({ config, logger: silentLogger, clock });
    const side = daemon.stationSide!;
    side.acceptReading('garden', { values: { temperature: 20, precipitation_rate: 30 }, rainCounters: [], fingerprint: 'gauge', dropped: [] }, 'test');
    // The model's 14 days of rain arrived through the daemon's wiring: rain_14d from the model, the gauge's 30 mm/h left out.
    await waitUntil(() => (side.stationState('garden') as { input?: { rain_14d?: number } } | undefined)?.input?.rain_14d !== undefined, 'the model\'s rain', DEADLINE_MS);
    expect(side.stationState('garden')).toMatchObject({ rain_source: 'model', input: { precipitation_rate: 0 } });

    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${daemon.httpAddress}/stations/garden`);
    await page.waitForFunction(() => !(document.querySelector('#source-message') as HTMLElement | null)?.hidden, { timeout: DEADLINE_MS });
    expect(await page.$eval('#source-message', (element) => element.textContent)).toMatch(/^Rain from the Open-Meteo weather model: the station's rain gauge is not used/);
    expect(await page.$eval('#origin', (element) => (element as HTMLElement).hidden)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
