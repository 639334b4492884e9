/**
 * GET /v1/lawns/{lawnId}/plan.ics: a lawn's week plan as an iCalendar feed (./planCalendar.ts) that
 * Home Assistant's Remote Calendar or a phone calendar subscribes to. In the /v1 scope and, like
 * /v1/stations (./stationsRoute.ts), there only while http.statusPage is not off: open with `open`;
 * with `key`, an enabled key as Bearer header or, for keys enabled for GET, as `api_key` in the
 * query, because a calendar subscription is a URL and cannot send a header (docs/api.md says the
 * URL then holds the key). Errors are the API's envelope.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { StatusPageAccess } from '../config/serviceSchema.js';
import { HttpError } from '../util/httpError.js';
import { API_KEYS_PLUGIN } from './auth.js';
import { API_PREFIX } from './paths.js';
import { CALENDAR_LANGUAGES, planCalendarText, type CalendarLanguage } from './planCalendar.js';
import { findLawn, type PlanSource } from './planView.js';
import { errorEnvelopeSchema } from './schemas.js';
import { addPageResponseHandling } from './statusPage.js';

export const PLAN_CALENDAR_PATH = `${API_PREFIX}/lawns/:lawnId/plan.ics`;
export const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';
export const PLAN_MESSAGES = {
  unknownLawn: 'Unknown lawn. GET /v1/stations/{id} lists the lawns of a station in its plan.',
  badLanguage: `Invalid lang: use ${CALENDAR_LANGUAGES.join(' or ')}.`,
} as const;

export interface PlanCalendarOptions {
  view: PlanSource;
  mode: StatusPageAccess;
  /** The configured `timezone` (the local times said in the events). */
  timeZone: string;
}

/** `?lang=` when given (and valid), else the first of the client's languages this feed speaks, else English. */
function languageOf(request: FastifyRequest): CalendarLanguage {
  const { lang } = request.query as { lang?: unknown };
  if (lang !== undefined) {
    if (typeof lang === 'string' && (CALENDAR_LANGUAGES as readonly string[]).includes(lang)) return lang as CalendarLanguage;
    throw new HttpError(400, PLAN_MESSAGES.badLanguage);
  }
  const accepted = request.headers['accept-language'] ?? '';
  for (const range of accepted.split(',')) {
    const primary = range.trim().split(/[-;]/)[0]?.toLowerCase();
    if ((CALENDAR_LANGUAGES as readonly string[]).includes(primary ?? '')) return primary as CalendarLanguage;
  }
  return 'en';
}

async function planCalendarRoutes(app: FastifyInstance, deps: PlanCalendarOptions): Promise<void> {
  if (deps.mode === 'off') return;
  await addPageResponseHandling(app);
  const config = { access: deps.mode === 'open' ? ('open' as const) : ('bearerOrGetKey' as const) };
  const keyDoc = deps.mode === 'key' ? ' Needs an enabled API key: Bearer header, or api_key in the query for keys enabled for GET.' : '';
  app.get(
    PLAN_CALENDAR_PATH.slice(API_PREFIX.length),
    {
      schema: {
        summary: "A lawn's plan as iCalendar",
        description: `The lawn's planned mowing slots as an RFC 5545 calendar (text/calendar), one event per slot with a stable UID; lang=en or de.${keyDoc}`,
        security: deps.mode === 'key' ? [{ bearerAuth: [] }, { apiKeyQuery: [] }] : [],
        params: { type: 'object', required: ['lawnId'], properties: { lawnId: { type: 'string', maxLength: 64 } } },
        querystring: {
          type: 'object',
          properties: { lang: { type: 'string', description: 'en or de (default: the Accept-Language header, else en).' } },
        },
        response: {
          200: { description: 'The calendar.', content: { 'text/calendar': { schema: { type: 'string' } } } },
          '4xx': errorEnvelopeSchema,
          '5xx': errorEnvelopeSchema,
        },
      },
      config,
    },
    async (request, reply) => {
      const { lawnId } = request.params as { lawnId: string };
      const lang = languageOf(request);
      const found = findLawn(deps.view, lawnId);
      if (!found) throw new HttpError(404, PLAN_MESSAGES.unknownLawn);
      const text = planCalendarText({ lawnId, lawnName: found.lawn.name, plan: found.plan, lang, timeZone: deps.timeZone });
      return reply.type(CALENDAR_CONTENT_TYPE).header('content-disposition', `inline; filename="${lawnId}-plan.ics"`).send(text);
    },
  );
}

/** Encapsulated (its compression and headers stay its own), and only in the /v1 scope (after the key hook). */
export const planCalendarPlugin = fp(planCalendarRoutes, {
  name: 'mowability-plan-calendar',
  encapsulate: true,
  dependencies: [API_KEYS_PLUGIN],
});
