/**
 * The station units' routes (src/station/unitRoute.ts) as one fastify plugin of the `/v1` scope: each a
 * GET route with its schema and access rule; what it throws (an HttpError) goes to the scope's error
 * handler like any route's.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { UnitRoute } from '../station/unitRoute.js';

export function unitRoutesPlugin(routes: readonly UnitRoute[]): FastifyPluginAsync {
  return async (app) => {
    for (const route of routes) {
      app.route({
        method: 'GET',
        url: route.url,
        ...(route.schema && { schema: route.schema }),
        ...(route.access && { config: { access: route.access } }),
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const body = route.answer({
            params: (request.params ?? {}) as Readonly<Record<string, string>>,
            query: (request.query ?? {}) as Readonly<Record<string, unknown>>,
          });
          if (route.contentType !== undefined) void reply.type(route.contentType);
          return body;
        },
      });
    }
  };
}
