/** Accounts of the embedded broker (config `broker.users`). */
import { timingSafeEqual, createHash } from 'node:crypto';

export interface BrokerUser {
  username: string;
  password: string;
}

/** User name of the daemon's own connection to the embedded broker (its password is random per process). */
export const INTERNAL_USERNAME = 'mowability-internal';

/** Convict format: a list of {username, password}, unique names, non-empty passwords. Never echoes passwords. */
export function validateBrokerUsers(value: unknown): void {
  if (!Array.isArray(value)) throw new Error('must be a list of {"username": ..., "password": ...}');
  const seen = new Set<string>();
  value.forEach((user: unknown, index) => {
    if (typeof user !== 'object' || user === null || Array.isArray(user)) throw new Error(`entry ${index} must be an object`);
    const { username, password, ...rest } = user as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new Error(`entry ${index} has unknown keys: ${Object.keys(rest).join(', ')}`);
    if (typeof username !== 'string' || username === '') throw new Error(`entry ${index} needs a non-empty username`);
    if (typeof password !== 'string' || password.length < 8) throw new Error(`user "${username}" needs a password of at least 8 characters`);
    if (seen.has(username)) throw new Error(`user "${username}" is listed twice`);
    if (username === INTERNAL_USERNAME) throw new Error(`user name "${INTERNAL_USERNAME}" is reserved for the daemon's own connection; pick another`);
    seen.add(username);
  });
}

function digest(text: string | Buffer): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time check of a username/password pair against the accounts. */
export function checkCredentials(users: readonly BrokerUser[], username: string | undefined, password: Buffer | undefined): boolean {
  if (username === undefined || password === undefined) return false;
  let ok = false;
  for (const user of users) {
    const nameOk = timingSafeEqual(digest(user.username), digest(username));
    const passwordOk = timingSafeEqual(digest(user.password), digest(password));
    if (nameOk && passwordOk) ok = true;
  }
  return ok;
}
