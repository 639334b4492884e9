/**
 * The process logger: pino JSON lines, pretty only when stdout is a terminal.
 * API keys and Authorization headers are redacted wherever they appear in a
 * logged object, at any of the places a request or error could carry them.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

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

export function createLogger({ level, destination }: LoggerOptions): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'mowability' },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
  };
  if (destination) return pino(options, destination);
  if (process.stdout.isTTY) return pino(options, pinoPretty({ colorize: true, sync: true }));
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

export type { Logger };
