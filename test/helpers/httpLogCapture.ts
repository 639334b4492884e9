/** A pino logger (by default the production one, with its redaction) whose output the test can read. */
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger, type LoggerOptions } from '../../src/util/logger.js';

export function captureLogger(
  level = 'debug',
  make: (options: LoggerOptions) => Logger = createLogger,
): { logger: Logger; text(): string; lines(): Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = make({ level, destination: stream });
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
