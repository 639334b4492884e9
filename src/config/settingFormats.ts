/** Formats (validators) of single settings shared by the schema's sections: each throws a message naming what is allowed. */

export function oneOf(...allowed: string[]): (value: unknown) => void {
  return (value: unknown) => {
    if (typeof value !== 'string' || !allowed.includes(value)) throw new Error(`must be one of ${allowed.join(', ')}`);
  };
}

export function positiveNumber(value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error('must be a number above 0');
}

/** The value as an http(s) URL; `unparsable` is the message when it is no URL at all. */
function parseHttpUrl(value: unknown, unparsable: string): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error(unparsable);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must start with http:// or https://');
  return url;
}

/** An http(s) URL without credentials, query or fragment (the forecast request adds its own path and query). */
export function httpBaseUrl(value: unknown): void {
  const url = parseHttpUrl(value, 'must be an http:// or https:// URL such as https://api.open-meteo.com');
  if (url.username || url.password || url.search || url.hash) throw new Error('must not contain credentials, a query or a fragment');
}

/** Empty, or an http(s) URL without credentials (it is published to every MQTT client). */
export function optionalHttpUrl(value: unknown): void {
  if (value === '') return;
  const url = parseHttpUrl(value, 'must be empty or an http:// or https:// URL such as http://raspberrypi.local:8080/');
  if (url.username || url.password) throw new Error('must not contain credentials (every MQTT client can read it)');
}

export function percentThreshold(value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) throw new Error('must be a number from 0 to 100');
}
