/**
 * The process logger: pino JSON lines, pretty only when stdout is a terminal.
 * API keys and Authorization headers are redacted wherever they appear in a
 * logged object, at any of the places a request or error could carry them.
 */
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';

/*
 * A log destination that gathers lines and writes them in blocks: for the
 * HTTP access lines, one per request. Written one by one, each line is a
 * write() system call, which costs more CPU than formatting the line
 * (`npm run bench -- accesslines`, bench/NOTES.md "Request path"); in
 * blocks of about 4 KiB it is one call per ~20 requests.
 *
 * The buffering is sonic-boom's (pino's own destination) with a minimum
 * length, and the writes stay synchronous, as every other log line's: when
 * the reader of stdout (journald, Docker) falls behind, the daemon waits for
 * it as it always did, and no line is dropped or piles up in memory. This
 * destination only bounds how long a line may wait for its block to fill: the
 * first line into an empty buffer arms a timer that writes what waits, so a
 * line reaches stdout at most about `flushAfterMs` after it was logged, and
 * an idle daemon has no timer at all. What waits is written when the process
 * exits (also after a fatal error); only a kill -9 or a power cut loses it.
 */
export interface BufferedLinesOptions {
  /** The file descriptor written to (1: stdout). */
  fd: number;
  /** Lines are written once this many bytes are waiting (below sonic-boom's 16 KiB write size). */
  blockBytes: number;
  /** ...or about this long after the first line of a block arrived, whichever comes first. */
  flushAfterMs: number;
}

/** The access log's shipped settings: about 20 lines per write, at most about a second late. */
export const ACCESS_LINE_BUFFERING: Omit<BufferedLinesOptions, 'fd'> = { blockBytes: 4096, flushAfterMs: 1000 };

export interface BufferedLines extends DestinationStream {
  /** Bytes handed in and not yet written (0 once everything is out). */
  waitingBytes(): number;
}

export function bufferedLines(options: BufferedLinesOptions): BufferedLines {
  const sonic = pino.destination({ dest: options.fd, sync: true, minLength: options.blockBytes });
  let waiting = 0;
  let timer: NodeJS.Timeout | undefined;
  sonic.on('write', (bytes: number) => {
    waiting -= bytes;
  });
  // pino registers its exit flush only for asynchronous destinations.
  process.once('exit', () => {
    if (waiting > 0) sonic.flushSync();
  });
  // unref: a pending flush never keeps the process alive; the exit writes what waits instead.
  const arm = (): NodeJS.Timeout => setTimeout(tick, options.flushAfterMs).unref();
  // The writes are synchronous, so after flush() nothing waits: one timer per block, none while idle.
  function tick(): void {
    timer = undefined;
    if (waiting > 0) sonic.flush();
  }
  return {
    write(line: string): void {
      waiting += Buffer.byteLength(line);
      sonic.write(line);
      timer ??= arm();
    },
    waitingBytes: () => Math.max(0, waiting),
  };
}

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
 * lines on the same stdout, but written in blocks (bufferedLines above), one
 * write() per ~20 requests instead of one per request. Without redaction:
 * none of an access line's fields can carry a key. Every other line, errors
 * above all, goes through createLogger's logger and is written at once.
 */
export function createAccessLogger({ level, destination }: LoggerOptions): Logger {
  // A terminal is for a person watching: lines as they happen.
  return pino(
    { level, base: BASE },
    destination ?? (process.stdout.isTTY ? stdoutDestination() : bufferedLines({ fd: 1, ...ACCESS_LINE_BUFFERING })),
  );
}

function stdoutDestination(): DestinationStream {
  if (process.stdout.isTTY) {
    const pinoPretty = requireLazily('pino-pretty') as typeof import('pino-pretty');
    return pinoPretty({ colorize: true, sync: true });
  }
  return pino.destination({ dest: 1, sync: true });
}

export type { Logger };
