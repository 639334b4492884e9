#!/usr/bin/env node
/** The `mowability` executable: the only place that touches process signals and exit. */
import { runCli } from './run.js';
import type { CliIo } from './io.js';

const io: CliIo = {
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  shutdownSignal: () =>
    new Promise((resolve) => {
      // Kept installed: a second signal during the graceful stop must not kill the process half-way.
      const onSignal = (signal: NodeJS.Signals) => resolve(signal);
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    }),
  forceExit: (code) => process.exit(code),
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    // serve may leave idle handles (e.g. sockets of other libraries) behind; the work is done.
    if (process.argv[2] === 'serve') process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`mowability: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
