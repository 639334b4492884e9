/**
 * An error with an HTTP status whose message may be shown to the client. It
 * is an expected outcome (a wrong key, a full rate limit), never logged with
 * a stack, so it captures none: that alone cost more than the rest of a 401.
 * It sits below every layer so a station unit's route (src/station/unit.ts,
 * `routes`) can answer 404 without importing the HTTP side; src/http/errors.ts
 * turns it into the one error envelope.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  /** Sent with the error response (e.g. Retry-After). */
  readonly headers: Readonly<Record<string, string>> | undefined;
  constructor(statusCode: number, message: string, headers?: Record<string, string>) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = headers;
  }
}

/** The one error envelope's response schema (src/http/errors.ts sends it), for every route's 4xx and 5xx. */
export const errorEnvelopeSchema = {
  type: 'object',
  required: ['status', 'mfi', 'message'],
  properties: {
    status: { type: 'string', enum: ['error'], description: "Always 'error' here." },
    mfi: { type: 'null', description: 'null on every error.' },
    message: { type: 'string', description: 'A fixed English message naming the problem.' },
  },
} as const;
