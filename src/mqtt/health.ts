/**
 * The MQTT side's state as /health reports it (`checks.mqtt`). The endpoint is
 * unauthenticated, so the messages name no broker address, port or account;
 * the log has the details.
 */
export interface MqttHealth {
  /** `starting` until the embedded broker listens and the bridge's first connection is up. */
  status: 'ok' | 'starting' | 'error';
  /** What is the matter, as a word the status page says in its own language (the message stays English). */
  code: MqttHealthCode;
  message: string;
}

export type MqttHealthCode = 'broker_not_listening' | 'bridge_not_running' | 'starting' | 'not_connected' | 'access_limited' | 'connected';

export interface MqttHealthFacts {
  /** The bridge component has started (and not stopped). */
  running: boolean;
  /** The daemon runs its own broker (otherwise it connects to mqtt.url). */
  embedded: boolean;
  /** The embedded broker accepts connections (ignored without one). */
  brokerListening: boolean;
  /** The bridge's MQTT connection is up. */
  connected: boolean;
  /** The bridge's connection has been up at least once since it started. */
  connectedOnce?: boolean;
  /** Why the last connection attempt failed (src/mqtt/connectionProblem.ts: names settings, no address). */
  problem?: string | undefined;
  /** What the ACL round trip found (src/mqtt/accessProbe.ts): lines naming the topic and the fix. */
  access?: readonly string[];
  /** The daemon's own messages do not come back: what it publishes reaches nobody. */
  accessDenied?: boolean;
  /** Subscriptions the broker has not acknowledged (src/mqtt/subscriptionAcks.ts): their messages do not arrive. */
  unacknowledged?: number;
  /** The start's bounded wait for those acknowledgements is over (src/mqtt/bridge.ts, SUBSCRIBE_PATIENCE_MS). */
  subscribeWaitOver?: boolean;
}

export function mqttHealth(facts: MqttHealthFacts): MqttHealth {
  const broker = facts.embedded ? 'the embedded broker' : 'the external broker (mqtt.url)';
  if (facts.embedded && !facts.brokerListening)
    return { status: 'error', code: 'broker_not_listening', message: 'the embedded broker is not listening' };
  if (!facts.running) return { status: 'error', code: 'bridge_not_running', message: 'the MQTT bridge is not running' };
  // The embedded broker is local: the first connection follows at once, so until then it is starting, not failing.
  if (facts.embedded && !facts.connected && facts.connectedOnce === false)
    return { status: 'starting', code: 'starting', message: 'connecting to the embedded broker' };
  if (!facts.connected && facts.problem)
    return { status: 'error', code: 'not_connected', message: `not connected to ${broker}: ${facts.problem}; retrying in the background` };
  if (!facts.connected)
    return { status: 'error', code: 'not_connected', message: `not connected to ${broker}; retrying in the background (see the log)` };
  const access = facts.access ?? [];
  if (access.length > 0)
    return {
      status: facts.accessDenied ? 'error' : 'ok',
      code: 'access_limited',
      message: `connected to ${broker}, but ${access.join('; ')}`,
    };
  const unacknowledged = facts.unacknowledged ?? 0;
  if (unacknowledged > 0 && !facts.subscribeWaitOver)
    return { status: 'starting', code: 'starting', message: `connected to ${broker}; waiting for it to acknowledge the subscriptions` };
  if (unacknowledged > 0)
    return {
      status: 'error',
      code: 'access_limited',
      message: `connected to ${broker}, but it has not acknowledged ${unacknowledged} of the daemon's subscriptions: the stations' messages there do not arrive (see the log)`,
    };
  return { status: 'ok', code: 'connected', message: `connected to ${broker}` };
}
