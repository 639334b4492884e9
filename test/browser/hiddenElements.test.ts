/// <reference lib="dom" />
/**
 * What a person sees, not what the DOM says: real headless Chromium renders the whole daemon's
 * page for a measured, a modelled, a refused-upload and an offline station, in English and in
 * German, and every element a station's state can hide (the modelled badge, the source note, the
 * refused-upload row, the forecast, the calculation error, the key form) is measured by its
 * computed style and its boxes. An element with the `hidden` attribute must take no space and
 * show no text, whatever the stylesheet's other rules say (a `.badge` or `.facts div` rule that
 * sets `display` would otherwise win over the browser's default `[hidden]` rule), and the ones
 * the state shows must be there to see. A screenshot of each station lands in test-artifacts/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { artifactPath, openWatchedPage, useChromium } from '../helpers/browser.js';
import { FakeClock, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { wundergroundRequest } from '../helpers/uploadPayloads.js';
import { wundergroundStation } from '../helpers/uploadStations.js';
import { useFakeOpenMeteo } from '../modelled/fakeModelledServer.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const DEADLINE_MS = 20_000;
const NOW = Date.parse('2026-06-15T10:20:00Z');
const WU_PASSWORD = 'hidden-test-password';

/** The elements the page shows or hides by a station's state. */
const STATE_HIDDEN = ['#origin', '#source-message', '#topics-heard', '#refused-row', '#forecast', '#calc-error', '#key-form'] as const;

const clock = new FakeClock(NOW);
const openMeteo = useFakeOpenMeteo(clock, NOW);
const chromium = useChromium();

interface Seen {
  selector: string;
  hiddenAttribute: boolean;
  display: string;
  /** Width × height of the element's boxes, summed. */
  area: number;
  /** The browser's own answer (Element.checkVisibility: rendered, not visibility:hidden, not transparent). */
  visible: boolean;
  text: string;
}

async function measure(page: Page, selectors: readonly string[]): Promise<Seen[]> {
  return page.evaluate(
    (list: string[]) =>
      list.map((selector) => {
        const element = document.querySelector<HTMLElement>(selector)!;
        const area = Array.from(element.getClientRects()).reduce((sum, rect) => sum + rect.width * rect.height, 0);
        return {
          selector,
          hiddenAttribute: element.hidden,
          display: getComputedStyle(element).display,
          area,
          visible: element.checkVisibility({ visibilityProperty: true, opacityProperty: true }),
          text: element.innerText.trim(),
        };
      }),
    [...selectors],
  );
}

/** Every element in the page that carries `hidden`, with what of it is rendered. */
async function renderedHidden(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[hidden]'))
      .filter((element) => getComputedStyle(element).display !== 'none' || element.getClientRects().length > 0)
      .map((element) => `${element.id || element.tagName}: display ${getComputedStyle(element).display}`),
  );
}

const STATIONS = [
  {
    id: 'garden',
    name: 'Garden',
    format: 'json',
    topic: 'garden/weather',
    fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum' },
  },
  { id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41 } },
  wundergroundStation('pws', 'KXXTEST1', WU_PASSWORD, 'PWS'),
  { id: 'shed', name: 'Shed', format: 'json', topic: 'shed/weather', fields: { temperature: 'temp', precipitation_rate: 'rate' } },
];

/** What each station's state shows: the rest of STATE_HIDDEN must be invisible. */
const SHOWN: Record<string, readonly string[]> = {
  garden: [],
  home: ['#origin', '#source-message', '#forecast'],
  pws: ['#refused-row'],
  shed: ['#calc-error'],
};

describe('status page: hidden means unseen', { timeout: SLOW_TEST_TIMEOUT_MS * 2 }, () => {
  it("shows exactly what each station's state shows, in both languages", async () => {
    const temp = openMeteo.temp;
    const daemon = await startOpenMeteoDaemon({ temp, stations: STATIONS, openMeteoUrl: openMeteo.fake.baseUrl, clock });
    chromium.afterTest(() => daemon.stop());
    const side = daemon.station;
    side.acceptReading(
      'garden',
      { values: { temperature: 20, precipitation_rate: 0, humidity: 60 }, rainCounters: [], fingerprint: 'garden', dropped: [] },
      'test',
    );
    const accepted = await fetch(
      `${daemon.httpAddress}${wundergroundRequest('wunderground-get__wu-protocol__sample.txt', { ID: 'KXXTEST1', PASSWORD: WU_PASSWORD, dateutc: 'now' })}`,
    );
    expect(accepted.status).toBe(200);
    await waitUntil(() => side.stationState('pws')?.last_reading_at !== undefined, 'the accepted upload', DEADLINE_MS);
    clock.advance(60_000);
    const refused = await fetch(
      `${daemon.httpAddress}${wundergroundRequest('wunderground-get__wu-protocol__sample.txt', { ID: 'KXXTEST1', PASSWORD: WU_PASSWORD, dateutc: '2016-13-4 21:2:35' })}`,
    );
    expect(refused.status).toBe(200);
    await waitUntil(() => typeof side.stationState('home')?.index_score === 'number', 'the modelled index', DEADLINE_MS);
    await waitUntil(() => typeof side.stationState('garden')?.index_score === 'number', 'the measured index', DEADLINE_MS);
    await waitUntil(() => side.stationState('pws')?.last_upload_refused !== undefined, 'the refused upload', DEADLINE_MS);

    for (const language of ['en', 'de']) {
      const { page, problems } = await openWatchedPage(chromium.browser, { language });
      for (const station of STATIONS) {
        await page.goto(`${daemon.httpAddress}/stations/${station.id}`);
        await page.waitForFunction(
          (name: string) =>
            document.querySelector('#station-name')?.textContent === name && document.querySelector('#availability')?.textContent !== '',
          { timeout: DEADLINE_MS },
          station.name,
        );
        const availability = await page.$eval('#availability', (element) => element.className);
        expect(availability, `${language} ${station.id}`).toBe(station.id === 'shed' ? 'badge offline' : 'badge online');
        const seen = await measure(page, STATE_HIDDEN);
        const shown = SHOWN[station.id]!;
        for (const element of seen) {
          const label = `${language} ${station.id} ${element.selector}`;
          if (shown.includes(element.selector)) {
            expect(element.hiddenAttribute, label).toBe(false);
            expect(element.visible, label).toBe(true);
            expect(element.area, label).toBeGreaterThan(0);
            expect(element.text, label).not.toBe('');
          } else {
            expect({ label, display: element.display, area: element.area, visible: element.visible }).toEqual({
              label,
              display: 'none',
              area: 0,
              visible: false,
            });
          }
        }
        expect(await renderedHidden(page), `${language} ${station.id}`).toEqual([]);
        await page.screenshot({ path: artifactPath(`hidden-${station.id}-${language}.png`), fullPage: true });
      }
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
