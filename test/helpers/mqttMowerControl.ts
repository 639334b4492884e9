import { stationControlsFor } from '../../src/daemon.js';
import type { MowerControlUnit } from '../../src/mower/mowerControlUnit.js';
import type { StationUnit } from '../../src/station/unit.js';
import type { Database } from '../../src/store/database.js';
import { testLawnUnit } from './lawnUnit.js';
import { mqttForecastUnit } from './mowerSimulators.js';
import { silentLogger, type FakeClock } from './mqttHarness.js';

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

/**
 * The units of a daemon whose station "garden" has a mower `control`: the lawn memory, an MQTT
 * forecast on `forecastTopic`, Home Assistant's controls (a robot mower's lawn) and the control itself.
 */
export function gardenUnitsWithMower(
  config: Parameters<typeof stationControlsFor>[0],
  database: Database,
  clock: FakeClock,
  control: MowerControlUnit,
  forecastTopic: string,
): StationUnit[] {
  const lawn = testLawnUnit({ stations: [{ id: 'garden' }], database, now: () => clock.now() });
  const forecast = mqttForecastUnit({ database, now: () => clock.now(), stationId: 'garden', topic: forecastTopic });
  return [lawn, forecast, stationControlsFor({ ...config, lawn: { mowerClass: 'robot' } }, database, silentLogger, clock), control];
}
