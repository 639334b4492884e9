/// <reference lib="dom" />
/**
 * A station that hears nothing while the embedded broker sees its station software publish on
 * another topic layout (rtl_433's `events=rtl_433[/model][/id]` against a config subscribed to
 * `rtl_433/+/events`): after five silent minutes the whole daemon's state, `mowability status`
 * and the status page (English and German, in real Chromium) name the topics that did arrive.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/httpCli.js';
import { openWatchedPage, useChromium } from '../helpers/browser.js';
import { FakeClock, mqttTempDir, publishOnce, waitUntil } from '../helpers/mqttHarness.js';
import { payloadText } from '../helpers/mqttPayloads.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';
import { writeStationsConfig } from '../helpers/uploadStations.js';

const NOW = Date.parse('2026-06-15T10:20:00Z');
const DEADLINE_MS = 15_000;
const GARDEN = { id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events', match: { model: 'Bresser-6in1' } };
const PACKET = payloadText('rtl433-json__rtl_433_tests__Bresser-6in1_01-g002.jsonl').split('\n')[0]!;
const WRONG_TOPIC = 'rtl_433/Bresser-6in1/12345';

const chromium = useChromium();

describe('a silent station names the topics the broker saw near it', { timeout: SLOW_TEST_TIMEOUT_MS * 2 }, () => {
  it('in the state, in mowability status and on the page', async () => {
    const temp = mqttTempDir();
    const clock = new FakeClock(NOW);
    const daemon = await startOpenMeteoDaemon({ temp, stations: [GARDEN], openMeteoUrl: 'http://127.0.0.1:9/v1/forecast', clock });
    chromium.afterTest(() => temp.cleanup());
    chromium.afterTest(() => daemon.stop());
    const side = daemon.station;
    expect(await publishOnce(daemon.mqtt.brokerPort()!, WRONG_TOPIC, PACKET, { qos: 1 })).toBe('handled');
    expect(await publishOnce(daemon.mqtt.brokerPort()!, 'elsewhere/weather', PACKET, { qos: 1 })).toBe('handled');

    // Not yet: a station may take a few minutes for its first reading.
    side.recompute('garden');
    clock.advance(60_000);
    side.recompute('garden');
    await waitUntil(() => side.stationState('garden') !== undefined, 'the first state', DEADLINE_MS);
    expect(side.stationState('garden')).not.toHaveProperty('topics_heard');

    clock.advance(5 * 60_000);
    side.recompute('garden');
    await waitUntil(() => side.stationState('garden')?.topics_heard !== undefined, 'the topics heard in the state', DEADLINE_MS);
    expect(side.stationState('garden')!.topics_heard).toEqual({ subscribed: 'rtl_433/+/events', seen: [WRONG_TOPIC] });

    const port = new URL(daemon.httpAddress).port;
    const status = await runCliInProcess(['status'], {
      MOWABILITY_CONFIG: writeStationsConfig(temp.dir, [GARDEN]),
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: port,
      MOWABILITY_TIMEZONE: 'UTC',
    });
    expect(status.stdout).toContain(`  topics:       nothing on rtl_433/+/events; seen: ${WRONG_TOPIC} (check the station's "topic")`);

    for (const [language, text] of [
      ['en', `Nothing arrived on rtl_433/+/events; the broker did see: ${WRONG_TOPIC}. Check the station's "topic".`],
      ['de', `Auf rtl_433/+/events kam nichts an; der Broker sah: ${WRONG_TOPIC}. Prüfen Sie das „topic“ der Station.`],
    ] as const) {
      const { page, problems } = await openWatchedPage(chromium.browser, { language });
      await page.goto(`${daemon.httpAddress}/stations/garden`);
      await page.waitForFunction(() => document.querySelector<HTMLElement>('#topics-heard')?.checkVisibility() === true, {
        timeout: DEADLINE_MS,
      });
      expect(await page.$eval('#topics-heard', (element) => (element as HTMLElement).innerText)).toBe(text);
      expect(problems).toEqual([]);
      await page.close();
    }

    // A reading on the station's own topic: the hint goes.
    expect(await publishOnce(daemon.mqtt.brokerPort()!, 'rtl_433/raspberrypi/events', PACKET, { qos: 1 })).toBe('handled');
    await waitUntil(
      () => side.stationState('garden')?.last_reading_at != null && side.stationState('garden')?.topics_heard === undefined,
      'the state without the hint',
      DEADLINE_MS,
    );
  });
});
