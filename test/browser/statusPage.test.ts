/// <reference lib="dom" />
/**
 * The status page in real headless Chromium (Debian's package, puppeteer-core):
 * a station fed through the embedded broker shows up with its index and
 * checks, the charts draw it, a silent station turns offline without a
 * reload, and the page follows http.statusPage. Screenshots land in
 * test-artifacts/ and are checked for content.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { MINUTE_MS } from '../../src/history/windows.js';
import { addKey } from '../helpers/httpApp.js';
import { artifactPath, openWatchedPage, useChromium } from '../helpers/browser.js';
import { feedThroughBroker, startStationsHarness, type StationsHarness, type StationsHarnessOptions } from '../helpers/statusPage.js';

const POLL_MS = 150;
const DEADLINE_MS = 15_000;

const chromium = useChromium();

/** The pipeline and the HTTP app around one station, stopped after the test. */
async function startStations(options: StationsHarnessOptions): Promise<StationsHarness> {
  const h = await startStationsHarness(options);
  chromium.afterTest(() => h.cleanup());
  return h;
}

/** Publishes `count` readings, one with 0.6 mm of rain (so the rain chart has a bar). */
async function feed(h: StationsHarness, count: number): Promise<void> {
  await feedThroughBroker(h, count, (i) => ({ temp: 17 + i, rate: 0, hum: 55 + i, wind: 5, rain: i === 1 ? 0.6 : 0 }));
}

async function waitForText(page: Page, selector: string, expected: string): Promise<void> {
  await page.waitForFunction(
    (sel: string, text: string) => document.querySelector(sel)?.textContent?.includes(text) ?? false,
    { timeout: DEADLINE_MS },
    selector,
    expected,
  );
}

/** Pixels of the index chart's canvas close to the index line's colour (the bands and axes use other colours). */
async function lineColouredPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('#chart-index canvas')!;
    const line = getComputedStyle(document.documentElement).getPropertyValue('--line').trim();
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(line.slice(at, at + 2), 16));
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 40 && data[i + 3]! > 200) count++;
    }
    return count;
  });
}

/** Share of a PNG's pixels that differ from its most common colour, measured in a blank page's canvas. */
async function contentShare(png: Uint8Array): Promise<number> {
  const page = await chromium.browser.newPage();
  try {
    return await page.evaluate(async (base64: string) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const data = context.getImageData(0, 0, image.width, image.height).data;
      const counts = new Map<number, number>();
      for (let i = 0; i < data.length; i += 4) {
        const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const background = Math.max(...counts.values());
      return 1 - background / (data.length / 4);
    }, Buffer.from(png).toString('base64'));
  } finally {
    await page.close();
  }
}

describe('status page in Chromium', { timeout: 60_000 }, () => {
  it('shows a station fed through the embedded broker: index, checks, charts; no console errors; desktop and phone screenshots', async () => {
    const h = await startStations({ statusPagePollMs: POLL_MS });
    await feed(h, 6);
    const address = await h.listen();
    const state = h.daemon.service.stationState('garden')! as Record<string, any>;

    const { page, problems } = await openWatchedPage(chromium.browser);
    const response = await page.goto(`${address}/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await waitForText(page, '#index-value', String(state.index_score));
    await waitForText(page, '#station-name', 'Garden');
    expect(await page.$eval('#index-box', (element) => element.className)).toContain(state.main_status);
    expect(await page.$eval('#availability', (element) => element.textContent)).toBe('online');
    const checks = await page.$$eval('#checks > li', (items) => items.map((item) => item.textContent ?? ''));
    expect(checks).toHaveLength(5);
    // German reasons as the core wrote them (without their <b> markup), and emphasis where it had <b>.
    const firstReason = String(state.checks.temperature.reasons[0]).replace(/<\/?b>/g, '');
    expect(checks[0]).toContain(firstReason);
    const bold = Object.values(state.checks as Record<string, { reasons: string[] }>)
      .flatMap((check) => check.reasons)
      .some((reason) => reason.includes('<b>'));
    if (bold) expect(await page.$$eval('#checks strong', (elements) => elements.length)).toBeGreaterThan(0);
    await page.waitForFunction(() => document.querySelector('#chart-index canvas') !== null, { timeout: DEADLINE_MS });
    expect(await lineColouredPixels(page)).toBeGreaterThan(50);
    expect(await page.$$eval('.chart canvas', (canvases) => canvases.length)).toBe(4);
    expect(await page.$$eval('#chart-index .u-legend .u-label', (labels) => labels.map((label) => label.textContent))).toEqual(['Index']);

    // Keyboard: Tab reaches the range buttons; Enter picks 7 days, fetched at 1-hour steps.
    const historyRequest = page.waitForRequest((request) => request.url().includes('/history?hours=168&step=1h'), { timeout: DEADLINE_MS });
    await page.focus('#ranges button[data-hours="24"]');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.hours)).toBe('168');
    await page.keyboard.press('Enter');
    await historyRequest;
    await page.waitForSelector('#ranges button[data-hours="168"][aria-pressed="true"]', { timeout: DEADLINE_MS });
    await page.click('#ranges button[data-hours="48"]');
    await page.waitForSelector('#ranges button[data-hours="48"][aria-pressed="true"]', { timeout: DEADLINE_MS });

    const desktop = await page.screenshot({ path: artifactPath('status-page-desktop.png'), fullPage: true });
    expect(await contentShare(desktop)).toBeGreaterThan(0.05);
    const phone = await openWatchedPage(chromium.browser, { width: 390, height: 844, mobile: true, language: 'de-DE' });
    await phone.page.goto(`${address}/stations/garden`);
    await waitForText(phone.page, '#index-value', String(state.index_score));
    await phone.page.waitForFunction(() => document.querySelector('#chart-humidity canvas') !== null, { timeout: DEADLINE_MS });
    // UI labels follow the browser's language; a phone gets no horizontal scrolling.
    expect(await phone.page.$eval('#checks-title', (element) => element.textContent)).toBe('Prüfungen');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const phoneShot = await phone.page.screenshot({ path: artifactPath('status-page-phone.png'), fullPage: true });
    expect(await contentShare(phoneShot)).toBeGreaterThan(0.05);
    // Dark mode follows the system.
    const background = () => phone.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(await background()).toBe('rgb(255, 255, 255)');
    await phone.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    expect(await background()).toBe('rgb(13, 17, 23)');
    await phone.page.screenshot({ path: artifactPath('status-page-phone-dark.png'), fullPage: true });

    expect(problems).toEqual([]);
    expect(phone.problems).toEqual([]);
    await phone.page.close();
    await page.close();
  });

  it('turns a station that goes silent "offline" without a reload', async () => {
    const h = await startStations({ statusPagePollMs: POLL_MS, freshnessMinutes: 15 });
    await feed(h, 2);
    const address = await h.listen();
    const { page, problems } = await openWatchedPage(chromium.browser);
    await page.goto(`${address}/stations/garden`);
    await waitForText(page, '#availability', 'online');
    const loads = await page.evaluate(() => performance.getEntriesByType('navigation').length);
    h.clock.advance(16 * MINUTE_MS);
    await waitForText(page, '#availability', 'offline');
    expect(await page.$eval('#index-box', (element) => element.classList.contains('offline'))).toBe(true);
    await waitForText(page, '#last-reading', '16 min');
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loads);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the forecast window and draws the forecast hours when the state carries a forecast', async () => {
    const clockStart = Date.parse('2026-06-15T10:00:00Z');
    // A stand-in for the forecast unit: its state fragment, the members the page reads (the rest left out: cast).
    const forecast = {
      name: 'test-forecast',
      stateFragment: (_id: string, nowMs: number) =>
        ({
          forecast: {
            available: true,
            next_window: {
              start: new Date(nowMs + 3 * 3_600_000).toISOString(),
              end: new Date(nowMs + 6 * 3_600_000).toISOString(),
              min_index: 72,
            },
            rain_expected_in_minutes: 45,
            hours: Array.from({ length: 12 }, (_, hour) => ({
              time: new Date(nowMs + (hour + 1) * 3_600_000).toISOString(),
              index: 40 + hour * 4,
            })),
          },
        }) as never,
    };
    const h = await startStations({ statusPagePollMs: POLL_MS, units: [forecast], startMs: clockStart });
    await feed(h, 4);
    const address = await h.listen();
    const { page, problems } = await openWatchedPage(chromium.browser);
    await page.goto(`${address}/stations/garden`);
    await page.waitForSelector('#forecast:not([hidden])', { timeout: DEADLINE_MS });
    expect(await page.$eval('#forecast-window', (element) => element.textContent)).toMatch(
      /^Next mowing window: .+ – .+ \(index at least 72\)$/,
    );
    expect(await page.$eval('#forecast-rain', (element) => element.textContent)).toBe('Rain expected in 45 min.');
    // The legend names the dashed forecast series next to the index (without a forecast there is none).
    await page.waitForFunction(() => document.querySelectorAll('#chart-index .u-legend .u-series').length === 2, { timeout: DEADLINE_MS });
    expect(await page.$$eval('#chart-index .u-legend .u-label', (labels) => labels.map((label) => label.textContent))).toEqual([
      'Index',
      'Forecast',
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says "forecast unavailable" when the forecast was never received, not "no mowing window"', async () => {
    // The forecast unit's fragment before any forecast arrived (src/forecast/forecastReport.ts).
    const forecast = {
      name: 'test-forecast',
      stateFragment: () =>
        ({
          forecast: {
            available: false,
            fetched_at: null,
            stale: true,
            next_window: null,
            mowable_for_minutes: null,
            rain_expected_in_minutes: null,
            hours: [],
          },
        }) as never,
    };
    const h = await startStations({ statusPagePollMs: POLL_MS, units: [forecast] });
    await feed(h, 2);
    const address = await h.listen();
    const { page, problems } = await openWatchedPage(chromium.browser);
    await page.goto(`${address}/stations/garden`);
    await page.waitForSelector('#forecast:not([hidden])', { timeout: DEADLINE_MS });
    const text = await page.$eval('#forecast-window', (element) => element.textContent);
    expect(text).toMatch(/^Forecast unavailable/);
    expect(text).not.toContain('No mowing window');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders only <b> of a reason as markup; everything else stays text', async () => {
    const h = await startStations({ statusPagePollMs: POLL_MS });
    const address = await h.listen();
    const { page } = await openWatchedPage(chromium.browser);
    await page.goto(`${address}/`);
    const html = await page.evaluate(() => {
      const line = document.createElement('li');
      (window as unknown as { MowReasons: { render(container: Element, text: string): void } }).MowReasons.render(
        line,
        'Boden <b>nass</b> <img src=x onerror="document.title=1"><script>x()</script> & <B>fest',
      );
      return line.innerHTML;
    });
    expect(html).toBe(
      'Boden <strong>nass</strong> &lt;img src=x onerror="document.title=1"&gt;&lt;script&gt;x()&lt;/script&gt; &amp; <strong>fest</strong>',
    );
    await page.close();
  });

  it('http.statusPage=key: the page asks for a key, refuses a wrong one, shows the station with a right one', async () => {
    const h = await startStations({ statusPagePollMs: POLL_MS, env: { MOWABILITY_HTTP_STATUS_PAGE: 'key' } });
    await feed(h, 1);
    const { key } = await addKey(h.http, 'viewer');
    const address = await h.listen();
    const { page, problems } = await openWatchedPage(chromium.browser);
    await page.goto(`${address}/`);
    await page.waitForSelector('#key-form:not([hidden])', { timeout: DEADLINE_MS });
    expect(await page.$eval('#station', (element) => (element as HTMLElement).hidden)).toBe(true);
    await page.type('#key-input', 'not-a-key');
    await page.keyboard.press('Enter');
    await waitForText(page, '#key-error', 'not accepted');
    await page.$eval('#key-input', (element) => ((element as HTMLInputElement).value = ''));
    await page.type('#key-input', key);
    await page.keyboard.press('Enter');
    await waitForText(page, '#station-name', 'Garden');
    // The key stays in this browser: a reload needs no new prompt.
    await page.reload();
    await waitForText(page, '#station-name', 'Garden');
    expect(await page.$eval('#key-form', (element) => (element as HTMLElement).hidden)).toBe(true);
    // 401s of the wrong key are expected console noise of the browser's network log.
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it('http.statusPage=off: no page', async () => {
    const h = await startStations({ env: { MOWABILITY_HTTP_STATUS_PAGE: 'off' } });
    const address = await h.listen();
    const page = await chromium.browser.newPage();
    const response = await page.goto(`${address}/`);
    expect(response?.status()).toBe(404);
    await page.close();
  });

  it('transfers under 150 KB on the first visit (compressed), and records its timing under 4x CPU throttling', async () => {
    const h = await startStations({ statusPagePollMs: 60_000 });
    await feed(h, 3);
    const address = await h.listen();
    const { page, problems } = await openWatchedPage(chromium.browser);
    const session = await page.createCDPSession();
    await session.send('Network.enable');
    await session.send('Network.setCacheDisabled', { cacheDisabled: true });
    await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let encodedBytes = 0;
    session.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
      encodedBytes += event.encodedDataLength;
    });
    const started = Date.now();
    await page.goto(`${address}/`);
    await page.waitForFunction(() => document.querySelector('#chart-humidity canvas') !== null, { timeout: DEADLINE_MS, polling: 20 });
    const renderedMs = Date.now() - started;
    const timing = await page.evaluate(() => ({
      firstContentfulPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      // From navigation start (performance.mark in app.js): script running, index and checks shown, charts drawn too.
      scriptMs: performance.getEntriesByName('mowability:script')[0]?.startTime ?? null,
      stationShownMs: performance.getEntriesByName('mowability:station')[0]?.startTime ?? null,
      renderedMs: performance.getEntriesByName('mowability:rendered')[0]?.startTime ?? null,
    }));
    writeFileSync(
      artifactPath('status-page-metrics.json'),
      `${JSON.stringify({ transferBytes: encodedBytes, ...timing, observedByTestMs: renderedMs, cpuThrottling: 4 }, null, 2)}\n`,
    );
    expect(timing.renderedMs).not.toBeNull();
    expect(encodedBytes).toBeGreaterThan(10_000);
    expect(encodedBytes).toBeLessThan(150 * 1024);
    expect(problems).toEqual([]);
    await page.close();
  });
});
