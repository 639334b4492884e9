/**
 * broker.users validation: each mistake is refused at start with a message that names the
 * setting and what to fix, and never echoes a password.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { INTERNAL_USERNAME } from '../../src/config/mqttValues.js';
import { configProblems } from '../helpers/configFile.js';

const SECRET = 'a secret password';

function problemsFor(users: unknown): string {
  return configProblems(() => loadConfig({ env: { MOWABILITY_BROKER_USERS: JSON.stringify(users) } })).join('\n');
}

describe('broker.users', () => {
  it.each([
    [[{ username: 'rtl433', password: SECRET, role: 'admin' }], 'entry 0 has unknown keys: role'],
    [['rtl433'], 'entry 0 must be an object'],
    [[{ username: '', password: SECRET }], 'entry 0 needs a non-empty username'],
    [[{ password: SECRET }], 'entry 0 needs a non-empty username'],
    [[{ username: 'rtl433', password: 'short' }], 'user "rtl433" needs a password of at least 8 characters'],
    [
      [
        { username: 'rtl433', password: SECRET },
        { username: 'rtl433', password: `${SECRET} 2` },
      ],
      'user "rtl433" is listed twice',
    ],
    [
      [{ username: INTERNAL_USERNAME, password: SECRET }],
      `user name "${INTERNAL_USERNAME}" is reserved for the daemon's own connection; pick another`,
    ],
  ])('refuses %j: %s', (users, message) => {
    const problems = problemsFor(users);
    expect(problems).toContain('broker.users');
    expect(problems).toContain(message);
    expect(problems).not.toContain(SECRET);
    expect(problems).not.toContain('short');
  });

  it('accepts valid accounts', () => {
    const users = [
      { username: 'rtl433', password: SECRET },
      { username: 'ha', password: `${SECRET} 2` },
    ];
    expect(loadConfig({ env: { MOWABILITY_BROKER_USERS: JSON.stringify(users) } }).broker.users).toEqual(users);
  });
});
