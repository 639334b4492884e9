/**
 * Services the mower control (src/mower/) uses from the station side and the lawn memory (docs/units.md,
 * "Services"): declared here, below both unit folders, since unit folders import no other.
 */
import type { StationStatePayload } from './statePayload.js';
import { unitService } from './unit.js';

/** The last state computed for a station (undefined before its first): what the mower's decision reads. */
export type StationStates = (stationId: string) => Readonly<StationStatePayload> | undefined;

/** The station side's states (provided by the composition root from the station facade). */
export const stationStatesService = unitService<StationStates>('stationStates', "the station side's last computed states");

/** Records a cut in the lawn memory (its last cut and growth reset); false when it is not newer or the lawn memory is off. */
export type RecordCut = (stationId: string, atMs: number, source: string) => boolean;

/** The lawn memory's recordCut (provided by src/lawn/buildLawnUnit.ts; a no-op while the lawn memory is off). */
export const cutRecorderService = unitService<RecordCut>('cutRecorder', "the lawn memory's recordCut");
