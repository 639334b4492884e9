/** POST and GET /v1/calculate: authenticate, hand the fields to the core, wrap the outcome. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { calculationContext } from '../config/calculationContext.js';
import type { AppConfig } from '../config/schema.js';
import { isSeason, type CalculationContext, type CalculationOutcome, type RawInput } from '../core/index.js';
import type { Clock } from '../util/clock.js';
import { authorize, keyIsInBody, type AccessView } from './auth.js';
import { HttpError, MESSAGES, sendError } from './errors.js';
import { sendJsonText } from './jsonReply.js';
import { compileSerializer } from './orderedSerializer.js';
import { CALCULATE_PATH } from './paths.js';
import { admitThen, type UsageGate } from './quota.js';
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
  const serializeResult = compileSerializer(calculateResponses[200]);

  const context = (input: Record<string, unknown>): CalculationContext => {
    const season = Object.hasOwn(input, 'season') ? input.season : undefined;
    return calculationContext(config, clock.now(), { forcedSeason: config.allowSeasonOverride && isSeason(season) ? season : undefined });
  };

  // Hooks and handler are synchronous (callback style): a promise per hook costs more than the check it runs.
  // fastify turns a synchronous throw into the error handler's answer.
  app.route({
    method: ['GET', 'POST'],
    url: CALCULATE_PATH,
    // Also for the OpenAPI document; the 200 body is written by serializeResult from the same schema and sent as bytes.
    schema: { response: calculateResponses },
    // preParsing runs after the onRequest hooks (address block, rate limit) and before the body is read.
    preParsing: (request: FastifyRequest, _reply: FastifyReply, payload, done) => {
      if (access.maintenance) throw new HttpError(503, MESSAGES.maintenance);
      if (keyIsInBody(request)) done(null, payload);
      else admitThen(deps.usage, authorize(request, access), clock.now(), (err) => (err ? done(err) : done(null, payload)));
    },
    preHandler: (request: FastifyRequest, _reply: FastifyReply, done) => {
      if (keyIsInBody(request)) admitThen(deps.usage, authorize(request, access), clock.now(), (err) => done(err));
      else done();
    },
    // Returns nothing: a synchronous handler's return value would be sent a second time.
    handler: (request: FastifyRequest, reply: FastifyReply): void => {
      // No body at all is an empty input (400 names the required fields); a JSON null is not an object.
      const supplied = request.method === 'POST' ? request.body : request.query;
      const raw = supplied === undefined ? {} : supplied;
      if (!isRecord(raw)) throw new HttpError(400, MESSAGES.bodyNotObject);
      const outcome = calculate(raw, context(raw));
      if (outcome.ok) sendJsonText(reply, 200, serializeResult({ status: 'ok', mfi: outcome.result, message: '' }));
      else sendError(reply, 400, outcome.error.message);
    },
  });
}
