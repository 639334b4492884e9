import { describe, expect, it } from 'vitest';
import { mowerSummary } from '../../src/http/mowerSummary.js';
import type { MowerControlStatus } from '../../src/mower/controller.js';

const status: MowerControlStatus = {
  lawn: 'garden',
  kind: 'homeassistant',
  dry_run: true,
  automatic: true,
  activity: 'docked',
  decision: {
    action: 'none',
    code: 'window_short',
    reason: 'mowable for 40 min only',
    reason_de: 'nur 40 Min. mähbar',
    at: '2026-06-15T10:00:00.000Z',
  },
  pending: null,
  alert: null,
  budget_left: { per_day: null, per_week: 600, per_month: null },
  current_run: null,
  connection_problem: 'Home Assistant at http://10.0.0.5:8123 unreachable (ECONNREFUSED)',
  runs: [],
};

describe("the status page's mower summary", () => {
  it('is null without a mower control, and carries the control state with a key', () => {
    expect(mowerSummary(undefined, false)).toBeNull();
    expect(mowerSummary(status, false)).toMatchObject({
      automatic: true,
      dry_run: true,
      decision: { code: 'window_short', reason_de: 'nur 40 Min. mähbar' },
      budget_left: { per_week: 600 },
      connection_problem: 'Home Assistant at http://10.0.0.5:8123 unreachable (ECONNREFUSED)',
      runs: [],
    });
  });

  it('the open page says there is a connection problem without its detail (the Home Assistant address)', () => {
    expect(mowerSummary(status, true)?.connection_problem).toBe('');
    expect(mowerSummary({ ...status, connection_problem: null }, true)?.connection_problem).toBeNull();
  });
});
