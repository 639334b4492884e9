/** Which subscriptions the broker acknowledged: the start's wait ends when none is pending, or early on a failed attempt (they stay pending). */
import { describe, expect, it } from 'vitest';
import { SubscriptionAcks } from '../../src/mqtt/subscriptionAcks.js';

describe('subscription acknowledgements', () => {
  it('settles once every filter asked for is acknowledged or dropped', async () => {
    const acks = new SubscriptionAcks();
    await acks.settled();
    acks.requested('garden/weather');
    acks.requested('rtl_433/+/events');
    let settled = false;
    const waiting = acks.settled().then(() => (settled = true));
    acks.acknowledged('garden/weather');
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(acks.pending).toEqual(['rtl_433/+/events']);
    acks.dropped('rtl_433/+/events');
    await waiting;
    expect(acks.pending).toEqual([]);
  });

  it('a failed connection attempt ends the wait, the filters stay pending', async () => {
    const acks = new SubscriptionAcks();
    acks.requested('garden/weather');
    const waiting = acks.settled();
    acks.attemptFailed();
    await waiting;
    expect(acks.pending).toEqual(['garden/weather']);
  });
});
