/** The lawn memory with a mower state source on the MQTT fixture's daemon (aedes on an ephemeral port). */
import { onTestFinished } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import type { MowerConfig } from '../../src/lawn/mowerConfig.js';
import { MowerStateSources } from '../../src/lawn/mowerStateSource.js';
import type { StationSideConfig } from '../../src/config/schema.js';
import { Database } from '../../src/store/database.js';
import type { MqttDaemonFixture } from '../helpers/mqttFixture.js';
import { testLawnUnit } from '../helpers/lawnUnit.js';
import { silentLogger, testMqttConfig } from '../helpers/mqttHarness.js';
import { garden, type LawnDaemon } from './lawnHarness.js';

export interface MowerDaemon extends LawnDaemon {
  mower: MowerStateSources;
}

type StationOverrides = Partial<StationSideConfig['station']>;

export async function startMowerDaemon(
  fixture: MqttDaemonFixture,
  mower: MowerConfig,
  settings: StationOverrides = {},
): Promise<MowerDaemon> {
  const station: StationConfig & { mower: MowerConfig } = { ...garden, mower };
  const config = testMqttConfig({ stations: [station], station: { mowableOnDelayMinutes: 0, ...settings } });
  const database = await Database.open(fixture.dbPath);
  const unit = testLawnUnit({ stations: [station], database, now: () => fixture.clock.now() });
  // As the lawn memory's module wires it (src/lawn/buildLawnUnit.ts): the source records through the lawn unit.
  const source = new MowerStateSources(
    [station],
    (id, atMs, from) => unit.recordCut(id, atMs, from),
    silentLogger,
    () => fixture.clock.now(),
  );
  const daemon = await fixture.start(config, { units: [unit, source] });
  const stop = async () => {
    await daemon.stop();
    await database.close().catch(() => undefined);
  };
  onTestFinished(stop);
  return {
    daemon,
    unit,
    mower: source,
    stop,
    state: () => daemon.service.stationState('garden') as ReturnType<LawnDaemon['state']>,
  };
}
