/**
 * registration.notifyCommand: runs the operator's program when a registration
 * arrives, so no mail server is needed. No shell (the setting is one program
 * path), a small environment with the registration's number and the pending
 * count only — never the registrant's data —, a timeout, and failures logged.
 */
import { execFile } from 'node:child_process';
import type { Logger } from 'pino';

const TIMEOUT_MS = 10_000;

export function registrationNotifier(command: string, logger: Logger): ((registration: { id: number; pending: number }) => void) | undefined {
  if (command === '') return undefined;
  const log = logger.child({ module: 'registration-notify' });
  return ({ id, pending }) => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', MOWABILITY_REGISTRATION_ID: String(id), MOWABILITY_REGISTRATION_PENDING: String(pending) };
    execFile(command, [], { env, timeout: TIMEOUT_MS, windowsHide: true }, (err) => {
      if (err) log.warn({ err, command, registration: id }, 'registration.notifyCommand failed');
    });
  };
}
