/**
 * A failed connection to an external broker said as one line naming the setting and the fix: the
 * translation of each library text, then each mistake against a real Mosquitto 2 run as
 * security-minded users run it (TLS with a throwaway CA, a password file, allow_anonymous false),
 * asserting what the user sees: the log, /health and `mowability status`.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it as plain } from 'vitest';
import { describeConnectionError } from '../../src/mqtt/connectionProblem.js';
import { mqttTest as it, type ServedDaemon } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import {
  MOSQUITTO_PASSWD,
  makeCertificates,
  startSecureMosquitto,
  type SecureBrokerOptions,
  type TestCertificates,
} from '../helpers/secureMosquitto.js';
import { mosquittoAvailable } from '../../bench/lib/mosquitto.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

describe('describeConnectionError', () => {
  // The texts and codes mqtt.js and Node give for each mistake, as seen against Mosquitto 2.0.
  plain.each([
    [
      { message: 'Connection refused: Not authorized', code: 5 },
      'mqtts://b:8883',
      /refused the login \("not authorized"\): check mqtt\.username and the password \(MOWABILITY_MQTT_PASSWORD/,
    ],
    [
      { message: 'Connection refused: Bad username or password', code: 4 },
      'mqtt://b',
      /refused the login \("bad username or password"\): check mqtt\.username and the password/,
    ],
    [
      { message: 'unable to verify the first certificate', code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
      'mqtts://b',
      /\("unable to verify the first certificate"\): set mqtt\.ca to the file of the CA/,
    ],
    [
      { message: 'self-signed certificate in certificate chain', code: 'SELF_SIGNED_CERT_IN_CHAIN' },
      'mqtts://b',
      /\("self-signed certificate in certificate chain"\): set mqtt\.ca/,
    ],
    [
      {
        message: "Hostname/IP does not match certificate's altnames: IP: 10.0.0.5 is not in the cert's list: ",
        code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      },
      'mqtts://10.0.0.5',
      /does not name the host in mqtt\.url \("Hostname\/IP does not match certificate's altnames"\): put a host name or address it lists/,
    ],
    [
      {
        message:
          '80BC85B9EE7F0000:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 116\n',
        code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      },
      'mqtts://b',
      /requires a client certificate \("tlsv13 alert certificate required"\): set mqtt\.cert and mqtt\.key/,
    ],
    [
      { message: 'read ECONNRESET', code: 'ECONNRESET' },
      'mqtt://b:8883',
      /closed the connection at once \("read ECONNRESET"\): if that port speaks TLS \(often 8883\), use mqtts:\/\/ in mqtt\.url/,
    ],
  ])('%o on %s', (err, url, line) => {
    const problem = describeConnectionError(err, url);
    expect(problem.line).toMatch(line);
    expect(problem.answered).toBe(true);
    expect(problem.line).not.toMatch(/10\.0\.0\.5|unreachable|deps\/openssl/);
  });

  plain('nothing listening is "unreachable", naming mqtt.url but not the address', () => {
    const problem = describeConnectionError(
      { message: 'connect ECONNREFUSED 10.0.0.5:1883', code: 'ECONNREFUSED' },
      'mqtt://10.0.0.5:1883',
    );
    expect(problem).toEqual({
      line: 'broker unreachable (ECONNREFUSED): check the host and port in mqtt.url and that the broker runs',
      answered: false,
    });
  });

  plain('a reset on mqtts:// is not taken for the wrong scheme', () => {
    expect(describeConnectionError({ message: 'read ECONNRESET', code: 'ECONNRESET' }, 'mqtts://b:8883').line).toBe(
      'MQTT connection error (ECONNRESET)',
    );
  });
});

const available = mosquittoAvailable();
const required = Boolean(process.env.CI);

interface Health {
  mfi: { checks: { mqtt?: { status: string; message: string } } };
}

async function mqttCheck(daemon: ServedDaemon): Promise<{ status: string; message: string } | undefined> {
  return ((await (await fetch(`${daemon.httpAddress}/health`)).json()) as Health).mfi.checks.mqtt;
}

describe.skipIf(!available && !required)(
  'each mistake against Mosquitto 2 with TLS and accounts',
  { timeout: SLOW_TEST_TIMEOUT_MS },
  () => {
    const accounts = { mowability: 'correct horse battery staple' };

    // [name, listener, what the daemon is given, the one line the user must see]
    const cases: Array<
      [
        string,
        (certs: TestCertificates) => SecureBrokerOptions['tls'],
        (port: number, certs: TestCertificates) => Record<string, string>,
        RegExp,
      ]
    > = [
      [
        'a wrong password',
        (certificates) => ({ certificates }),
        (port, c) => ({
          MOWABILITY_MQTT_URL: `mqtts://localhost:${port}`,
          MOWABILITY_MQTT_CA: c.ca,
          MOWABILITY_MQTT_USERNAME: 'mowability',
          MOWABILITY_MQTT_PASSWORD: 'wrong',
        }),
        /the broker refused the login \("not authorized"\): check mqtt\.username and the password \(MOWABILITY_MQTT_PASSWORD/,
      ],
      [
        'no account at all',
        (certificates) => ({ certificates }),
        (port, c) => ({ MOWABILITY_MQTT_URL: `mqtts://localhost:${port}`, MOWABILITY_MQTT_CA: c.ca }),
        /refused the login \("not authorized"\): check mqtt\.username/,
      ],
      [
        'no mqtt.ca',
        (certificates) => ({ certificates }),
        (port) => ({
          MOWABILITY_MQTT_URL: `mqtts://localhost:${port}`,
          MOWABILITY_MQTT_USERNAME: 'mowability',
          MOWABILITY_MQTT_PASSWORD: accounts.mowability,
        }),
        /a CA this daemon does not trust \("(self-signed certificate in certificate chain|unable to verify the first certificate)"\): set mqtt\.ca/,
      ],
      [
        'the wrong CA in mqtt.ca',
        (certificates) => ({ certificates }),
        (port, c) => ({
          MOWABILITY_MQTT_URL: `mqtts://localhost:${port}`,
          MOWABILITY_MQTT_CA: c.otherCa,
          MOWABILITY_MQTT_USERNAME: 'mowability',
          MOWABILITY_MQTT_PASSWORD: accounts.mowability,
        }),
        /a CA this daemon does not trust .*: set mqtt\.ca/,
      ],
      [
        'an address the certificate does not name',
        (certificates) => ({ certificates }),
        (port, c) => ({
          MOWABILITY_MQTT_URL: `mqtts://127.0.0.1:${port}`,
          MOWABILITY_MQTT_CA: c.ca,
          MOWABILITY_MQTT_USERNAME: 'mowability',
          MOWABILITY_MQTT_PASSWORD: accounts.mowability,
        }),
        /does not name the host in mqtt\.url \("Hostname\/IP does not match certificate's altnames"\)/,
      ],
      [
        'no client certificate where one is required',
        (certificates) => ({ certificates, requireCertificate: true }),
        (port, c) => ({
          MOWABILITY_MQTT_URL: `mqtts://localhost:${port}`,
          MOWABILITY_MQTT_CA: c.ca,
          MOWABILITY_MQTT_USERNAME: 'mowability',
          MOWABILITY_MQTT_PASSWORD: accounts.mowability,
        }),
        /requires a client certificate \("tlsv13 alert certificate required"\): set mqtt\.cert and mqtt\.key/,
      ],
      [
        'mqtt:// on the TLS port',
        (certificates) => ({ certificates }),
        (port) => ({
          MOWABILITY_MQTT_URL: `mqtt://localhost:${port}`,
          MOWABILITY_MQTT_USERNAME: 'mowability',
          MOWABILITY_MQTT_PASSWORD: accounts.mowability,
        }),
        /closed the connection at once \("read ECONNRESET"\): if that port speaks TLS \(often 8883\), use mqtts:\/\/ in mqtt\.url/,
      ],
    ];

    it.for(cases)(
      '%s: one line naming the setting in the log, /health and status, and no "unreachable"',
      { timeout: SLOW_TEST_TIMEOUT_MS },
      async ([, tls, settings, line], { mqtt }) => {
        const certificates = makeCertificates(mqtt.dir);
        const broker = await startSecureMosquitto(mqtt.dir, { accounts, tls: tls(certificates) });
        mqtt.defer(() => broker.stop('SIGKILL'));
        const env = {
          MOWABILITY_TIMEZONE: 'UTC',
          MOWABILITY_BROKER_ENABLED: 'false',
          MOWABILITY_MQTT_RECONNECT_MAX_SECONDS: '1',
          ...settings(broker.port, certificates),
        };
        const daemon = await mqtt.serve(undefined, { logLevel: 'info', env });
        const warned = () =>
          daemon.log
            .lines()
            .filter((entry) => entry.level === 40)
            .map((entry) => String(entry.msg));
        await waitUntil(() => warned().some((msg) => line.test(msg)), `the log line ${line}`, 15_000).catch((err: Error) => {
          throw new Error(`${err.message}; logged: ${JSON.stringify(warned())}`);
        });
        // The broker answered: once it has seen the daemon try again, there is still no "unreachable" line.
        await waitUntil(() => (broker.output.match(/New connection from/g) ?? []).length >= 2, 'a second attempt', 15_000);
        expect(warned().filter((msg) => /unreachable/.test(msg))).toEqual([]);

        const check = await mqttCheck(daemon);
        expect(check?.status).toBe('error');
        expect(check?.message).toMatch(line);
        expect(check?.message).toMatch(/^not connected to the external broker \(mqtt\.url\): /);
        expect(check?.message).not.toMatch(new RegExp(`${broker.port}|localhost|127\\.0\\.0\\.1|correct horse|wrong`));

        const port = new URL(daemon.httpAddress).port;
        const status = await runCliInProcess(['status'], {
          ...env,
          MOWABILITY_DB_PATH: mqtt.dbPath,
          MOWABILITY_HTTP_HOST: '127.0.0.1',
          MOWABILITY_HTTP_PORT: port,
        });
        expect(status.stdout).toMatch(
          new RegExp(`^MQTT: error: not connected to the external broker \\(mqtt\\.url\\): .*${line.source}`, 'm'),
        );
      },
    );

    it(
      'a refused login keeps being retried: the account added on the broker is picked up without a restart',
      { timeout: SLOW_TEST_TIMEOUT_MS },
      async ({ mqtt }) => {
        const broker = await startSecureMosquitto(mqtt.dir, { accounts });
        mqtt.defer(() => broker.stop('SIGKILL'));
        const env = {
          MOWABILITY_TIMEZONE: 'UTC',
          MOWABILITY_BROKER_ENABLED: 'false',
          MOWABILITY_MQTT_RECONNECT_MAX_SECONDS: '1',
          MOWABILITY_MQTT_URL: `mqtt://127.0.0.1:${broker.port}`,
          MOWABILITY_MQTT_USERNAME: 'late',
          MOWABILITY_MQTT_PASSWORD: 'late-password',
        };
        const daemon = await mqtt.serve(undefined, { logLevel: 'warn', env });
        await waitUntil(async () => /refused the login/.test((await mqttCheck(daemon))?.message ?? ''), 'the refusal');
        execFileSync(MOSQUITTO_PASSWD, ['-b', join(mqtt.dir, 'passwd'), 'late', 'late-password'], { stdio: 'pipe' });
        await broker.stop('SIGTERM'); // Mosquitto reads its password file at start (or on SIGHUP)
        await broker.start();
        await waitUntil(async () => (await mqttCheck(daemon))?.status === 'ok', 'connected with the account added', 20_000);
      },
    );

    it(
      'with everything right it connects over TLS with a client certificate, and health says connected',
      { timeout: SLOW_TEST_TIMEOUT_MS },
      async ({ mqtt }) => {
        const certificates = makeCertificates(mqtt.dir);
        const broker = await startSecureMosquitto(mqtt.dir, { accounts, tls: { certificates, requireCertificate: true } });
        mqtt.defer(() => broker.stop('SIGKILL'));
        const env = {
          MOWABILITY_TIMEZONE: 'UTC',
          MOWABILITY_BROKER_ENABLED: 'false',
          MOWABILITY_MQTT_URL: `mqtts://localhost:${broker.port}`,
          MOWABILITY_MQTT_CA: certificates.ca,
          MOWABILITY_MQTT_CERT: certificates.clientCert,
          MOWABILITY_MQTT_KEY: certificates.clientKey,
          MOWABILITY_MQTT_USERNAME: 'mowability',
          MOWABILITY_MQTT_PASSWORD: accounts.mowability,
        };
        const daemon = await mqtt.serve(undefined, { logLevel: 'warn', env });
        await waitUntil(async () => (await mqttCheck(daemon))?.status === 'ok', 'connected over TLS', 15_000);
        expect(await mqttCheck(daemon)).toEqual({
          status: 'ok',
          code: 'connected',
          message: 'connected to the external broker (mqtt.url)',
        });
      },
    );
  },
);
