/// <reference lib="dom" />
/**
 * What a user with only a location sees on the status page while Open-Meteo is unreachable, in real
 * headless Chromium, in English and German: the provider line names the outage and since when, the
 * "Missing" row does not say "not measured by the station", and the mowable reason is the outage,
 * not the night ban (the clock stands at 21:40 in Berlin in December, the browser in Berlin too).
 */
import { describe, expect, it } from 'vitest';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { FakeClock, mqttTempDir, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { FakeModelledServer } from '../modelled/fakeModelledServer.js';

const EVENING = Date.parse('2026-12-15T20:40:00Z');
const chromium = useChromium();

describe('the status page while Open-Meteo is unreachable', () => {
  it('says the outage once, with its time, in English and German', { timeout: 90_000 }, async () => {
    const temp = mqttTempDir();
    const clock = new FakeClock(EVENING);
    const fake = await FakeModelledServer.start(() => clock.now());
    fake.fallback = { kind: 'status', status: 503 };
    chromium.afterTest(() => temp.cleanup());
    chromium.afterTest(() => fake.close());
    const stations = [{ id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41 } }];
    const daemon = await startOpenMeteoDaemon({
      temp,
      stations,
      openMeteoUrl: fake.baseUrl,
      clock,
      env: { MOWABILITY_TIMEZONE: 'Europe/Berlin' },
    });
    chromium.afterTest(() => daemon.stop());
    await waitUntil(
      () =>
        (daemon.station.stationState('home') as { modelled?: { status: string } } | undefined)?.modelled?.status ===
        'no_data_provider_unreachable',
      'the outage',
      15_000,
    );

    const expected = {
      'en-GB': {
        source: 'No data yet: the weather provider Open-Meteo is unreachable since 21:40, retrying. (HTTP 503)',
        reason: 'the weather provider Open-Meteo is unreachable since 21:40, retrying',
        reasonDe: 'der Wetterdienst Open-Meteo ist seit 21:40 nicht erreichbar, neuer Versuch läuft',
        missing: 'No current value: temperature and rain rate.',
      },
      'de-DE': {
        source: 'Noch keine Daten: Der Wetterdienst Open-Meteo ist seit 21:40 nicht erreichbar, neuer Versuch läuft. (HTTP 503)',
        reason: 'der Wetterdienst Open-Meteo ist seit 21:40 nicht erreichbar, neuer Versuch läuft',
        reasonDe: 'der Wetterdienst Open-Meteo ist seit 21:40 nicht erreichbar, neuer Versuch läuft',
        missing: 'Kein aktueller Wert: Temperatur und Regenrate.',
      },
    };
    for (const [language, texts] of Object.entries(expected)) {
      const { page, problems } = await openWatchedPage(chromium.browser, { language });
      await page.emulateTimezone('Europe/Berlin');
      await page.goto(`${daemon.httpAddress}/stations/home`);
      await page.waitForSelector('#source-message:not([hidden])', { timeout: 15_000 });
      const text = (selector: string) => page.$eval(selector, (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim());
      expect(await text('#source-message')).toBe(texts.source);
      expect([texts.reason, texts.reasonDe]).toContain(await text('#mowable-reason'));
      expect(await text('#missing')).toBe(texts.missing);
      expect(await page.$eval('body', (element) => element.textContent ?? '')).not.toMatch(
        /not measured by the station|Von der Station nicht gemessen|night ban|Nachtverbot/,
      );
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
