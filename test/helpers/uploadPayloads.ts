/** Captured station uploads (test/fixtures/payloads) as gateways send them over HTTP. */
import { payloadText } from './mqttPayloads.js';

/** The imperial units uploads use (°F, mph, inches), as the parsers must convert them. */
export const F_TO_C = (f: number): number => ((f - 32) * 5) / 9;
export const MPH = 1.609344;
export const INCH = 25.4;

/** The form fields of a capture stored as a JSON object (values are strings on the wire). */
export function uploadFields(file: string): Record<string, string> {
  const fields = JSON.parse(payloadText(file)) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)]));
}

/** An Ecowitt capture, form-encoded: `name` is what follows `payload_` in the file name. */
export function ecowittBody(name: string, overrides: Record<string, string> = {}): string {
  return new URLSearchParams({ ...uploadFields(`ecowitt-http__ecowitt2mqtt__payload_${name}.json`), ...overrides }).toString();
}

/** A WU request: path and query string, from a `.txt` capture or a JSON one. */
export function wundergroundRequest(file: string, overrides: Record<string, string> = {}): string {
  if (file.endsWith('.json')) {
    return `/weatherstation/updateweatherstation.php?${new URLSearchParams({ ...uploadFields(file), ...overrides }).toString()}`;
  }
  const url = new URL(payloadText(file).trim(), 'http://station.invalid');
  for (const [key, value] of Object.entries(overrides)) url.searchParams.set(key, value);
  return `${url.pathname}${url.search}`;
}
