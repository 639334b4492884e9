/**
 * `GET /v1/stations/{id}/mower` (a unit route, behind the API key like every /v1 route): the control's
 * status and today's and the last runs from the ledger of the station's first lawn; `?lawn=<id>` a
 * further lawn's own mower. 404 for a station (or lawn) without an enabled control.
 */
import type { UnitRoute } from '../station/unitRoute.js';
import { HttpError } from '../util/httpError.js';
import type { MowerController } from './controller.js';
import { runView } from './runLedger.js';

export { runView, type RunView } from './runLedger.js';

/** Runs shown: today's and the ones before, newest first. */
const SHOWN_RUNS = 14;

export function mowerRoutes(
  controllerOf: (stationId: string, lawnId: string | undefined) => MowerController | undefined,
  now: () => number,
): readonly UnitRoute[] {
  return [
    {
      url: '/stations/:id/mower',
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 128 } }, required: ['id'] },
        querystring: { type: 'object', properties: { lawn: { type: 'string', maxLength: 64 } } },
      },
      answer: ({ params, query }) => {
        const station = params.id ?? '';
        const lawn = typeof query.lawn === 'string' ? query.lawn : undefined;
        const controller = controllerOf(station, lawn);
        if (!controller)
          throw new HttpError(
            404,
            lawn === undefined
              ? `station "${station}" has no enabled mower control (mower.control.enabled, docs/mower.md)`
              : `lawn "${lawn}" of station "${station}" has no enabled mower control (lawns[].mower.control.enabled, docs/mower.md)`,
          );
        const nowMs = now();
        return {
          status: 'ok',
          station,
          lawn: controller.lawn,
          mower: controller.status(nowMs),
          runs: controller.runs().slice(-SHOWN_RUNS).reverse().map(runView),
        };
      },
    },
  ];
}
