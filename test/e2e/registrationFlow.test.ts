/**
 * The operator's side end to end, as it runs: the built daemon with
 * registration on, a person registering over real HTTP, the operator
 * reviewing with the CLI on the same database, the claim, the key in use,
 * its usage counted and flushed on stop, and a rotation with its grace.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/httpCli.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/httpDaemon.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';

const REGISTRATION = {
  name: 'Alice Gardener',
  email: 'alice@example.org',
  intended_use: 'Robot mower schedule in my garden',
  usage: 'private',
  accept_terms: true,
};

describe('registration → review → claim over real HTTP and the CLI', () => {
  let daemon: DaemonProcess | undefined;
  const temp = makeTempDir();
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
  });
  afterAll(() => temp.cleanup());

  it('issues a key only after approval, once, and counts its use', async () => {
    const env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_DB_CHANGE_POLL_INTERVAL_MS: '50', MOWABILITY_LOG_LEVEL: 'info' };
    daemon = await startDaemonProcess({ ...env, MOWABILITY_REGISTRATION_ENABLED: 'true' });
    const base = daemon.baseUrl;

    const registered = await fetch(`${base}/v1/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(REGISTRATION),
    });
    expect(registered.status).toBe(202);
    const { claim_token: token, id } = ((await registered.json()) as { mfi: { registration: { claim_token: string; id: number } } }).mfi
      .registration;
    const claim = async () =>
      ((await (await fetch(`${base}/v1/registrations/${token}`)).json()) as { mfi: { registration: Record<string, unknown> } }).mfi
        .registration;
    expect((await claim()).status).toBe('pending');

    const listed = await runCliInProcess(['registrations', 'list', '--pending', '--json'], env);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ id, status: 'pending', email: 'alice@example.org', usage: 'private' }),
    ]);
    const approved = await runCliInProcess(['registrations', 'approve', String(id), '--note', 'looks fine'], env);
    expect(approved).toMatchObject({ code: 0, stdout: expect.stringContaining(`Registration ${id} approved`) });
    expect(approved.stdout).not.toMatch(/mow_[A-Za-z0-9_-]{20,}/);

    const first = await claim();
    expect(first).toEqual({ status: 'approved', api_key: expect.stringMatching(/^mow_/) });
    expect(await claim()).toEqual({ status: 'claimed' });
    const key = first.api_key as string;

    const calculate = (presented: string) =>
      fetch(`${base}/v1/calculate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${presented}`, 'content-type': 'application/json' },
        body: '{"temperature":18,"precipitation_rate":0}',
      });
    await waitFor(async () => (await calculate(key)).status === 200, 10_000);
    expect((await calculate(key)).status).toBe(200);

    // Rotation: the new key works at once, the old one until its grace ends (here: none).
    const rotatedOut = await runCliInProcess(['keys', 'rotate', '1', '--json', '--keys-rotation-grace-days', '0'], env);
    const rotated = JSON.parse(rotatedOut.stdout) as { key: string; replaces: number };
    expect(rotated.replaces).toBe(1);
    await waitFor(async () => (await calculate(rotated.key)).status === 200, 10_000);
    const old = await calculate(key);
    expect([old.status, ((await old.json()) as { message: string }).message]).toEqual([401, 'Invalid API key.']);

    // Usage reaches the database on stop, and the CLI reports it.
    expect(await daemon.stop()).toBe(0);
    daemon = undefined;
    const usage = JSON.parse((await runCliInProcess(['keys', 'usage', '1', '--json'], env)).stdout) as {
      total: number;
      last_used_at: string | null;
    };
    expect(usage.total).toBeGreaterThanOrEqual(2);
    expect(usage.last_used_at).not.toBeNull();
    const logs = (await runCliInProcess(['registrations', 'list', '--json'], env)).stdout;
    expect(JSON.parse(logs)[0]).toMatchObject({ status: 'claimed', key_id: 1 });
  }, 60_000);
});
