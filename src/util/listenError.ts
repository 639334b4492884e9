/**
 * Turns the errors of listening on a port into a message a self-hoster can act
 * on: which address, what is probably in the way, and the setting that moves it.
 */
export function explainListenError(err: unknown, what: string, address: { host: string; port: number }, advice: string): Error {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `${address.host}:${address.port}`;
  if (code === 'EADDRINUSE') return new Error(`${what} cannot listen on ${where}: the port is already in use. ${advice}`, { cause: err });
  if (code === 'EACCES')
    return new Error(`${what} cannot listen on ${where}: permission denied (ports below 1024 need privileges). ${advice}`, { cause: err });
  if (code === 'EADDRNOTAVAIL') return new Error(`${what} cannot listen on ${where}: this machine has no such address.`, { cause: err });
  return err instanceof Error ? err : new Error(String(err));
}
