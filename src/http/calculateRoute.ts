/** POST and GET /v1/calculate: authenticate, hand the fields to the core, wrap the outcome. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { calculationContext } from '../config/calculationContext.js';
import type { AppConfig } from '../config/schema.js';
import { isSeason, type CalculationContext, type CalculationOutcome, type RawInput } from '../core/index.js';
import type { Clock } from '../util/clock.js';
import { authorize, keyIsInBody, type AccessView } from './auth.js';
import { HttpError, MESSAGES, sendError } from './errors.js';
import { CALCULATE_PATH } from './paths.js';
import { admitOrThrow, type UsageGate } from './quota.js';
import { calculateResponses } from './schemas.js';

export type Calculator = (input: RawInput, context: CalculationContext) => CalculationOutcome;

export interface CalculateRouteDeps {
  config: AppConfig;
  access: AccessView;
  clock: Clock;
  calculate: Calculator;
  /** Per-key usage and daily quota (omitted: not counted). */
  usage?: UsageGate;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function registerCalculateRoute(app: FastifyInstance, deps: CalculateRouteDeps): void {
  const { config, access, clock, calculate } = deps;

  const context = (input: Record<string, unknown>): CalculationContext => {
    const season = Object.hasOwn(input, 'season') ? input.season : undefined;
    return calculationContext(config, clock.now(), { forcedSeason: config.allowSeasonOverride && isSeason(season) ? season : undefined });
  };

  app.route({
    method: ['GET', 'POST'],
    url: CALCULATE_PATH,
    schema: { response: calculateResponses },
    // preParsing runs after the onRequest hooks (address block, rate limit) and before the body is read.
    preParsing: async (request: FastifyRequest, _reply: FastifyReply, payload) => {
      if (access.maintenance) throw new HttpError(503, MESSAGES.maintenance);
      if (!keyIsInBody(request)) admitOrThrow(deps.usage, authorize(request, access), clock.now());
      return payload;
    },
    preHandler: async (request: FastifyRequest) => {
      if (keyIsInBody(request)) admitOrThrow(deps.usage, authorize(request, access), clock.now());
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      // No body at all is an empty input (400 names the required fields); a JSON null is not an object.
      const supplied = request.method === 'POST' ? request.body : request.query;
      const raw = supplied === undefined ? {} : supplied;
      if (!isRecord(raw)) throw new HttpError(400, MESSAGES.bodyNotObject);
      const outcome = calculate(raw, context(raw));
      if (!outcome.ok) return sendError(reply, 400, outcome.error.message);
      return { status: 'ok', mfi: outcome.result, message: '' };
    },
  });
}
