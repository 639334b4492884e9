/**
 * GET /metrics: the Prometheus text exposition of ../metrics/registry.ts, and
 * the hook that counts every answered request. Access follows http.metrics:
 * loopback by default, because the counters tell an outsider how busy the
 * daemon is and which stations send; a remote Prometheus gets `key` or `open`.
 */
import ipaddr from 'ipaddr.js';
import type { FastifyInstance, FastifyPluginCallback, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { MetricsAccess } from '../config/serviceSchema.js';
import { authorizeBearer, type AccessView } from './auth.js';
import { MESSAGES } from './errors.js';
import { HttpError } from '../util/httpError.js';
import { METRICS_PATH } from './paths.js';
import { errorEnvelopeSchema } from './schemas.js';

/**
 * What this plugin needs of the metrics (src/metrics/registry.ts builds them): declared here, so
 * that HTTP does not import the metrics, which read HTTP's, MQTT's and the station side's counters.
 */
export interface RequestMetrics {
  /** One finished HTTP request. */
  observeRequest(request: { route: string | undefined; method: string; statusCode: number; seconds: number }): void;
  /** The exposition text and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

export interface MetricsOptions {
  metrics: RequestMetrics;
  mode: MetricsAccess;
  access: AccessView;
}

function isLoopback(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

function checkAccess(app: FastifyInstance, request: FastifyRequest, deps: MetricsOptions): void {
  if (deps.mode === 'open') return;
  if (deps.mode === 'key') {
    authorizeBearer(request, deps.access);
    return;
  }
  if (!isLoopback(app.clientAddressOf(request))) throw new HttpError(403, MESSAGES.accessDenied);
}

/** Counts requests and serves /metrics; with http.metrics off neither (no hook on the request path). */
const metricsRoutes: FastifyPluginCallback<MetricsOptions> = (app, deps, done) => {
  if (deps.mode === 'off') return done();
  // Callback style: on every request, a promise would cost more than the counting.
  app.addHook('onResponse', (request, reply, done) => {
    deps.metrics.observeRequest({
      route: request.routeOptions.url,
      method: request.method,
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
  app.route({
    method: 'GET',
    url: METRICS_PATH,
    // Not in the OpenAPI document: it is operational, not part of the API contract.
    schema: { hide: true, response: { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema } },
    preHandler: async (request) => checkAccess(app, request, deps),
    handler: async (_request, reply) => {
      const { contentType, body } = await deps.metrics.render();
      return reply.type(contentType).send(body);
    },
  });
  done();
};

/** Not encapsulated: its hook counts the requests of every route. */
export const metricsPlugin = fp(metricsRoutes, { name: 'mowability-metrics', decorators: { fastify: ['clientAddressOf'] } });
