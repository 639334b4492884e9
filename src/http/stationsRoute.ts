/**
 * GET /v1/stations, /v1/stations/{id} and /v1/stations/{id}/history: what
 * the status page shows, for any client. In the /v1 scope; access follows
 * http.statusPage (open, or an API key as Bearer header, checked by the
 * scope's hook); the routes do not exist when it is off. Answers use the
 * API's envelope; errors go through ./errors.ts. Compressed and with the
 * page's headers, like the page that reads them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { StatusPageAccess } from '../config/serviceSchema.js';
import { MINUTE_MS, minuteOf } from '../history/windows.js';
import type { Clock } from '../util/clock.js';
import { API_KEYS_PLUGIN } from './auth.js';
import { HttpError } from './errors.js';
import { API_PREFIX } from './paths.js';
import { addPageResponseHandling } from './statusPage.js';
import { downsample, parseHistoryQuery, stepGrid } from './stationsSeries.js';
import { historyQuerySchema, historyResponses, stationDetailResponses, stationIdParams, stationsListResponses } from './stationsSchemas.js';
import { detail, summarize, type StationsView } from './stationsView.js';

export const STATIONS_PATH = `${API_PREFIX}/stations`;
/** The same paths inside the /v1 scope. */
const ROUTE = STATIONS_PATH.slice(API_PREFIX.length);
export const STATION_MESSAGES = { unknownStation: 'Unknown station. GET /v1/stations lists the configured ones.' } as const;

const ACCESS_DOC: Record<StatusPageAccess, string> = {
  open: 'No API key (http.statusPage is open).',
  key: 'Needs an enabled API key as Bearer header (http.statusPage is key).',
  off: '',
};

export interface StationsOptions {
  view: StationsView;
  mode: StatusPageAccess;
  clock: Clock;
}

function stationOf(view: StationsView, request: FastifyRequest): { id: string; name: string } {
  const { id } = request.params as { id: string };
  const station = view.stations().find((candidate) => candidate.id === id);
  if (!station) throw new HttpError(404, STATION_MESSAGES.unknownStation);
  return station;
}

async function stationsRoutes(app: FastifyInstance, deps: StationsOptions): Promise<void> {
  if (deps.mode === 'off') return;
  const { view, clock } = deps;
  await addPageResponseHandling(app);
  // The open page is read by anyone: holds give their public reason (docs/api.md, "Status page endpoints").
  const open = deps.mode === 'open';
  // With a key: a Bearer header only, as a key in a URL would land in browser history and proxy logs.
  const config = { access: open ? ('open' as const) : ('bearer' as const) };
  // For /openapi.json: whether a key is needed depends on http.statusPage.
  const docs = (summary: string, description: string) => ({ summary, description: `${description} ${ACCESS_DOC[deps.mode]}`, security: deps.mode === 'key' ? [{ bearerAuth: [] }] : [] });
  const ok = (nowMs: number) => ({ status: 'ok' as const, message: '', generated_at: new Date(nowMs).toISOString() });

  app.get(ROUTE, { schema: { ...docs('Stations', 'Every configured station with its current index, mowable flag, last reading and availability.'), response: stationsListResponses }, config }, async () => {
    const nowMs = clock.now();
    return { ...ok(nowMs), stations: view.stations().map((station) => summarize(view, station, nowMs, open)) };
  });

  app.get(`${ROUTE}/:id`, {
      schema: {
        ...docs('One station', "The station's summary plus its five checks with German reasons, data quality, missing fields and forecast (when a forecast is configured)."),
        params: stationIdParams,
        response: stationDetailResponses,
      },
      config,
    }, async (request) => {
    const nowMs = clock.now();
    return { ...ok(nowMs), station: detail(view, stationOf(view, request), nowMs, open) };
  });

  app.get(
    `${ROUTE}/:id/history`,
    // attachValidation: the handler answers a bad query with a message naming the rules, not a bare "Bad request."
    {
      schema: {
        ...docs('Station history', 'Series for charts, downsampled on the server from the minute history: one value per step for index, rain, temperature, dew point and humidity.'),
        params: stationIdParams,
        querystring: historyQuerySchema,
        response: historyResponses,
      },
      attachValidation: true,
      config,
    },
    async (request) => {
      const station = stationOf(view, request);
      // The schema documents the query; this check (run whether or not the schema accepted it) words the answer.
      const { hours, step } = request.query as { hours?: unknown; step?: unknown };
      const query = parseHistoryQuery(hours, step);
      if (!query.ok) throw new HttpError(400, query.message);
      const nowMs = clock.now();
      // Reading the state records its index (StationsView.state): the last step shows the current index.
      view.state(station.id);
      const grid = stepGrid(minuteOf(nowMs), query.hours, query.stepMinutes);
      const endMinute = grid.firstMinute + grid.points * grid.stepMinutes;
      const buckets = view.buckets(station.id, grid.firstMinute * MINUTE_MS, endMinute * MINUTE_MS - 1);
      const series = downsample(grid, buckets, (visit) => view.forEachMinute(station.id, grid.firstMinute, endMinute, visit));
      return {
        ...ok(nowMs),
        history: {
          station: station.id,
          step_minutes: grid.stepMinutes,
          from: new Date(grid.firstMinute * MINUTE_MS).toISOString(),
          to: new Date(endMinute * MINUTE_MS).toISOString(),
          ...series,
        },
      };
    },
  );
}

/** Encapsulated (its compression and headers stay its own), and only in the /v1 scope (after the key hook). */
export const stationsPlugin = fp(stationsRoutes, { name: 'mowability-stations', encapsulate: true, dependencies: [API_KEYS_PLUGIN] });
