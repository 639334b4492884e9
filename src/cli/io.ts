/** What a CLI command may touch of the outside world; tests pass their own. */
export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Resolves when the process must stop: asked to (SIGTERM/SIGINT: the signal's name) or hit by an
   * error nobody caught (an uncaught exception or unhandled rejection); used by `serve`.
   */
  shutdownSignal(): Promise<ShutdownReason>;
  /** Ends the process at once; used by `serve` when a graceful stop takes too long. */
  forceExit(code: number): void;
  /** All of standard input as text (`upload-secret` reads a secret there, never from the command line). */
  readStdin?(): Promise<string>;
}

/** A signal name, or the error that escaped every handler. */
export type ShutdownReason = string | FatalError;

export interface FatalError {
  origin: 'uncaughtException' | 'unhandledRejection';
  error: unknown;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A wrong command line: the message names what is wrong, the CLI adds a pointer to --help. */
export class UsageError extends Error {
  readonly command: string;
  constructor(command: string, message: string) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** A failure the user can act on (unknown id, bad address); printed without a stack. */
export class CommandError extends Error {
  override name = 'CommandError';
}
