/**
 * A mower's state reports turned into cuts, pure (time is passed in): a session is an unbroken run
 * of "mowing" reports; when a live report ends a session that lasted at least the minimum, the lawn
 * was cut at that moment. A brief stop (the robot docks to charge, pauses for an obstacle) ends the
 * session: each run that was long enough is a cut of its own, and the last one is the one that counts.
 *
 * A retained report (the broker replays it on subscribe, e.g. after a restart) carries no time, so
 * it never starts a session: a "mowing" kept since a bridge crashed days ago must not become a cut.
 * It may end one, as a live report does.
 */

export interface MowerSession {
  /** When the current run of live "mowing" reports began; null while the mower is not mowing. */
  mowingSinceMs: number | null;
}

export const IDLE_MOWER: MowerSession = { mowingSinceMs: null };

export interface MowerReport {
  mowing: boolean;
  retained: boolean;
}

export interface MowerStep {
  session: MowerSession;
  /** The cut's time when this report ended a long-enough session, else null. */
  cutAtMs: number | null;
}

/** Applies one report received at `nowMs`; `minMs` is the shortest run that counts as a cut. */
export function stepMowerSession(session: MowerSession, report: MowerReport, nowMs: number, minMs: number): MowerStep {
  const since = session.mowingSinceMs;
  if (report.mowing) {
    if (since !== null) return { session, cutAtMs: null };
    return { session: report.retained ? IDLE_MOWER : { mowingSinceMs: nowMs }, cutAtMs: null };
  }
  if (since === null) return { session, cutAtMs: null };
  // A clock that stepped back makes the run shorter, never longer.
  return { session: IDLE_MOWER, cutAtMs: nowMs - since >= minMs ? nowMs : null };
}

/** Minutes the current run has lasted at `nowMs` (0 while not mowing). */
export function mowingMinutes(session: MowerSession, nowMs: number): number {
  return session.mowingSinceMs === null ? 0 : Math.max(0, Math.floor((nowMs - session.mowingSinceMs) / 60_000));
}
