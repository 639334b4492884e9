// scripts/container-test.sh: MQTT through a container's published port, as a client on the host.
//   node scripts/container/mqtt-roundtrip.mjs URL
//     reads the bridge state the mowability container published (retained `mowability/bridge/state`
//     = online): the daemon reached the broker and a client on the host reaches it too.
//   node scripts/container/mqtt-roundtrip.mjs URL --publish TOPIC PAYLOAD --expect TOPIC TEXT
//     publishes PAYLOAD to TOPIC (a station reading) and waits for a retained message on the
//     second TOPIC (its state) that contains TEXT: the reading went in and the state came back.
//   node scripts/container/mqtt-roundtrip.mjs URL --refused
//     succeeds only when the broker refuses the connection (an anonymous client where accounts are required).
// The account, if any, is in the URL (mqtt://user:password@host:port).
import mqtt from 'mqtt';

const [url, mode, ...rest] = process.argv.slice(2);
const redacted = url.replace(/\/\/[^@/]*@/, '//***@');
const fail = (message) => {
  console.error(`mqtt-roundtrip: ${message} on ${redacted}`);
  process.exit(1);
};

if (mode === '--refused') {
  const outcome = await mqtt.connectAsync(url, { connectTimeout: 5000, reconnectPeriod: 0 }).then(
    (client) => client.endAsync().then(() => 'accepted'),
    (err) => err.message,
  );
  if (outcome === 'accepted') fail('the broker accepted a client without an account');
  console.log(`mqtt-roundtrip: refused as it should be (${outcome}) on ${redacted}`);
  process.exit(0);
}

const [publishTopic, payload, , expectTopic, expectText] = mode === '--publish' ? rest : [];
const stateTopic = expectTopic ?? 'mowability/bridge/state';
const client = await mqtt
  .connectAsync(url, { connectTimeout: 5000, reconnectPeriod: 0 })
  .catch((err) => fail(`cannot connect (${err.message})`));
const timer = setTimeout(() => fail(`no retained ${stateTopic}${expectText ? ` containing ${expectText}` : ''} within 20 s`), 20_000);
client.on('message', (topic, message) => {
  const text = message.toString();
  const wanted = expectText === undefined ? text === 'online' : text.includes(expectText);
  console.log(`mqtt-roundtrip: ${topic} = ${text.slice(0, 160)}${text.length > 160 ? '…' : ''}`);
  if (!wanted && expectText === undefined) fail(`${topic} is "${text}", not online`);
  if (!wanted) return; // an older state: wait for the one the reading makes
  clearTimeout(timer);
  void client.endAsync().then(() => process.exit(0));
});
await client.subscribeAsync(stateTopic, { qos: 1 });
if (publishTopic) await client.publishAsync(publishTopic, payload, { qos: 1 });
