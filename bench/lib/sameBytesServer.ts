/**
 * The bench's bare fastify instance (no hooks, no plugins, no logger): routes that answer, as constant strings, the
 * bytes a real route answered (bench/servers/httpServer.ts takes the samples from the real app with inject()).
 *   POST /same/<name>         the sample's status, content type and body
 *   POST /same/calculateFull  for the `calculate` sample, the fair baseline of issue 42 goal 5 ("the same-bytes
 *                             fastify route"): the same status, body and headers as the real answer, the rate
 *                             limiter's three `x-ratelimit-*` headers included (the sample's values, of the length the
 *                             real ones have), after fastify's default parser has parsed the JSON body (checked).
 */
import Fastify, { type FastifyInstance } from 'fastify';

export interface Sample {
  statusCode: number;
  body: string;
  contentType: string;
  /** The rate limiter's headers of the real answer, in its order. */
  limitHeaders: Record<string, string>;
}

/** A sample from an inject() response of the real app. */
export function sampleOf(response: { statusCode: number; body: string; headers: Record<string, unknown> }): Sample {
  const limitHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (name.startsWith('x-ratelimit-')) limitHeaders[name] = String(value);
  return { statusCode: response.statusCode, body: response.body, contentType: String(response.headers['content-type']), limitHeaders };
}

/** The bare instance, not listening yet. */
export function sameBytesApp(samples: Record<string, Sample>): FastifyInstance {
  const bare = Fastify();
  for (const [name, sample] of Object.entries(samples)) {
    bare.post(`/same/${name}`, async (_request, reply) => reply.code(sample.statusCode).type(sample.contentType).send(sample.body));
  }
  const full = samples.calculate;
  if (full) {
    // fastify's default content-type parser has parsed the JSON body before the handler runs, as for the real route;
    // the check makes sure of it, so that this baseline cannot silently skip the parse.
    bare.post('/same/calculateFull', (request, reply) => {
      if (typeof request.body !== 'object' || request.body === null) throw new Error('the body was not parsed as a JSON object');
      reply.code(full.statusCode).headers(full.limitHeaders).type(full.contentType).send(full.body);
    });
  }
  return bare;
}

/** The bare instance listening on an ephemeral loopback port. */
export async function sameBytesServer(samples: Record<string, Sample>): Promise<FastifyInstance> {
  const bare = sameBytesApp(samples);
  await bare.listen({ host: '127.0.0.1', port: 0 });
  return bare;
}
