/**
 * The MQTT side's state as /health reports it (`checks.mqtt`). The endpoint is
 * unauthenticated, so the messages name no broker address, port or account;
 * the log has the details.
 */
export interface MqttHealth {
  /** `starting` until the embedded broker listens and the bridge's first connection is up. */
  status: 'ok' | 'starting' | 'error';
  message: string;
}

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
}

export function mqttHealth(facts: MqttHealthFacts): MqttHealth {
  const broker = facts.embedded ? 'the embedded broker' : 'the external broker (mqtt.url)';
  if (facts.embedded && !facts.brokerListening) return { status: 'error', message: 'the embedded broker is not listening' };
  if (!facts.running) return { status: 'error', message: 'the MQTT bridge is not running' };
  // The embedded broker is local: the first connection follows at once, so until then it is starting, not failing.
  if (facts.embedded && !facts.connected && facts.connectedOnce === false)
    return { status: 'starting', message: 'connecting to the embedded broker' };
  if (!facts.connected && facts.problem)
    return { status: 'error', message: `not connected to ${broker}: ${facts.problem}; retrying in the background` };
  if (!facts.connected) return { status: 'error', message: `not connected to ${broker}; retrying in the background (see the log)` };
  const access = facts.access ?? [];
  if (access.length > 0)
    return { status: facts.accessDenied ? 'error' : 'ok', message: `connected to ${broker}, but ${access.join('; ')}` };
  return { status: 'ok', message: `connected to ${broker}` };
}
