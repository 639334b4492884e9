/**
 * `GET /v1/stations/{id}/mower` (a unit route, behind the API key like every /v1 route): the control's
 * status and today's and the last runs from the ledger. 404 for a station without an enabled control.
 */
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../util/httpError.js';
import type { MowerController } from './controller.js';
import { runView } from './runLedger.js';

export { runView, type RunView } from './runLedger.js';

/** Runs shown: today's and the ones before, newest first. */
const SHOWN_RUNS = 14;

export function mowerRoutes(controllerOf: (stationId: string) => MowerController | undefined, now: () => number): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: string } }>(
      '/stations/:id/mower',
      {
        schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 128 } }, required: ['id'] } },
      },
      async (request) => {
        const controller = controllerOf(request.params.id);
        if (!controller)
          throw new HttpError(404, `station "${request.params.id}" has no enabled mower control (mower.control.enabled, docs/mower.md)`);
        const nowMs = now();
        return {
          status: 'ok',
          station: request.params.id,
          mower: controller.status(nowMs),
          runs: controller.runs().slice(-SHOWN_RUNS).reverse().map(runView),
        };
      },
    );
  };
}
