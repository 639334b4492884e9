/**
 * The status page: GET / and /stations/{id} (one HTML shell), its script and
 * style from public/ and uPlot from its npm package, in one encapsulated
 * plugin with gzip/brotli (@fastify/compress); the JSON endpoints it reads
 * are ./stationsRoute.ts in the /v1 scope, answered the same way. Nothing is built at runtime: the few asset files are
 * read once at registration and served from memory with a strong ETag; their
 * URLs carry a content hash, so browsers may cache them for a year, and the
 * shell itself is revalidated by its ETag.
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
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StatusPageAccess } from '../config/serviceSchema.js';
import { ingressPrefixOf } from './ingress.js';

/** public/ beside src/ and dist/ (both are one level below the package root). */
export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));
const ASSETS_DIR = join(PUBLIC_DIR, 'assets');
const UPLOT_DIR = dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));
/** Every file the page loads, by URL path: nothing else is served. */
const ASSET_FILES: Record<string, string> = {
  '/assets/app.js': join(ASSETS_DIR, 'app.js'),
  '/assets/app.css': join(ASSETS_DIR, 'app.css'),
  '/assets/i18n.js': join(ASSETS_DIR, 'i18n.js'),
  '/assets/reasons.js': join(ASSETS_DIR, 'reasons.js'),
  '/assets/charts.js': join(ASSETS_DIR, 'charts.js'),
  '/assets/mower.js': join(ASSETS_DIR, 'mower.js'),
  '/assets/plan.js': join(ASSETS_DIR, 'plan.js'),
  '/assets/favicon.svg': join(ASSETS_DIR, 'favicon.svg'),
  '/assets/vendor/uPlot.iife.min.js': join(UPLOT_DIR, 'uPlot.iife.min.js'),
  '/assets/vendor/uPlot.min.css': join(UPLOT_DIR, 'uPlot.min.css'),
};
const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  html: 'text/html; charset=utf-8',
};
/** Hashed URLs never change content: a year, without revalidation (RFC 8246 immutable). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
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
  pollIntervalMs?: number;
  /** Reads the page's files (tests replace it to simulate a broken install). */
  loadPage?: (mode: StatusPageAccess, pollIntervalMs: number) => LoadedPage;
}

interface LoadedPage {
  assets: Map<string, Asset>;
  shell: Asset;
  /** The shell under an ingress prefix (./ingress.ts); absent: the plain shell. */
  shellUnder?: (prefix: string) => Asset;
}

/** Ingress prefixes whose shell is kept (one Home Assistant has one or two). */
const KEPT_PREFIXES = 8;

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

function asset(body: Buffer, type: string, cacheControl: string): Asset {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`, cacheControl };
}

function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [path, file] of Object.entries(ASSET_FILES)) {
    assets.set(path, asset(readFileSync(file), CONTENT_TYPES[path.slice(path.lastIndexOf('.') + 1)]!, IMMUTABLE));
  }
  return assets;
}

/**
 * The HTML shell with hashed asset URLs and the page settings in meta tags (read by app.js), as text
 * with `{{base}}` left in: the prefix every URL of the page starts with ("" but under ingress).
 */
function renderShellTemplate(assets: Map<string, Asset>, mode: StatusPageAccess, pollIntervalMs: number): string {
  return readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8')
    .replace(/\{\{asset:([\w./]+)\}\}/g, (_match, path: string) => {
      const found = assets.get(path);
      if (!found) throw new Error(`public/index.html names an asset that is not served: ${path}`);
      return `${path}?v=${found.etag.slice(1, 13)}`;
    })
    .replace('{{access}}', mode)
    .replace('{{pollMs}}', String(pollIntervalMs));
}

function shellAsset(template: string, prefix: string): Asset {
  return asset(Buffer.from(template.replaceAll('{{base}}', prefix)), CONTENT_TYPES.html!, 'no-cache');
}

function send(request: FastifyRequest, reply: FastifyReply, served: Asset): FastifyReply {
  reply.header('etag', served.etag).header('cache-control', served.cacheControl);
  const match = request.headers['if-none-match'];
  if (typeof match === 'string' && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === served.etag))
    return reply.code(304).send();
  return reply.type(served.type).send(served.body);
}

function loadPage(mode: StatusPageAccess, pollIntervalMs: number): LoadedPage {
  const assets = loadAssets();
  const template = renderShellTemplate(assets, mode, pollIntervalMs);
  const underPrefix = new Map<string, Asset>();
  const shellUnder = (prefix: string): Asset => {
    let served = underPrefix.get(prefix);
    if (!served) {
      if (underPrefix.size >= KEPT_PREFIXES) underPrefix.delete(underPrefix.keys().next().value!);
      served = shellAsset(template, prefix);
      underPrefix.set(prefix, served);
    }
    return served;
  };
  return { assets, shell: shellAsset(template, ''), shellUnder };
}

/** Compression and the page's headers, for the page and for the JSON endpoints it reads. */
export async function addPageResponseHandling(scope: FastifyInstance): Promise<void> {
  // The compressed answer is cached by the browser per content hash; brotli at quality 4 (the plugin's default) is cheap on a Pi.
  await scope.register(compress, { global: true, encodings: ['br', 'gzip'] });
  scope.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    return payload;
  });
}

/** Encapsulated: its compression and headers stay its own. */
export async function statusPagePlugin(app: FastifyInstance, deps: StatusPageDeps): Promise<void> {
  if (deps.mode === 'off') return;
  let page: LoadedPage;
  try {
    page = (deps.loadPage ?? loadPage)(deps.mode, deps.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  } catch (err) {
    // A broken install (public/ missing or unreadable) costs the page, not the daemon: the API and the
    // station endpoints keep working.
    app.log.warn(
      { err, dir: PUBLIC_DIR },
      `the status page is off: its files in ${PUBLIC_DIR} are missing or unreadable (reinstall the package); the API and /v1/stations keep working`,
    );
    return;
  }
  const { assets, shell, shellUnder } = page;
  await addPageResponseHandling(app);
  // Not API: hidden from /openapi.json.
  const hidden = { schema: { hide: true } };
  const sendShell = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('vary', 'X-Ingress-Path');
    // The prefix comes only from the ingress proxy, in the form of a path (the server's onRequest hook, ./ingress.ts).
    const prefix = ingressPrefixOf(request);
    return send(request, reply, prefix === '' || !shellUnder ? shell : shellUnder(prefix));
  };
  app.get('/', hidden, sendShell);
  app.get('/stations/:id', hidden, sendShell);
  for (const [path, served] of assets) app.get(path, hidden, async (request, reply) => send(request, reply, served));
}
