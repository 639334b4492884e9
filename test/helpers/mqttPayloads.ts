/** Loads the captured station payloads in test/fixtures/payloads. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { ParseOutcome, Reading } from '../../src/ingest/types.js';

const DIR = fileURLToPath(new URL('../fixtures/payloads/', import.meta.url));

export function payloadText(name: string): string {
  return readFileSync(`${DIR}${name}`, 'utf8');
}

/** The lines of a JSON-lines capture (rtl_433), blank lines dropped. */
export function payloadLines(name: string): string[] {
  return payloadText(name)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** The reading a parser made of a capture; a refusal fails the test with the parser's reason. */
export function parsedReading(outcome: ParseOutcome): Reading {
  if (outcome.kind !== 'reading') throw new Error(`expected a reading, got ${outcome.kind}: ${outcome.reason}`);
  return outcome.reading;
}

/** A reading value equal to six decimals (as `toBeCloseTo(value, 6)`), for `toMatchObject` over `values`. */
export const near = (value: number): unknown => expect.closeTo(value, 6);
