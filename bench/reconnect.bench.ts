/**
 * Broker restart: the real daemon (`dist/cli/main.js serve`, external broker
 * = Debian mosquitto) and, as the baseline, a plain mqtt.js client with its
 * default 1 s reconnect period, both connected to the same mosquitto. The
 * broker is stopped (SIGTERM, then SIGKILL) and started again 1 s later;
 * the figure is the time from the broker's return to each client's reconnect.
 */
import mqtt from 'mqtt';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { cliAvailable, spawnDaemon, waitHealthy } from './lib/daemon.js';
import { AutosavingMosquitto, mosquittoAvailable, MOSQUITTO_BINARY, waitUntilPortOpen } from './lib/mosquitto.js';
import { freePort, LOOPBACK } from './lib/net.js';
import { atMost, measured, notMeasured, type Figure } from './lib/report.js';
import { median, medianRatio } from './lib/stats.js';
import { makeTempDir, removeDir } from './lib/tempDir.js';
import { sleep, waitFor } from './lib/time.js';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGKILL', 'SIGKILL'];

export const reconnectBenchmark: Benchmark = {
  name: 'reconnect',
  title: 'Reconnect after an external broker restart (mosquitto, 1 s down)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const goal = atMost(2000);
    const reason = !cliAvailable(context.repoRoot)
      ? 'dist/cli/main.js does not exist'
      : !mosquittoAvailable()
        ? `${MOSQUITTO_BINARY} missing`
        : undefined;
    if (reason)
      return { figures: [notMeasured('reconnect.daemonMs', 'daemon reconnect after broker return', 'ms', reason, goal)], details: {} };

    const dir = makeTempDir();
    const port = await freePort();
    const broker = new AutosavingMosquitto(dir, port);
    await broker.start();
    const daemon = await spawnDaemon({
      repoRoot: context.repoRoot,
      env: { MOWABILITY_BROKER_ENABLED: 'false', MOWABILITY_MQTT_URL: `mqtt://${LOOPBACK}:${port}`, MOWABILITY_LOG_LEVEL: 'info' },
      configFile: {
        stations: [{ id: 'diy', name: 'DIY', format: 'json', topic: 'diy/weather', fields: { temperature: 't', precipitation_rate: 'r' } }],
      },
    });
    const baseline = mqtt.connect(`mqtt://${LOOPBACK}:${port}`, { clientId: 'bench-baseline', reconnectPeriod: 1000 });
    let baselineConnects = 0;
    baseline.on('connect', () => baselineConnects++);
    const daemonConnects = (): number => daemon.child.output.filter((line) => line.includes('"msg":"connected to MQTT broker"')).length;
    try {
      await waitHealthy(daemon);
      await waitFor(() => daemonConnects() >= 1 && baselineConnects >= 1, { timeoutMs: 10_000, what: 'both clients connected' });
      await sleep(1200); // mosquitto's 1 s autosave records the sessions
      const daemonMs: number[] = [];
      const baselineMs: number[] = [];
      for (const signal of SIGNALS) {
        const [daemonBefore, baselineBefore] = [daemonConnects(), baselineConnects];
        await broker.stop(signal);
        await sleep(1000);
        const started = broker.start();
        const returnedAt = await waitUntilPortOpen(port);
        await started;
        let daemonAt = Number.NaN;
        let baselineAt = Number.NaN;
        await waitFor(
          () => {
            if (Number.isNaN(daemonAt) && daemonConnects() > daemonBefore) daemonAt = Date.now();
            if (Number.isNaN(baselineAt) && baselineConnects > baselineBefore) baselineAt = Date.now();
            return !Number.isNaN(daemonAt) && !Number.isNaN(baselineAt);
          },
          { timeoutMs: 70_000, intervalMs: 5, what: 'both clients back' },
        );
        daemonMs.push(daemonAt - returnedAt);
        baselineMs.push(baselineAt - returnedAt);
        context.log(`${signal}: daemon back ${daemonMs.at(-1)} ms, mqtt.js default ${baselineMs.at(-1)} ms after the broker`);
        await sleep(1200);
      }
      const figures: Figure[] = [
        measured(
          'reconnect.daemonMs',
          'daemon reconnect after broker return',
          median(daemonMs),
          'ms',
          goal,
          `rounds ${daemonMs.join('/')} ms (${SIGNALS.join(', ')})`,
        ),
        measured(
          'reconnect.baselineMs',
          'mqtt.js default client reconnect',
          median(baselineMs),
          'ms',
          undefined,
          `rounds ${baselineMs.join('/')} ms`,
        ),
        measured('reconnect.vsBaseline', 'daemon / mqtt.js default reconnect time', medianRatio(daemonMs, baselineMs), 'x'),
      ];
      return { figures, details: { daemonMs, baselineMs, signals: SIGNALS } };
    } finally {
      baseline.end(true);
      await daemon.child.stop();
      daemon.cleanup();
      await broker.stop('SIGKILL');
      removeDir(dir);
    }
  },
};
