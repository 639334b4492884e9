/**
 * The core API: POST and GET /v1/calculate hand the fields to the core and wrap the outcome.
 * Registered in the /v1 scope, whose key hook (./auth.ts) admits and counts each call first.
 */
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { calculationContext } from '../config/calculationContext.js';
import type { AppConfig } from '../config/schema.js';
import { isSeason, type CalculationContext, type CalculationOutcome, type RawInput } from '../core/index.js';
import type { Clock } from '../util/clock.js';
import { API_KEYS_PLUGIN } from './auth.js';
import { HttpError, MESSAGES, sendError, sendJsonText } from './errors.js';
import { compileSerializer } from './orderedSerializer.js';
import { API_PREFIX, CALCULATE_PATH } from './paths.js';
import { calculateResponses } from './schemas.js';

export type Calculator = (input: RawInput, context: CalculationContext) => CalculationOutcome;

export interface CalculateOptions {
  config: AppConfig;
  clock: Clock;
  calculate: Calculator;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const calculateRoutes: FastifyPluginCallback<CalculateOptions> = (app: FastifyInstance, { config, clock, calculate }, done) => {
  const serializeResult = compileSerializer(calculateResponses[200]);

  const context = (input: Record<string, unknown>): CalculationContext => {
    const season = Object.hasOwn(input, 'season') ? input.season : undefined;
    return calculationContext(config, clock.now(), { forcedSeason: config.allowSeasonOverride && isSeason(season) ? season : undefined });
  };

  app.route({
    method: ['GET', 'POST'],
    url: CALCULATE_PATH.slice(API_PREFIX.length),
    // Also for the OpenAPI document; the 200 body is written by serializeResult from the same schema and sent as bytes.
    schema: { response: calculateResponses },
    // The scope's rules for a key (access "key", the default), and the daily quota.
    config: { countsUsage: true },
    // Returns nothing: a synchronous handler's return value would be sent a second time.
    // fastify turns a synchronous throw into the error handler's answer.
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
  done();
};

/** Encapsulated, and only in the /v1 scope: fastify refuses to start when the key hook is not registered before it. */
export const calculatePlugin = fp(calculateRoutes, { name: 'mowability-calculate', encapsulate: true, dependencies: [API_KEYS_PLUGIN] });
