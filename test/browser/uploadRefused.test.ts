/**
 * The status page says "Last upload refused: <reason>" for a station whose
 * last upload was refused (the real refused-upload unit in the pipeline), in
 * English and German, and hides the row again once a reading is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { MINUTE_MS } from '../../src/history/windows.js';
import { UploadRefusals } from '../../src/station/uploadRefusals.js';
import { Database } from '../../src/store/database.js';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { mqttTempDir, publishOnce, silentLogger, waitUntil } from '../helpers/mqttHarness.js';
import { startStationsHarness } from '../helpers/statusPage.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const DEADLINE_MS = 15_000;

const chromium = useChromium();
let refusalsDb: Database | undefined;
const temp = mqttTempDir();

beforeAll(async () => {
  refusalsDb = await Database.open(temp.dbPath);
});
afterAll(async () => {
  await refusalsDb?.close();
  temp.cleanup();
});

async function rowText(page: Page): Promise<string | null> {
  return page.$eval('#refused-row', (row) => ((row as HTMLElement).hidden ? null : row.textContent));
}

// Chromium and a daemon: 3.5 s on a quiet machine.
describe('status page: refused uploads', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  it('shows the reason while no reading was accepted after it, then hides it', async () => {
    let now = 0;
    const refusals = new UploadRefusals({ database: () => refusalsDb!, logger: silentLogger, now: () => now, saveIntervalMs: 60_000 });
    const h = await startStationsHarness({ statusPagePollMs: 150, units: [refusals] });
    chromium.afterTest(() => h.cleanup());
    now = h.clock.now();
    refusals.record({
      station: 'garden',
      protocol: 'wunderground',
      outcome: 'unparsable',
      reason: 'dateutc "2016-13-4 21:2:35" is not a UTC time',
      atMs: now,
    });
    h.daemon.service.recompute('garden');
    await waitUntil(() => h.daemon.service.stationState('garden')?.last_upload_refused !== undefined, 'the refusal in the state');
    const address = await h.listen();

    for (const language of ['en', 'de']) {
      const { page, problems } = await openWatchedPage(chromium.browser, { language });
      await page.goto(`${address}/stations/garden`);
      await page.waitForSelector('#refused-row:not([hidden])', { timeout: DEADLINE_MS });
      const text = await rowText(page);
      expect(text).toContain('dateutc "2016-13-4 21:2:35" is not a UTC time');
      expect(text).toContain(language === 'de' ? 'Letzter Upload abgelehnt' : 'Last upload refused');
      expect(text).toContain(
        language === 'de' ? '1 abgelehnt seit der letzten angenommenen Messung' : '1 refused since the last accepted reading',
      );
      expect(problems).toEqual([]);
      await page.close();
    }

    // An accepted reading: the state drops the key and the page hides the row.
    h.clock.advance(MINUTE_MS);
    now = h.clock.now();
    expect(
      await publishOnce(h.daemon.port, 'garden/weather', JSON.stringify({ temp: 17, rate: 0, hum: 55, wind: 5, rain: 0 }), { qos: 1 }),
    ).toBe('handled');
    await waitUntil(() => h.daemon.service.stationState('garden')?.last_upload_refused === undefined, 'the state without the refusal');
    const { page } = await openWatchedPage(chromium.browser);
    await page.goto(`${address}/stations/garden`);
    await page.waitForSelector('#station:not([hidden])', { timeout: DEADLINE_MS });
    await page.waitForFunction(() => document.querySelector('#index-value')?.textContent !== '–', { timeout: DEADLINE_MS });
    expect(await rowText(page)).toBeNull();
    await page.close();
  });
});
