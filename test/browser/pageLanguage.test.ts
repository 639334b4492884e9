/// <reference lib="dom" />
/**
 * The status page speaks one language: real headless Chromium renders a new station's page in
 * German and in English, and a walk over every visible text node fails on a word of the other
 * language. On the English page only the model's reasons may be German (the API contract: they
 * are marked lang="de" and the footer says so); on the German page nothing is exempt. The
 * "Missing" row of a new station is one sentence, not raw field names and English reasons.
 * The daemon's English words for a refused upload and a modelled station's provider status are
 * said from their codes; only a technical detail (the date an upload's time could not be read
 * from, the provider's error) stays English, marked lang="en".
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { MINUTE_MS } from '../../src/history/windows.js';
import { UploadRefusals } from '../../src/station/uploadRefusals.js';
import type { StationUnit } from '../../src/station/unit.js';
import { Database } from '../../src/store/database.js';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { FakeClock, mqttTempDir, silentLogger, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { feedThroughBroker, GARDEN, startStationsHarness, type StationsHarness } from '../helpers/statusPage.js';
import { FakeModelledServer } from '../modelled/fakeModelledServer.js';

/** Words that belong to one language only (the brand, units, „Index“, „Wind“, „online“ are both). */
const ENGLISH = new Set(
  (
    'the is and of history covers needed status no yes not reading readings missing last hours days minutes rain temperature humidity dew point ' +
    'since above below waiting stayed quiet night ban forecast checks score evaluated measured gusts soil sunshine time range skip content nothing unknown full ' +
    'partial ago expected window mowable mowing blades wet dry block warning far lowest flag could calculated inputs stale'
  ).split(' '),
);
const GERMAN = new Set(
  (
    'der die das und ist nicht nein ja seit für werden gebraucht bisher daten stunden tage tagen minuten regen temperatur luftfeuchte taupunkt ' +
    'letzte messung fehlt prüfungen verlauf zeitraum mähbar vorhersage gemessen böen überblick zeit zum inhalt begründungen deutsch gesperrt liegt unter ' +
    'darüber sonntag ruhezeit bewertet sperre warnung punkte teilweise vollständig unbekannt regenrate tiefsttemperatur schwelle freigabe sobald'
  ).split(' '),
);

const chromium = useChromium();

/** Every visible text node's text, with the language it is marked in (the nearest lang attribute). */
async function visibleTexts(page: Page): Promise<Array<{ text: string; lang: string }>> {
  return page.evaluate(() => {
    const found: Array<{ text: string; lang: string }> = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const element = node.parentElement;
      if (text === '' || !element) continue;
      const style = getComputedStyle(element);
      if (element.getClientRects().length === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
      found.push({ text, lang: element.closest('[lang]')?.getAttribute('lang') ?? '' });
    }
    return found;
  });
}

/** The words of `texts` that are in `foreign`, the station's configured name taken out. */
function foreignWords(texts: ReadonlyArray<{ text: string; lang: string }>, foreign: ReadonlySet<string>, exemptLang?: string): string[] {
  return texts
    .filter((entry) => entry.lang !== exemptLang)
    .flatMap(
      (entry) =>
        entry.text
          .replaceAll(GARDEN.name, '')
          .toLowerCase()
          .match(/\p{L}+/gu) ?? [],
    )
    .filter((word) => foreign.has(word));
}

async function newStation(units: readonly StationUnit[] = []): Promise<{ h: StationsHarness; address: string }> {
  const h = await startStationsHarness({ statusPagePollMs: 150, units });
  chromium.afterTest(() => h.cleanup());
  // Two hours of a new station's readings, every 10 minutes.
  await feedThroughBroker(h, 13, (i) => ({ temp: 17 + i / 4, rate: 0, hum: 60, wind: 5, rain: 0 }));
  return { h, address: await h.listen() };
}

async function render(address: string, language: string, station = 'garden'): Promise<{ page: Page; problems: string[] }> {
  const watched = await openWatchedPage(chromium.browser, { language });
  await watched.page.goto(`${address}/stations/${station}`);
  await watched.page.waitForFunction(
    () => document.body.dataset.updated !== undefined && document.querySelector('#chart-index canvas') !== null,
    { timeout: 15_000 },
  );
  return watched;
}

describe('the status page in one language', () => {
  it('German: every visible text is German, and the Missing row is one sentence', async () => {
    const station = await newStation();
    const { page, problems } = await render(station.address, 'de-DE');
    const texts = await visibleTexts(page);
    expect(texts.map((entry) => entry.text).join(' ')).toContain('Mähbar');
    expect(foreignWords(texts, ENGLISH)).toEqual([]);
    const missing = await page.$eval('#missing', (element) => element.textContent ?? '');
    expect(missing).toMatch(/^Seit 2 Stunden Daten; für Regen- und Temperaturverläufe werden 14 Tage gebraucht \(bisher 0 %\)\./);
    expect(missing).toContain('Von der Station nicht gemessen: ');
    expect(missing).not.toMatch(/rain_|min_temp|history covers/);
    // Each fact once: no window is listed on its own.
    expect(missing.match(/%/g)).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('English: every visible text is English, except the model\'s reasons marked lang="de"', async () => {
    const station = await newStation();
    const { page, problems } = await render(station.address, 'en-GB');
    const texts = await visibleTexts(page);
    expect(texts.map((entry) => entry.text).join(' ')).toContain('Mowable');
    expect(foreignWords(texts, GERMAN, 'de')).toEqual([]);
    // The exemption is used: the German reasons are there, and only inside lang="de".
    expect(foreignWords(texts, GERMAN).length).toBeGreaterThan(0);
    const missing = await page.$eval('#missing', (element) => element.textContent ?? '');
    expect(missing).toMatch(/^Readings for 2 hours so far; the rain and temperature history needs 14 days \(0 % so far\)\./);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('German: a refused upload is said in German, its unreadable date marked lang="en"', async () => {
    const temp = mqttTempDir();
    const db = await Database.open(temp.dbPath);
    chromium.afterTest(() => temp.cleanup());
    chromium.afterTest(() => db.close());
    let now = (): number => 0;
    const refusals = new UploadRefusals({ database: () => db, logger: silentLogger, now: () => now(), saveIntervalMs: 60_000 });
    const station = await newStation([refusals]);
    const h = station.h;
    now = () => h.clock.now();
    h.clock.advance(MINUTE_MS);
    refusals.record({
      station: 'garden',
      protocol: 'wunderground',
      outcome: 'unparsable',
      reason: 'dateutc "2016-13-4 21:2:35" is not a UTC time',
      atMs: h.clock.now(),
    });
    h.daemon.service.recompute('garden');
    await waitUntil(() => h.daemon.service.stationState('garden')?.last_upload_refused !== undefined, 'the refusal in the state');

    const { page, problems } = await render(station.address, 'de-DE');
    await page.waitForSelector('#refused-row:not([hidden])', { timeout: 15_000 });
    const texts = await visibleTexts(page);
    expect(foreignWords(texts, ENGLISH, 'en')).toEqual([]);
    expect(await page.$eval('#upload-refused', (element) => element.textContent ?? '')).toMatch(
      /^Der Upload enthielt keine verwertbare Messung\. dateutc "2016-13-4 21:2:35" is not a UTC time \(vor /,
    );
    expect(await page.$eval('#upload-refused [lang="en"]', (element) => element.textContent)).toBe(
      'dateutc "2016-13-4 21:2:35" is not a UTC time',
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('German: why there is no index is said from the error\'s code; an unknown code\'s English message only marked lang="en"', async () => {
    // A state whose error carries a code this page does not know (a newer daemon's), beside the English message the API keeps.
    const message = 'the soil probe reported a value the model could not use';
    const newer: StationUnit = {
      name: 'newer',
      stateFragment: () => ({ error: { code: 'SOMETHING_NEW', message, missing: [] } }) as never,
    };
    const station = await newStation([newer]);
    const { page, problems } = await render(station.address, 'de-DE');
    await page.waitForSelector('#calc-error:not([hidden])', { timeout: 15_000 });
    expect(foreignWords(await visibleTexts(page), ENGLISH, 'en')).toEqual([]);
    expect(await page.$eval('#calc-error', (element) => element.textContent)).toBe(`Kein Index berechenbar. ${message}`);
    expect(await page.$eval('#calc-error [lang="en"]', (element) => element.textContent)).toBe(message);
    const api = await fetch(`${station.address}/v1/stations/garden`);
    expect(((await api.json()) as { station: { error: unknown } }).station.error).toEqual({ code: 'SOMETHING_NEW', message, missing: [] });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("German: a modelled station's provider status is said in German", { timeout: 60_000 }, async () => {
    const temp = mqttTempDir();
    const clock = new FakeClock(Date.parse('2026-06-15T10:20:00Z'));
    const fake = await FakeModelledServer.start(() => clock.now());
    chromium.afterTest(() => temp.cleanup());
    chromium.afterTest(() => fake.close());
    const stations = [{ id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41 } }];
    const daemon = await startOpenMeteoDaemon({ temp, stations, openMeteoUrl: fake.baseUrl, clock });
    chromium.afterTest(() => daemon.stop());
    await waitUntil(() => typeof daemon.station.stationState('home')?.index_score === 'number', 'the modelled index', 15_000);

    const { page, problems } = await render(daemon.httpAddress, 'de-DE', 'home');
    await page.waitForSelector('#source-message:not([hidden])', { timeout: 15_000 });
    expect(foreignWords(await visibleTexts(page), ENGLISH, 'en')).toEqual([]);
    expect(await page.$eval('#source-message', (element) => element.textContent)).toBe('Modelliert von Open-Meteo (nicht gemessen).');
    expect(problems).toEqual([]);
    await page.close();
  });
});
