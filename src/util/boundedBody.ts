/**
 * Reads a fetch() response body with a bound on the bytes it decodes.
 *
 * fetch (undici) undoes gzip, deflate and br itself, and a chunked answer (or
 * one that closes the connection to end it) carries no Content-Length: the
 * declared length says nothing about what `response.text()` would hold. So the
 * bytes are counted as they stream in, after decoding, and the read stops (the
 * stream is cancelled, which closes the connection) as soon as they pass the
 * limit. Memory stays at about the limit whatever the server sends: a gzip
 * bomb (a few kB that inflate to gigabytes) or an endless chunked body.
 */

/** The body passed the limit; the read was stopped there. */
export class BodyTooLargeError extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`the response is larger than ${limitBytes} bytes (after decoding); reading stopped there`);
    this.name = 'BodyTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/** The decoded body as UTF-8 text, or BodyTooLargeError once more than `limitBytes` arrived. */
export async function readBoundedText(response: Response, limitBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  // Without a content coding the declared length is the body's: refuse before reading any of it.
  if (declared > limitBytes && !response.headers.has('content-encoding')) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limitBytes);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
