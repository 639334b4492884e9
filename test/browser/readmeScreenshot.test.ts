/// <reference lib="dom" />
/**
 * The README's picture of the week plan, and the check that it shows one: a station with six hours of
 * readings and a plan (a stand-in for the planner unit, as in ./planStrip.test.ts) rendered in real
 * Chromium at 1366 px, cut below the week strip. `npm run screenshot:plan` writes it to docs/plan.png
 * (PLAN_SCREENSHOT names the file); a plain test run writes it to test-artifacts/ only.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { samplePlan, samplePlanState } from '../../bench/lib/samplePlan.js';
import type { StationUnit } from '../../src/station/unit.js';
import { artifactPath, openWatchedPage, useChromium } from '../helpers/browser.js';
import { feedThroughBroker, startStationsHarness } from '../helpers/statusPage.js';

/** A Monday morning in June; six hours of readings later it is 12:00 in Berlin. */
const START_MS = Date.parse('2026-06-15T04:00:00Z');
const READINGS = 36;
const PLANNED_AT_MS = START_MS + READINGS * 10 * 60_000;

const chromium = useChromium();

describe('the README screenshot of the week plan', { timeout: 120_000 }, () => {
  it('renders the page with a plan and writes the picture', async () => {
    const planner: StationUnit = {
      name: 'readme-planner',
      stateFragment: (_station, nowMs) => ({ plan: samplePlanState([samplePlan('garden', PLANNED_AT_MS)], nowMs) }),
    };
    const h = await startStationsHarness({ statusPagePollMs: 600_000, units: [planner], startMs: START_MS });
    chromium.afterTest(() => h.cleanup());
    // A dry morning warming up.
    await feedThroughBroker(h, READINGS, (i) => ({ temp: 11 + i / 3, rate: 0, hum: 88 - i, wind: 4 + (i % 5), rain: 0 }));
    const address = await h.listen();

    const { page, problems } = await openWatchedPage(chromium.browser, { width: 1366, height: 1000, language: 'en-GB' });
    await page.emulateTimezone('Europe/Berlin');
    await page.goto(`${address}/stations/garden`);
    await page.waitForSelector('#plan:not([hidden]) .plan-day', { timeout: 15_000 });
    await page.waitForFunction(() => document.querySelector('#chart-humidity canvas') !== null, { timeout: 15_000 });
    const bottom = await page.evaluate(() =>
      Math.ceil(document.getElementById('plan')!.getBoundingClientRect().bottom + window.scrollY + 16),
    );
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 1366, height: bottom }, captureBeyondViewport: true });
    writeFileSync(artifactPath('plan.png'), png);
    if (process.env.PLAN_SCREENSHOT) writeFileSync(process.env.PLAN_SCREENSHOT, png);

    // What the picture is for: the week strip with its slots, under the station's overview.
    expect(await page.$eval('#plan', (element) => (element as HTMLElement).innerText)).toContain('today, Mon, 6/15');
    expect(await page.$$eval('.plan-slot', (slots) => slots.length)).toBe(4);
    expect(Buffer.from(png).readUInt32BE(16)).toBe(1366);
    expect(Buffer.from(png).readUInt32BE(20)).toBe(bottom);
    expect(problems).toEqual([]);
    await page.close();
  });
});
