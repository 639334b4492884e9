/**
 * Debian's mosquitto as security-minded users run it: allow_anonymous false with a password file,
 * an ACL file, and TLS listeners with a throwaway CA made by `openssl` in the test's temp dir.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { Mosquitto, onFreePort } from '../../bench/lib/mosquitto.js';

export const MOSQUITTO_PASSWD = process.env.MOSQUITTO_PASSWD_BINARY ?? '/usr/bin/mosquitto_passwd';

/** The PEM files of a throwaway CA, a server certificate for DNS:localhost only, and a client certificate. */
export interface TestCertificates {
  ca: string;
  otherCa: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function newKeyArgs(key: string): string[] {
  return ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key];
}

/** Makes the certificates in `dir` (about 100 ms). */
export function makeCertificates(dir: string): TestCertificates {
  const path = (name: string) => join(dir, name);
  openssl(dir, 'req', '-x509', ...newKeyArgs('ca.key'), '-out', 'ca.crt', '-days', '2', '-subj', '/CN=mowability test CA');
  openssl(dir, 'req', '-x509', ...newKeyArgs('other-ca.key'), '-out', 'other-ca.crt', '-days', '2', '-subj', '/CN=another CA');
  writeFileSync(path('server.ext'), 'subjectAltName=DNS:localhost\n');
  for (const [name, subject, ext] of [
    ['server', '/CN=localhost', ['-extfile', 'server.ext']],
    ['client', '/CN=mowability', []],
  ] as const) {
    openssl(dir, 'req', ...newKeyArgs(`${name}.key`), '-out', `${name}.csr`, '-subj', subject);
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      ...ext,
    );
  }
  return {
    ca: path('ca.crt'),
    otherCa: path('other-ca.crt'),
    serverCert: path('server.crt'),
    serverKey: path('server.key'),
    clientCert: path('client.crt'),
    clientKey: path('client.key'),
  };
}

export interface SecureBrokerOptions {
  /** username → password, written with mosquitto_passwd. */
  accounts: Record<string, string>;
  /** The ACL file's text (absent: no ACL, every account may do everything). */
  acl?: string;
  /** TLS on the listener (else plain MQTT); `requireCertificate`: clients must show one signed by the CA. */
  tls?: { certificates: TestCertificates; requireCertificate?: boolean };
}

/** mosquitto with accounts, an ACL and TLS, on 127.0.0.1 (the certificate names "localhost"). */
export class SecureMosquitto extends Mosquitto {
  constructor(dir: string, port: number, options: SecureBrokerOptions) {
    super(dir, port);
    const passwords = join(dir, 'passwd');
    writeFileSync(passwords, '', { mode: 0o600 });
    for (const [username, password] of Object.entries(options.accounts))
      execFileSync(MOSQUITTO_PASSWD, ['-b', passwords, username, password], { stdio: 'pipe' });
    const lines = [`listener ${port} 127.0.0.1`, 'allow_anonymous false', `password_file ${passwords}`];
    if (options.acl !== undefined) {
      writeFileSync(join(dir, 'acl'), options.acl);
      lines.push(`acl_file ${join(dir, 'acl')}`);
    }
    const tls = options.tls;
    if (tls) {
      lines.push(`certfile ${tls.certificates.serverCert}`, `keyfile ${tls.certificates.serverKey}`, `cafile ${tls.certificates.ca}`);
      if (tls.requireCertificate) lines.push('require_certificate true');
    }
    lines.push(
      `user ${userInfo().username}`,
      'persistence false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      'log_type information',
      'log_type notice',
      '',
    );
    writeFileSync(this.configPath, lines.join('\n'));
  }
}

export function startSecureMosquitto(dir: string, options: SecureBrokerOptions): Promise<SecureMosquitto> {
  return onFreePort(async (port) => {
    const broker = new SecureMosquitto(dir, port, options);
    await broker.start();
    return broker;
  });
}
