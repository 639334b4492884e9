/**
 * A daemon whose clock runs N times faster than the wall clock, through libfaketime
 * (`LD_PRELOAD=libfaketimeMT.so.1 FAKETIME='+0 xN'`). libfaketime speeds up every clock the process
 * reads through libc (`clock_gettime` for CLOCK_REALTIME and CLOCK_MONOTONIC, `gettimeofday`, `time`)
 * and divides the timeouts of `epoll_wait`, `poll`, `nanosleep` and friends by N, so Node's timers
 * (libuv computes the next wake-up from the sped-up monotonic clock and sleeps in `epoll_wait`) fire
 * at the daemon's pace: a 10 s `setTimeout` fires after 0.5 s of wall time at ×20. The speed-up counts
 * from the moment the library initialises in the daemon (just after spawn), so the daemon's time is
 * `t0 + (wall − t0) × N` with t0 the spawn instant; `DaemonClock` computes it on the driver's side.
 */
import { existsSync } from 'node:fs';

/** Debian's libfaketime (package `libfaketime`, pulled in by `faketime`); the MT build serialises its own state between threads. */
export const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';

export function libfaketimeAvailable(): boolean {
  return existsSync(LIBFAKETIME);
}

/** The environment that makes a child's clocks run `speed` times faster from its start. */
export function acceleratedEnv(speed: number): Record<string, string> {
  if (!(speed >= 1)) throw new Error(`the speed-up must be at least 1, got ${speed}`);
  return { LD_PRELOAD: LIBFAKETIME, FAKETIME: `+0 x${speed}`, FAKETIME_DONT_FAKE_MONOTONIC: '0' };
}

/** The daemon's time as the driver computes it: started (on both clocks) at `startMs`, running `speed` times faster. */
export class DaemonClock {
  constructor(
    readonly speed: number,
    readonly startMs: number,
    private readonly wallNow: () => number = Date.now,
  ) {}

  /** The daemon's epoch ms now. */
  now(): number {
    return this.startMs + (this.wallNow() - this.startMs) * this.speed;
  }

  /** Daemon hours since the start. */
  hours(): number {
    return (this.now() - this.startMs) / 3_600_000;
  }

  /** Wall ms that `daemonMs` of the daemon's time take. */
  wallMs(daemonMs: number): number {
    return daemonMs / this.speed;
  }
}
