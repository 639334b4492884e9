/** Accounts of the embedded broker (config `broker.users`): the credential check. */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { BrokerUser } from '../config/mqttValues.js';

export { INTERNAL_USERNAME, validateBrokerUsers, type BrokerUser } from '../config/mqttValues.js';

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
