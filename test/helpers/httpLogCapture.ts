/** A pino logger (with the production redaction) whose output the test can read. */
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/util/logger.js';

export function captureLogger(level = 'debug'): { logger: Logger; text(): string; lines(): Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level, destination: stream });
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
