/**
 * What the controller needs of a mower, whatever its kind (Home Assistant, OpenMower, a generic MQTT
 * mower): send a command, and report the activity it is in. An adapter only translates; retries,
 * confirmation and budgets are the controller's (./controller.ts).
 */
import type { MowerActivity } from '../core/mower/decision.js';

export type MowerCommand = 'start' | 'dock' | 'pause';

export interface MowerAdapter {
  readonly kind: string;
  /** Opens the connection (a WebSocket, MQTT subscriptions); resolves once it is under way, not necessarily up. */
  open(): Promise<void>;
  close(): Promise<void>;
  /** Sends the command; rejects when it could not be sent (connection down, refused). Never logs secrets. */
  send(command: MowerCommand): Promise<void>;
  /** The last activity the mower reported ('unknown' before any). */
  activity(): MowerActivity;
  /** Called with each reported activity (repeats included), in order. */
  onActivity(listener: (activity: MowerActivity) => void): void;
  /** A one-line problem of the connection for the state and the page (no secrets), or undefined when fine. */
  problem(): string | undefined;
}

/** The activity a command should lead to: a start mows, a dock returns (or is docked at once), a pause pauses. */
export function confirms(command: MowerCommand, activity: MowerActivity): boolean {
  if (command === 'start') return activity === 'mowing';
  if (command === 'dock') return activity === 'returning' || activity === 'docked';
  return activity === 'paused' || activity === 'docked';
}
