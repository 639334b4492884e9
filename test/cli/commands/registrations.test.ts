import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../../src/store/database.js';
import { RegistrationStore } from '../../../src/publicService/registrationStore.js';
import { runCliInProcess } from '../../helpers/httpCli.js';
import { makeTempDir } from '../../helpers/httpTempDir.js';

describe('mowability registrations', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let env: Record<string, string>;

  beforeEach(async () => {
    temp = makeTempDir();
    env = { MOWABILITY_DB_PATH: temp.dbPath };
    const db = await Database.open(temp.dbPath);
    const store = new RegistrationStore(db);
    await store.create(
      {
        name: 'Eve\u001b[2J',
        email: 'eve@example.org',
        intendedUse: 'Testing the review',
        usageKind: 'commercial',
        clientAddress: '192.0.2.9',
      },
      Date.now(),
      86_400_000,
    );
    await db.close();
  });
  afterEach(() => temp.cleanup());

  it('lists with stored text escaped, rejects with a reason, and refuses to decide twice', async () => {
    const list = await runCliInProcess(['registrations', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('Eve\\u001b[2J');
    expect(list.stdout).not.toContain('\u001b');
    expect(await runCliInProcess(['registrations', 'reject', '1', '--reason', 'no details'], env)).toMatchObject({
      code: 0,
      stdout: 'Registration 1 rejected (no details).\n',
    });
    const again = await runCliInProcess(['registrations', 'approve', '1'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('registration 1 is rejected, not pending');
    expect((await runCliInProcess(['registrations', 'list', '--pending'], env)).stdout).toBe('No pending registrations.\n');
  });

  it('explains usage errors', async () => {
    expect(await runCliInProcess(['registrations', 'purge'], env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--older-than DAYS is required'),
    });
    expect(await runCliInProcess(['registrations', 'approve', 'x'], env)).toMatchObject({ code: 2 });
    expect(await runCliInProcess(['keys', 'quota', '1', 'lots'], env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"default"'),
    });
    expect(await runCliInProcess(['keys', 'expire', '1', 'someday'], env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('ISO 8601'),
    });
    expect(await runCliInProcess(['keys', 'rotate', '5'], env)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no API key with ID 5'),
    });
    expect(await runCliInProcess(['registrations', 'purge', '--older-than', '0'], env)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Deleted 0 registrations'),
    });
  });
});
