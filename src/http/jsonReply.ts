/**
 * Sends JSON text as UTF-8 bytes, encoded once: given a string, fastify
 * measures its UTF-8 length and Node encodes it again on write, and the
 * German reason texts (– and °) make every result a two-byte string, which
 * is the slow case for both. No response schema applies to a Buffer, so the
 * text must already be schema-conformant (./orderedSerializer.ts, or an
 * envelope fixed by construction).
 */
import type { FastifyReply } from 'fastify';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendJsonText(reply: FastifyReply, statusCode: number, json: string): FastifyReply {
  return reply.code(statusCode).header('content-type', JSON_CONTENT_TYPE).send(Buffer.from(json, 'utf8'));
}
