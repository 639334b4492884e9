/**
 * The `mowability` CLI's process side, loaded by src/cli/main.ts once the Node.js version is known
 * to fit: the only place that touches process signals and exit.
 */
import { runCli } from './run.js';
import type { CliIo, FatalError } from './io.js';

/** After serve returns, nothing may keep the process alive; if something does, say what and leave. */
const LINGER_LIMIT_MS = 5000;

const io: CliIo = {
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  shutdownSignal: () =>
    new Promise((resolve) => {
      let stopping = false;
      // Kept installed: a second signal during the graceful stop must not kill the process half-way.
      const onSignal = (signal: NodeJS.Signals) => {
        stopping = true;
        resolve(signal);
      };
      // Only serve installs these: an error that escaped every handler is logged by serve, which
      // then stops gracefully (database flushed and closed) and exits non-zero.
      const onFatal = (origin: FatalError['origin']) => (error: unknown) => {
        if (stopping) process.stderr.write(`mowability: ${origin} while stopping: ${(error as Error)?.stack ?? String(error)}\n`);
        stopping = true;
        resolve({ origin, error });
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
      process.on('uncaughtException', onFatal('uncaughtException'));
      process.on('unhandledRejection', onFatal('unhandledRejection'));
    }),
  forceExit: (code) => process.exit(code),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  },
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    if (process.argv[2] !== 'serve') return;
    // Not expected (every handle is closed on stop, see test/e2e/processExit.test.ts); a safety net for systemd.
    setTimeout(() => {
      process.stderr.write(
        `mowability: still running ${LINGER_LIMIT_MS} ms after stopping (${process.getActiveResourcesInfo().join(', ')}); exiting\n`,
      );
      process.exit(code);
    }, LINGER_LIMIT_MS).unref();
  },
  (err: unknown) => {
    process.stderr.write(`mowability: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
