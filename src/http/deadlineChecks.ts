/**
 * Node's HTTP server enforces its request and header deadlines (`requestTimeout`, `headersTimeout`)
 * with one timer that looks at every open connection each `connectionsCheckingInterval`, from
 * `listen` to `close`, also while no connection is open: with the shipped 10 s headers deadline
 * (checked every 2.5 s, ./server.ts serverOptions) that is 24 wake-ups a minute of an otherwise
 * idle daemon. Node offers no option to pause it, so the timer is parked here while no connection
 * is open and started again with the first one. A deadline runs from when its connection started
 * its request, so it is enforced as before: within a checking interval after it passes.
 *
 * Node re-creates that timer through its `listening` listener (`setupConnectionsTracking`, which
 * replaces the running one and reads the interval anew); a Node without that listener keeps its
 * timer running as it always did.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The longest delay a Node timer takes (a longer one fires after 1 ms): the check waits ~24.8 days, i.e. not at all. */
export const PARKED_CHECK_INTERVAL_MS = 2 ** 31 - 1;

/** Node's own listener that (re)starts the deadline check; undefined on a Node that does it otherwise. */
function deadlineCheckStarter(server: Server): ((this: Server) => void) | undefined {
  const listener = server.listeners('listening').find((candidate) => candidate.name === 'setupConnectionsTracking');
  return listener as ((this: Server) => void) | undefined;
}

/**
 * Call before listen. Returns false (and changes nothing) when this Node starts its deadline
 * check some other way.
 */
export function parkDeadlineChecksWhileIdle(server: Server): boolean {
  const checked = server as Server & { connectionsCheckingInterval?: unknown };
  const start = deadlineCheckStarter(server);
  const activeInterval = checked.connectionsCheckingInterval;
  if (start === undefined || typeof activeInterval !== 'number') return false;
  let open = 0;
  const restart = (intervalMs: number): void => {
    // After close() Node has stopped the check for good; starting it again would leave a timer behind.
    if (!server.listening) return;
    checked.connectionsCheckingInterval = intervalMs;
    start.call(server);
  };
  // Runs after Node's own listener (added by the constructor), which has just started the check.
  server.on('listening', () => {
    if (open === 0) restart(PARKED_CHECK_INTERVAL_MS);
  });
  server.on('connection', (socket: Socket) => {
    if (open++ === 0) restart(activeInterval);
    socket.once('close', () => {
      if (--open === 0) restart(PARKED_CHECK_INTERVAL_MS);
    });
  });
  return true;
}
