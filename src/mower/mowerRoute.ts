/**
 * `GET /v1/stations/{id}/mower` (a unit route, behind the API key like every /v1 route): the control's
 * status and today's and the last runs from the ledger. 404 for a station without an enabled control.
 */
import type { UnitRoute } from '../station/unitRoute.js';
import { HttpError } from '../util/httpError.js';
import type { MowerController } from './controller.js';
import { runView } from './runLedger.js';

export { runView, type RunView } from './runLedger.js';

/** Runs shown: today's and the ones before, newest first. */
const SHOWN_RUNS = 14;

export function mowerRoutes(controllerOf: (stationId: string) => MowerController | undefined, now: () => number): readonly UnitRoute[] {
  return [
    {
      url: '/stations/:id/mower',
      schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 128 } }, required: ['id'] } },
      answer: ({ params }) => {
        const station = params.id ?? '';
        const controller = controllerOf(station);
        if (!controller)
          throw new HttpError(404, `station "${station}" has no enabled mower control (mower.control.enabled, docs/mower.md)`);
        const nowMs = now();
        return {
          status: 'ok',
          station,
          mower: controller.status(nowMs),
          runs: controller.runs().slice(-SHOWN_RUNS).reverse().map(runView),
        };
      },
    },
  ];
}
