// scripts/container-test.sh: through Mosquitto's published port, reads the bridge state the
// mowability container published (retained `mowability/bridge/state`), so the daemon reached
// Mosquitto inside the compose network and a client on the host reaches it too.
// Usage: node scripts/container/mqtt-roundtrip.mjs mqtt://127.0.0.1:PORT
import mqtt from 'mqtt';

const url = process.argv[2];
const client = await mqtt.connectAsync(url, { connectTimeout: 5000, reconnectPeriod: 0 });
const timer = setTimeout(() => {
  console.error(`mqtt-roundtrip: no retained mowability/bridge/state on ${url} within 10 s`);
  process.exit(1);
}, 10_000);
client.on('message', (topic, payload) => {
  console.log(`mqtt-roundtrip: ${topic} = ${payload.toString()} on ${url}`);
  clearTimeout(timer);
  void client.endAsync().then(() => process.exit(payload.toString() === 'online' ? 0 : 1));
});
await client.subscribeAsync('mowability/bridge/state');
