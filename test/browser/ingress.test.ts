/// <reference lib="dom" />
/**
 * The status page inside Home Assistant: loaded through the ingress proxy of a fake Supervisor
 * (test/helpers/fakeSupervisor.ts: `/api/hassio_ingress/<token>/…` → the daemon with X-Ingress-Path)
 * in Chromium, the station page opened by its link: every file, endpoint and link stays under the
 * prefix, nothing fails, and the charts and index show as outside ingress.
 */
import { describe, expect, it } from 'vitest';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { berlinCoreConfig, FakeSupervisor } from '../helpers/fakeSupervisor.js';
import { feedThroughBroker, startStationsHarness } from '../helpers/statusPage.js';

const chromium = useChromium();

describe('status page through Home Assistant ingress', () => {
  it('loads every file and endpoint under the ingress prefix, follows the station link under it, with no failed request', async () => {
    const h = await startStationsHarness({ env: { MOWABILITY_HTTP_INGRESS_PROXY: '127.0.0.1' }, statusPagePollMs: 150 });
    chromium.afterTest(() => h.cleanup());
    await feedThroughBroker(h, 3, (i) => ({ temp: 17 + i, rate: 0, hum: 55 + i, wind: 5, rain: 0 }));
    const address = new URL(await h.listen());
    const supervisor = await FakeSupervisor.start({ token: 't', mqtt: undefined, core: berlinCoreConfig() });
    chromium.afterTest(() => supervisor.stop());
    supervisor.ingressTarget = { host: address.hostname, port: Number(address.port) };
    const prefix = new URL(supervisor.ingressUrl).pathname.replace(/\/$/, '');

    const { page, problems } = await openWatchedPage(chromium.browser);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(supervisor.ingressUrl, { waitUntil: 'load' });
    await page.waitForSelector('#station-list li a', { timeout: 15_000 });
    const link = await page.$eval('#station-list li a', (element) => (element as HTMLAnchorElement).pathname);
    expect(link).toBe(`${prefix}/stations/garden`);
    // The list is re-rendered on every poll: click inside the page, in one step.
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.evaluate(() => document.querySelector<HTMLAnchorElement>('#station-list li a')!.click()),
    ]);
    await page.waitForFunction(
      (path: string) => performance.getEntriesByType('resource').some((entry) => entry.name.includes(`${path}/v1/stations/garden`)),
      { timeout: 15_000 },
      prefix,
    );
    expect(requested.filter((path) => !path.startsWith(`${prefix}/`))).toEqual([]);
    expect(requested).toEqual(
      expect.arrayContaining([
        `${prefix}/stations/garden`,
        `${prefix}/v1/stations`,
        `${prefix}/v1/stations/garden`,
        `${prefix}/health`,
        expect.stringMatching(/\/assets\/app\.js$/),
      ]),
    );
    expect(problems).toEqual([]);
  }, 60_000);
});
