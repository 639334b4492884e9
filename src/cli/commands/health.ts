/**
 * `mowability health`: the container's HEALTHCHECK (and any other monitor on the same machine).
 * It asks the running daemon's GET /health on the address it listens on and fails when a part the
 * daemon needs is down. /health itself answers 200 while the MQTT side is down, since it answers
 * for the HTTP API (docs/api.md, "GET /health and /v1/health"); a daemon whose stations cannot
 * publish is not healthy, so this reads every entry of `checks` too.
 */
import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { configFor } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { daemonUrl, LIVE_TIMEOUT_MS } from '../statusReport.js';

const COMMAND = 'health';

/** States of checks.mqtt that mean the MQTT side is down or not up yet ('starting' until its first connection). */
const MQTT_DOWN = new Set(['error', 'starting']);

export interface HealthVerdict {
  healthy: boolean;
  /** One line per failing part ("mqtt: error (not connected to …)"), or why the answer could not be read. */
  problems: string[];
}

interface HealthCheck {
  status?: unknown;
  message?: unknown;
}

const describeCheck = (name: string, check: HealthCheck): string =>
  `${name}: ${String(check.status)}${typeof check.message === 'string' ? ` (${check.message})` : ''}`;

/**
 * The verdict on one /health answer. Its `status` decides for the HTTP API's parts: 'error' names
 * the failing checks; maintenance, which an operator switched on, is no fault of the container;
 * the shared stores' outages count only after store.outageGraceSeconds, as /health counts them
 * (docs/deployment.md, "Failures"). checks.mqtt, which /health only reports, decides for the MQTT side.
 */
export function healthVerdict(httpStatus: number, body: unknown): HealthVerdict {
  const mfi = (body as { mfi?: { status?: unknown; checks?: Record<string, HealthCheck> } } | null)?.mfi;
  if (typeof mfi?.status !== 'string') return { healthy: false, problems: [`HTTP ${httpStatus} without a health report`] };
  const checks = Object.entries(mfi.checks ?? {});
  const problems: string[] = [];
  if (mfi.status !== 'ok' && mfi.status !== 'maintenance') {
    const failing = checks.filter(([name, check]) => name !== 'mqtt' && check?.status === 'error');
    problems.push(
      ...(failing.length > 0 ? failing.map(([name, check]) => describeCheck(name, check)) : [`status ${mfi.status} (HTTP ${httpStatus})`]),
    );
  }
  const mqtt = mfi.checks?.mqtt;
  if (typeof mqtt?.status === 'string' && MQTT_DOWN.has(mqtt.status)) problems.push(describeCheck('mqtt', mqtt));
  return { healthy: problems.length === 0, problems };
}

export async function healthCommand(argv: readonly string[], io: CliIo, fetchImpl: typeof fetch = fetch): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, {});
  if (printedHelp(parsed, io, HELP.health)) return EXIT_OK;
  expectPositionals(COMMAND, parsed.positionals, []);
  const url = `${daemonUrl(configFor(parsed, io, { secretsOptional: true }))}/health`;
  let verdict: HealthVerdict;
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(LIVE_TIMEOUT_MS) });
    verdict = healthVerdict(response.status, await response.json().catch(() => null));
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    verdict = {
      healthy: false,
      problems: [
        cause === 'ECONNREFUSED' ? 'nothing listens there (is the daemon running?)' : `no answer (${cause ?? (err as Error).name})`,
      ],
    };
  }
  if (verdict.healthy) {
    io.stdout(`healthy: ${url}\n`);
    return EXIT_OK;
  }
  io.stderr(`unhealthy: ${url}: ${verdict.problems.join('; ')}\n`);
  return EXIT_FAILURE;
}
