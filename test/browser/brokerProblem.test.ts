/// <reference lib="dom" />
/**
 * The MQTT side's trouble on the status page, in real headless Chromium: with a wrong password
 * for a real Mosquitto (allow_anonymous false, a password file) the page shows /health's line
 * naming the setting above the station; with the broker fine the line is not shown (checked by
 * what a person sees: computed display and size, not only the attribute).
 */
import { describe, expect } from 'vitest';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { startSecureMosquitto } from '../helpers/secureMosquitto.js';

const DEADLINE_MS = 20_000;
const chromium = useChromium();
const station = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 't' } };

/** Whether #broker-problem takes space on the page, and its text. */
async function bannerSeen(page: import('puppeteer-core').Page): Promise<{ seen: boolean; text: string }> {
  return page.$eval('#broker-problem', (element) => {
    const box = element.getBoundingClientRect();
    return { seen: getComputedStyle(element).display !== 'none' && box.height > 0 && box.width > 0, text: element.textContent ?? '' };
  });
}

describe("the broker's trouble on the status page", { timeout: 60_000 }, () => {
  it('a refused login is shown with the setting to fix; a working broker shows nothing', { timeout: 60_000 }, async ({ mqtt }) => {
    const broker = await startSecureMosquitto(mqtt.dir, { accounts: { mowability: 'right' } });
    mqtt.defer(() => broker.stop('SIGKILL'));
    const env = {
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_BROKER_ENABLED: 'false',
      MOWABILITY_MQTT_URL: `mqtt://127.0.0.1:${broker.port}`,
      MOWABILITY_MQTT_USERNAME: 'mowability',
    };
    const wrong = await mqtt.serve({ stations: [station] }, { logLevel: 'warn', env: { ...env, MOWABILITY_MQTT_PASSWORD: 'wrong' } });
    const { page, problems } = await openWatchedPage(chromium.browser);
    await page.goto(`${wrong.httpAddress}/`);
    await page.waitForFunction(() => /refused the login/.test(document.querySelector('#broker-problem')?.textContent ?? ''), {
      timeout: DEADLINE_MS,
    });
    const shown = await bannerSeen(page);
    expect(shown.seen).toBe(true);
    expect(shown.text).toMatch(
      /^MQTT: not connected to the external broker \(mqtt\.url\): the broker refused the login \("not authorized"\): check mqtt\.username and the password \(MOWABILITY_MQTT_PASSWORD/,
    );
    // The German page says it in German, with the daemon's English line after it, marked lang="en".
    const german = await openWatchedPage(chromium.browser, { language: 'de-DE' });
    await german.page.goto(`${wrong.httpAddress}/`);
    await german.page.waitForFunction(() => !(document.querySelector('#broker-problem') as HTMLElement | null)?.hidden, {
      timeout: DEADLINE_MS,
    });
    const inGerman = await german.page.$eval('#broker-problem', (element) => ({
      text: element.textContent ?? '',
      english: element.querySelector('span[lang="en"]')?.textContent ?? '',
    }));
    expect(inGerman.text).toMatch(/^MQTT: Keine Verbindung zum Broker; neuer Versuch läuft im Hintergrund\. /);
    expect(inGerman.english).toMatch(/^not connected to the external broker \(mqtt\.url\): the broker refused the login/);
    expect(german.problems).toEqual([]);
    await german.page.close();
    await wrong.daemon.stop();

    const right = await mqtt.serve({ stations: [station] }, { logLevel: 'warn', env: { ...env, MOWABILITY_MQTT_PASSWORD: 'right' } });
    await waitUntil(
      async () =>
        ((await (await fetch(`${right.httpAddress}/health`)).json()) as { mfi: { checks: { mqtt?: { status: string } } } }).mfi.checks.mqtt
          ?.status === 'ok',
      'connected',
      DEADLINE_MS,
    );
    await page.goto(`${right.httpAddress}/`);
    await page.waitForFunction(() => document.querySelector('#station-name')?.textContent === 'Garden', { timeout: DEADLINE_MS });
    // The page asked /health along with the stations: once it has rendered, the banner is decided.
    await page.waitForFunction(() => document.body.dataset.updated !== undefined, { timeout: DEADLINE_MS });
    expect(await bannerSeen(page)).toEqual({ seen: false, text: '' });
    expect(problems).toEqual([]);
    await page.close();
  });
});
