/**
 * The status page: GET / and /stations/{id} (one HTML shell), its script and
 * style from public/, uPlot from its npm package, and the JSON endpoints of
 * ./stationsRoute.ts, all in one encapsulated scope with gzip/brotli
 * (@fastify/compress). Nothing is built at runtime: the shell is read once at
 * registration, asset URLs carry a content hash so browsers may cache them
 * for a year, and the shell itself is revalidated by its ETag.
 *
 * Content-Security-Policy allows only same-origin scripts, styles and fetches:
 * no inline code anywhere on the page.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StatusPageAccess } from '../config/serviceSchema.js';
import type { Clock } from '../util/clock.js';
import type { AccessView } from './auth.js';
import { registerStationsRoutes } from './stationsRoute.js';
import type { StationsView } from './stationsView.js';

/** public/ beside src/ and dist/ (both are one level below the package root). */
export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));
const ASSETS_DIR = join(PUBLIC_DIR, 'assets');
const UPLOT_DIR = dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));
const OWN_ASSETS = ['app.js', 'app.css', 'i18n.js', 'reasons.js', 'favicon.svg'] as const;
const VENDOR_ASSETS = ['uPlot.iife.min.js', 'uPlot.min.css'] as const;
/** How often the page asks for fresh data when the daemon does not say otherwise. */
export const DEFAULT_POLL_INTERVAL_MS = 15_000;

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface StatusPageDeps {
  mode: StatusPageAccess;
  view: StationsView;
  access: AccessView;
  clock: Clock;
  pollIntervalMs?: number;
}

function contentHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('base64url').slice(0, 12);
}

/** The HTML shell with hashed asset URLs and the page settings in meta tags (read by app.js). */
function renderShell(mode: StatusPageAccess, pollIntervalMs: number): string {
  const urls: Record<string, string> = {};
  for (const name of OWN_ASSETS) urls[name] = `/assets/${name}?v=${contentHash(join(ASSETS_DIR, name))}`;
  for (const name of VENDOR_ASSETS) urls[name] = `/assets/vendor/${name}?v=${contentHash(join(UPLOT_DIR, name))}`;
  return readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8')
    .replace(/\{\{asset:([\w.]+)\}\}/g, (_match, name: string) => urls[name] ?? '')
    .replace('{{access}}', mode)
    .replace('{{pollMs}}', String(pollIntervalMs));
}

export async function registerStatusPage(app: FastifyInstance, deps: StatusPageDeps): Promise<void> {
  if (deps.mode === 'off') return;
  const shell = renderShell(deps.mode, deps.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const etag = `"${createHash('sha256').update(shell).digest('base64url').slice(0, 16)}"`;

  await app.register(async (scope) => {
    await scope.register(compress, { global: true, encodings: ['br', 'gzip'] });
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
      return payload;
    });
    const immutable = { cacheControl: true, maxAge: '365d', immutable: true, etag: true, lastModified: true, wildcard: false, index: false } as const;
    await scope.register(fastifyStatic, { root: ASSETS_DIR, prefix: '/assets/', ...immutable });
    await scope.register(fastifyStatic, {
      root: UPLOT_DIR,
      prefix: '/assets/vendor/',
      decorateReply: false,
      allowedPath: (path) => (VENDOR_ASSETS as readonly string[]).includes(path.slice(1)),
      ...immutable,
    });

    const sendShell = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('cache-control', 'no-cache').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('text/html; charset=utf-8').send(shell);
    };
    // Not API: hidden from /openapi.json.
    scope.get('/', { schema: { hide: true } }, sendShell);
    scope.get('/stations/:id', { schema: { hide: true } }, sendShell);
    registerStationsRoutes(scope, deps);
  });
}
