import { describe, expect, it } from 'vitest';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

describe('LogThrottle', () => {
  function setup() {
    const capture = captureLogger('warn');
    let monotonicMs = 1_000;
    const throttle = new LogThrottle(capture.logger, 60_000, { now: () => monotonicMs });
    const warn = (): void => throttle.warn('key', { station: 'a' }, 'problem');
    const advance = (ms: number): void => {
      monotonicMs += ms;
    };
    return { capture, warn, advance };
  }

  it('logs once per interval per key and counts the repeats it held back', () => {
    const { capture, warn, advance } = setup();
    warn();
    warn();
    advance(59_999);
    warn();
    expect(capture.lines()).toHaveLength(1);
    advance(1);
    warn();
    expect(capture.lines().map((line) => line.suppressedSinceLast)).toEqual([0, 2]);
  });

  it('measures the interval on the monotonic clock: a wall clock stepped back or forward changes nothing', () => {
    const { capture, warn, advance } = setup();
    const realNow = Date.now;
    try {
      warn();
      // The wall clock steps a day back: the interval still ends a minute after the first line.
      Date.now = () => realNow() - 86_400_000;
      advance(60_000);
      warn();
      // ... and a year forward: no burst of repeats gets through.
      Date.now = () => realNow() + 365 * 86_400_000;
      warn();
      warn();
      expect(capture.lines()).toHaveLength(2);
    } finally {
      Date.now = realNow;
    }
  });

  it('uses the process monotonic clock by default', () => {
    const capture = captureLogger('warn');
    const throttle = new LogThrottle(capture.logger);
    const realNow = Date.now;
    try {
      throttle.warn('k', {}, 'first');
      Date.now = () => realNow() + 3_600_000;
      throttle.warn('k', {}, 'second');
    } finally {
      Date.now = realNow;
    }
    expect(capture.lines()).toHaveLength(1);
  });
});
