/** A live (not dry-run) generic MQTT mower control block, as a station's `mower.control` takes it; tests name only the mower's topics and words. */
export interface MqttMowerWords {
  commandTopic: string;
  stateTopic: string;
  stateKey: string;
  payloads: { start: string; dock: string; pause: string };
  states: Record<string, string[]>;
}

/** The control block with a 60-minute run confirmed within 60 s, for the mower `mqtt` describes. */
export function mqttMowerControl(mqtt: MqttMowerWords) {
  return { enabled: true, dryRun: false, kind: 'mqtt', runMinutes: 60, confirmSeconds: 60, mqtt };
}
