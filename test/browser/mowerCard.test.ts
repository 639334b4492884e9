/// <reference lib="dom" />
/**
 * The robot mower card on the status page, in real headless Chromium at a phone's 390 px and a
 * laptop's 1366 px, in English and German: what a person reads there — automatic mowing on or off,
 * the mower's activity, the last decision's reason in the page's language, an alert, the API calls
 * left, and today's and the last runs with who started them, start and end, minutes mowing and the
 * outcome with its reason. The card reads the station's state (the mower control's `mower_control`),
 * fed by a real mower control unit with its run ledger in the daemon's SQLite database.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { controlConfigOf } from '../../src/mower/controlConfig.js';
import { MowerControlUnit } from '../../src/mower/mowerControlUnit.js';
import { RunLedger } from '../../src/mower/runLedger.js';
import { Database } from '../../src/store/database.js';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { mqttTempDir, silentLogger, waitUntil } from '../helpers/mqttHarness.js';
import { gardenMowerControl, SimulatedMower } from '../helpers/mowerSimulators.js';
import { feedThroughBroker, startStationsHarness } from '../helpers/statusPage.js';
import { MowerRunStore } from '../../src/store/mowerRunStore.js';

const chromium = useChromium();
/** The harness's clock starts at 10:00 UTC on Monday 15 June 2026. */
const at = (iso: string) => Date.parse(iso);

/** The ledger before the daemon starts: a completed run this morning, and yesterday's run docked for rain. */
async function seedLedger(dbPath: string): Promise<void> {
  const database = await Database.open(dbPath);
  const ledger = new RunLedger({ store: new MowerRunStore(database), lawn: 'garden', station: 'garden', timeZone: 'UTC' });
  await ledger.load(at('2026-06-15T10:00:00Z'));
  await ledger.openRun('user', at('2026-06-14T15:00:00Z'));
  await ledger.closeRun(at('2026-06-14T15:40:00Z'), 38, 'docked_for_rain', { en: 'docking: it is raining', de: 'Parken: es regnet' });
  await ledger.openRun('daemon', at('2026-06-15T06:00:00Z'));
  await ledger.closeRun(at('2026-06-15T07:30:00Z'), 85, 'completed', { en: 'the run is done', de: 'Der Lauf ist fertig' });
  // One call an hour ago: the budget of one a day is spent.
  await ledger.recordCall('start', at('2026-06-15T06:00:00Z'));
  await database.close();
}

async function startWithMower() {
  const temp = mqttTempDir();
  await seedLedger(temp.dbPath);
  let unit: MowerControlUnit | undefined;
  const h = await startStationsHarness({
    dbPath: temp.dbPath,
    statusPagePollMs: 150,
    unitsOf: (database, clock) => {
      unit = gardenMowerControl(
        {
          enabled: true,
          dryRun: false,
          kind: 'mqtt',
          runMinutes: 90,
          budget: { perDay: 1, perWeek: 5 },
          mqtt: {
            commandTopic: 'm/set',
            stateTopic: 'm/state',
            payloads: { start: 's', dock: 'd', pause: 'p' },
            states: { mowing: ['mowing'], docked: ['docked'] },
          },
        },
        { store: database, clock, adapterFor: () => new SimulatedMower() },
      );
      return [unit];
    },
  });
  chromium.afterTest(async () => {
    await h.cleanup();
    temp.cleanup();
  });
  // Readings through the broker: the pipeline's states carry the control's status; no forecast, so no start.
  await feedThroughBroker(h, 2);
  const controller = unit!.controller('garden')!;
  await waitUntil(() => controller.status(h.clock.now()).activity === 'docked', 'the mower reported docked');
  await unit!.tickAll();
  // "Dock now" with the day's one call used: the budget alert, never an extra call.
  await controller.dockNow();
  await waitUntil(() => controller.status(h.clock.now()).alert?.code === 'budget_spent', 'the budget alert');
  await feedThroughBroker(h, 1);
  return { address: await h.listen(), controller, h };
}

/** The card's visible text, as a person reads it (innerText leaves hidden parts out). */
const cardText = (page: Page) => page.$eval('#mower', (element) => (element as HTMLElement).innerText);

async function open(address: string, language: string, width: number): Promise<{ page: Page; problems: string[] }> {
  const watched = await openWatchedPage(chromium.browser, { language, width, height: 900, mobile: width < 500 });
  await watched.page.emulateTimezone('UTC');
  await watched.page.goto(`${address}/stations/garden`);
  await watched.page.waitForFunction(() => !(document.getElementById('mower') as HTMLElement).hidden, { timeout: 15_000 });
  await watched.page.waitForFunction(() => document.getElementById('mower-alert')?.hidden === false, { timeout: 15_000 });
  return watched;
}

/** The page fits the viewport: nothing scrolls sideways. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('the robot mower card on the status page', () => {
  it("shows the switch, the decision, the alert, the budget and today's and the last runs, in English at 1366 px and in German at 390 px", async () => {
    const { address, controller, h } = await startWithMower();

    const english = await open(address, 'en-GB', 1366);
    const en = await cardText(english.page);
    expect(en).toContain('Robot mower');
    expect(en).toMatch(/Automatic mowing\s+on/);
    expect(en).toMatch(/Mower\s+docked/);
    expect(en).toMatch(/Last decision\s+no forecast of the dry window, a run takes 90 min \(\d\d:\d\d\)/);
    expect(en).toContain("Alert: The mower's API budget is spent");
    expect(en).toMatch(/API calls left\s+0 in 24 h, 4 in 7 days/);
    expect(en).toMatch(/Today\s+06:00 – 07:30 · 85 min mowing · started by the daemon · completed: the run is done/);
    expect(en).toMatch(
      /Earlier\s+Sun, (14 Jun|Jun 14), 15:00 – 15:40 · 38 min mowing · started by hand · docked for rain: docking: it is raining/,
    );
    expect(en).not.toContain('Dry run');
    expect(await overflow(english.page)).toBeLessThanOrEqual(0);
    expect(english.problems).toEqual([]);
    await english.page.close();

    const german = await open(address, 'de-DE', 390);
    const de = await cardText(german.page);
    expect(de).toContain('Mähroboter');
    expect(de).toMatch(/Automatisches Mähen\s+an/);
    expect(de).toMatch(/Mäher\s+in der Ladestation/);
    expect(de).toMatch(/Letzte Entscheidung\s+keine Vorhersage des trockenen Fensters, ein Lauf dauert 90 Min\./);
    expect(de).toContain('Warnung: Das API-Budget des Mähers ist aufgebraucht');
    expect(de).toMatch(/Verbleibende API-Aufrufe\s+0 in 24 Std\., 4 in 7 Tagen/);
    expect(de).toMatch(/Heute\s+06:00 – 07:30 · 85 Min\. gemäht · vom Dienst gestartet · fertig: Der Lauf ist fertig/);
    expect(de).toMatch(
      /Davor\s+So\.?,? 14\. Juni?,? 15:00 – 15:40 · 38 Min\. gemäht · von Hand gestartet · wegen Regen geparkt: Parken: es regnet/,
    );
    expect(de).not.toMatch(/started|docked|mowing/);
    expect(await overflow(german.page)).toBeLessThanOrEqual(0);

    // Switched off from Home Assistant: the card follows the state on its next poll.
    await controller.setAutomatic(false);
    await feedThroughBroker(h, 1);
    await german.page.waitForFunction(() => /aus/.test(document.getElementById('mower-automatic')?.innerText ?? ''), { timeout: 15_000 });
    expect(await cardText(german.page)).toMatch(/Automatisches Mähen\s+aus/);
    expect(german.problems).toEqual([]);
    await german.page.close();
  });

  it("shows one card per lawn with its own mower, titled with the lawn's name, in English at 1366 px and in German at 390 px", async () => {
    const temp = mqttTempDir();
    const database = await Database.open(temp.dbPath);
    const backLedger = new RunLedger({ store: new MowerRunStore(database), lawn: 'back', station: 'garden', timeZone: 'UTC' });
    await backLedger.load(at('2026-06-15T10:00:00Z'));
    await backLedger.openRun('daemon', at('2026-06-15T08:00:00Z'));
    await backLedger.closeRun(at('2026-06-15T09:10:00Z'), 64, 'completed', { en: 'the run is done', de: 'Der Lauf ist fertig' });
    await database.close();
    const mqtt = (name: string) => ({
      commandTopic: `${name}/set`,
      stateTopic: `${name}/state`,
      payloads: { start: 's', dock: 'd', pause: 'p' },
      states: { mowing: ['mowing'], docked: ['docked'] },
    });
    let unit: MowerControlUnit | undefined;
    const h = await startStationsHarness({
      dbPath: temp.dbPath,
      statusPagePollMs: 150,
      station: {
        lawns: [
          { id: 'garden', name: 'Front lawn' },
          { id: 'back', name: 'Back lawn' },
        ],
      },
      unitsOf: (opened, clock) => {
        const front = controlConfigOf({ enabled: true, dryRun: false, kind: 'mqtt', mqtt: mqtt('front') }, 'garden');
        const back = controlConfigOf({ enabled: true, kind: 'mqtt', runMinutes: 75, mqtt: mqtt('back') }, 'back');
        unit = new MowerControlUnit({
          lawns: [
            { id: 'garden', name: 'Front lawn', control: front },
            { id: 'back', stationId: 'garden', name: 'Back lawn', control: back },
          ],
          settings: { tickSeconds: 600, homeAssistantToken: '' },
          store: new MowerRunStore(opened),
          clock,
          log: silentLogger,
          baseTopic: 'mowability',
          timeZone: 'UTC',
          recordCut: () => true,
          quietHours: undefined,
          adapterFor: () => new SimulatedMower(),
        });
        return [unit];
      },
    });
    chromium.afterTest(async () => {
      await h.cleanup();
      temp.cleanup();
    });
    await feedThroughBroker(h, 2);
    await waitUntil(() => unit!.controller('back')!.status(h.clock.now()).activity === 'docked', 'the back mower reported docked');
    await unit!.controller('back')!.setAutomatic(false);
    await feedThroughBroker(h, 1);
    const address = await h.listen();
    const cards = async (language: string, width: number) => {
      const watched = await openWatchedPage(chromium.browser, { language, width, height: 900, mobile: width < 500 });
      await watched.page.emulateTimezone('UTC');
      await watched.page.goto(`${address}/stations/garden`);
      await watched.page.waitForFunction(() => document.getElementById('mower--back')?.hidden === false, { timeout: 15_000 });
      const text = (id: string) => watched.page.$eval(`#${id}`, (element) => (element as HTMLElement).innerText);
      return { watched, front: await text('mower'), back: await text('mower--back') };
    };

    const english = await cards('en-GB', 1366);
    expect(english.front).toContain('Robot mower: Front lawn');
    expect(english.front).toMatch(/Automatic mowing\s+on/);
    expect(english.front).not.toContain('Dry run');
    expect(english.front).toMatch(/Today\s+No runs recorded yet/);
    expect(english.back).toContain('Robot mower: Back lawn');
    expect(english.back).toMatch(/Automatic mowing\s+off/);
    expect(english.back).toMatch(/Mower\s+docked/);
    expect(english.back).toContain('Dry run');
    expect(english.back).toMatch(/Today\s+08:00 – 09:10 · 64 min mowing · started by the daemon · completed: the run is done/);
    expect(await overflow(english.watched.page)).toBeLessThanOrEqual(0);
    expect(english.watched.problems).toEqual([]);
    await english.watched.page.close();

    const german = await cards('de-DE', 390);
    expect(german.front).toContain('Mähroboter: Front lawn');
    expect(german.front).toMatch(/Automatisches Mähen\s+an/);
    expect(german.back).toContain('Mähroboter: Back lawn');
    expect(german.back).toMatch(/Automatisches Mähen\s+aus/);
    expect(german.back).toMatch(/Heute\s+08:00 – 09:10 · 64 Min\. gemäht · vom Dienst gestartet · fertig: Der Lauf ist fertig/);
    expect(german.back).toContain('Probelauf');
    expect(await overflow(german.watched.page)).toBeLessThanOrEqual(0);
    expect(german.watched.problems).toEqual([]);
    await german.watched.page.close();
  });

  it('shows no card for a station without a mower control', async () => {
    const h = await startStationsHarness({ statusPagePollMs: 150 });
    chromium.afterTest(() => h.cleanup());
    await feedThroughBroker(h, 1);
    const watched = await openWatchedPage(chromium.browser, { language: 'en-GB', width: 390, height: 844, mobile: true });
    await watched.page.goto(`${await h.listen()}/stations/garden`);
    await watched.page.waitForFunction(() => document.body.dataset.updated !== undefined, { timeout: 15_000 });
    expect(await watched.page.$eval('#mower', (element) => (element as HTMLElement).hidden)).toBe(true);
    expect(await watched.page.evaluate(() => document.body.innerText)).not.toContain('Robot mower');
    expect(watched.problems).toEqual([]);
    await watched.page.close();
  });
});
