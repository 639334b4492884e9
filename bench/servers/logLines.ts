/**
 * The access-lines benchmark's writer process: writes `count` access lines
 * (the fields src/http/accessLog.ts writes) through either the daemon's
 * access logger (written in blocks) or its main logger (one write() per
 * line, as the access lines were written before), to stdout, which the
 * parent makes a pipe and drains, as journald or Docker would. Yields to the
 * event loop every 20 lines, as requests would, so the blocks get written.
 * Reports the CPU it spent (user + system, µs) over IPC, then exits.
 */
import { createAccessLogger, createLogger } from '../../src/util/logger.js';

const [mode, countArg] = process.argv.slice(2);
const count = Number(countArg ?? 100_000);

async function writeLines(): Promise<number> {
  const logger = mode === 'blocks' ? createAccessLogger({ level: 'info' }) : createLogger({ level: 'info' }).child({}, { redact: [] });
  const lines = logger.child({ module: 'http' });
  const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));
  const line = { reqId: 'req-1', method: 'POST', path: '/v1/calculate', statusCode: 200, responseTimeMs: 1, clientAddress: '127.0.0.1' };
  // Warm-up, well below the 1 MiB the blocks may hold (the parent checks that no line was dropped).
  for (let i = 0; i < 2000; i++) {
    lines.info(line, 'request');
    if (i % 20 === 19) await yieldNow();
  }
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    lines.info(line, 'request');
    if (i % 20 === 19) await yieldNow();
  }
  // Let the last block go out (it is written after at most ACCESS_LINES.flushAfterMs) before the CPU is read.
  await new Promise<void>((resolve) => setTimeout(resolve, 1200));
  const used = process.cpuUsage(started);
  return used.user + used.system;
}

writeLines()
  .then((cpuMicros) => {
    process.send?.({ cpuMicros });
    process.disconnect?.();
  })
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
