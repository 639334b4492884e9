/**
 * The process logger: pino JSON lines, pretty only when stdout is a terminal.
 * API keys and Authorization headers are redacted wherever they appear in a
 * logged object, at any of the places a request or error could carry them.
 */
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import { ACCESS_LINE_BUFFERING, bufferedLines } from './bufferedLines.js';

// pino-pretty (about 1 MB of heap with its dependencies) is loaded only for a terminal: under
// systemd or Docker stdout is a pipe and the daemon never needs it. It is CommonJS, so a
// synchronous require keeps createLogger synchronous.
const requireLazily = createRequire(import.meta.url);

export const REDACTED = '[Redacted]';

export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'request.headers.authorization',
  'api_key',
  'key',
  '*.api_key',
  '*.key',
  'query.api_key',
  'body.api_key',
  'req.query.api_key',
  'req.body.api_key',
  'request.query.api_key',
  'request.body.api_key',
];

export interface LoggerOptions {
  level: string;
  /** Defaults to stdout (pretty-printed when it is a TTY). Tests pass a capturing stream. */
  destination?: DestinationStream;
}

const BASE = { service: 'mowability' };

export function createLogger({ level, destination }: LoggerOptions): Logger {
  return pino({ level, base: BASE, redact: { paths: REDACT_PATHS, censor: REDACTED } }, destination ?? stdoutDestination());
}

/**
 * The logger for the HTTP access lines (src/http/accessLog.ts): the same
 * lines on the same stdout, but written in blocks (./bufferedLines.ts), one
 * write() per ~20 requests instead of one per request. Without redaction:
 * none of an access line's fields can carry a key. Every other line, errors
 * above all, goes through createLogger's logger and is written at once.
 */
export function createAccessLogger({ level, destination }: LoggerOptions): Logger {
  // A terminal is for a person watching: lines as they happen.
  return pino({ level, base: BASE }, destination ?? (process.stdout.isTTY ? stdoutDestination() : bufferedLines({ fd: 1, ...ACCESS_LINE_BUFFERING })));
}

function stdoutDestination(): DestinationStream {
  if (process.stdout.isTTY) {
    const pinoPretty = requireLazily('pino-pretty') as typeof import('pino-pretty');
    return pinoPretty({ colorize: true, sync: true });
  }
  return pino.destination({ dest: 1, sync: true });
}

export type { Logger };
