/**
 * Baseline for the MQTT ingest benchmark, run as a child process: an aedes
 * broker plus an mqtt.js subscriber that does nothing but count, i.e. the
 * daemon's ingest path minus the daemon. Talks to the parent over IPC:
 * sends {port} when ready, answers "count" with {count}, exits on "stop".
 */
import mqtt from 'mqtt';
import { answerParent, runHelper } from './ipcChild.js';
import { listenLoopbackBroker } from './loopbackBroker.js';

const topicFilter = process.argv[2] ?? '#';
const qos = Number(process.argv[3] ?? 1) as 0 | 1;

async function main(): Promise<void> {
  const { port, close } = await listenLoopbackBroker();
  const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: 'bench-null-subscriber', reconnectPeriod: 0 });
  let count = 0;
  subscriber.on('message', () => {
    count++;
  });
  await subscriber.subscribeAsync(topicFilter, { qos });
  answerParent(
    port,
    () => count,
    async () => {
      await subscriber.endAsync(true);
      await close();
    },
  );
}

runHelper(main);
