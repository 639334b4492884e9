/**
 * The child's side of the IPC protocol of bench/lib/ipc.ts for the helpers that count deliveries
 * (bench/servers/mqttBaseline.ts, readingFloor.ts): {port} to the parent when ready, "count"
 * answered with {count}, "stop" ends the helper once `stop` has closed what it opened.
 */
export function answerParent(port: number, count: () => number, stop: () => Promise<void>): void {
  process.on('message', (message: unknown) => {
    if (message === 'count') process.send?.({ count: count() });
    else if (message === 'stop') void stop().finally(() => process.exit(0));
  });
  process.send?.({ port });
}

/** Runs the helper's main; a failure goes to stderr (which the parent keeps) with exit code 1. */
export function runHelper(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
