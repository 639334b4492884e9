/**
 * A log destination that gathers lines and writes them in blocks: for the
 * HTTP access lines, one per request. Written one by one, each line is a
 * write() system call, which on the measured machine cost as much CPU as
 * everything else the access log does (docs/performance.md, "Request
 * path"); in blocks of about 4 KiB it is one call per ~20 requests.
 *
 * The buffering is sonic-boom's (pino's own destination, asynchronous with a
 * minimum length); this module only bounds how long a line may wait: the
 * first line into an empty buffer arms one timer, so a quiet daemon's line
 * still reaches the journal within `flushAfterMs`, and an idle daemon has no
 * timer at all. pino flushes the buffer synchronously when the process
 * exits (also after a fatal error), so only a kill -9 or a power cut can
 * lose lines, at most `flushAfterMs` of them. Lines beyond `maxBufferBytes`
 * while the reader of stdout is stuck are dropped instead of held in memory.
 */
import pino, { type DestinationStream } from 'pino';

export interface BufferedLinesOptions {
  /** The file descriptor written to (1: stdout). */
  fd: number;
  /** Lines are written once this many bytes are waiting. */
  blockBytes: number;
  /** ...or this long after the first line of a block arrived, whichever comes first. */
  flushAfterMs: number;
  /** Beyond this many bytes waiting (a blocked reader), new lines are dropped. */
  maxBufferBytes: number;
}

/** The access log's shipped settings: about 20 lines per write, at most a second late, at most 1 MiB held. */
export const ACCESS_LINES: Omit<BufferedLinesOptions, 'fd'> = { blockBytes: 4096, flushAfterMs: 1000, maxBufferBytes: 1024 * 1024 };

export interface BufferedLines extends DestinationStream {
  /** Writes what is waiting now (for tests and an orderly stop; process exit does it by itself). */
  flush(): Promise<void>;
}

export function bufferedLines(options: BufferedLinesOptions): BufferedLines {
  const sonic = pino.destination({ dest: options.fd, sync: false, minLength: options.blockBytes, maxLength: options.maxBufferBytes });
  let timer: NodeJS.Timeout | undefined;
  const flushNow = (): void => {
    timer = undefined;
    sonic.flush();
  };
  return {
    write(line: string): void {
      sonic.write(line);
      // unref: a pending flush never keeps the process alive; exit flushes synchronously instead.
      timer ??= setTimeout(flushNow, options.flushAfterMs).unref();
    },
    flush(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      return new Promise((resolve, reject) => sonic.flush((err?: Error | null) => (err ? reject(err) : resolve())));
    },
  };
}
