import { describe, expect, it } from 'vitest';
import { parseDenseInput, parseInput } from '../../src/core/parse.js';

/**
 * The parse reads a plain record from its own keys and values; these records are the ones where
 * that shortcut could differ from reading each field as an own property by name.
 */
describe('parsing records that are not plain JSON objects', () => {
  it('reads a non-enumerable own field as any other', () => {
    const raw = Object.defineProperty({ precipitation_rate: 0 }, 'temperature', { value: 12.5, enumerable: false });
    expect(parseInput(raw).values).toEqual({ temperature: 12.5, precipitation_rate: 0 });
    expect(parseDenseInput(raw).values.temperature).toBe(12.5);
    expect(parseDenseInput(raw).available).toEqual(['temperature', 'precipitation_rate']);
  });

  it('never takes a field from an enumerable property of the prototype', () => {
    const raw = Object.assign(Object.create({ humidity: 50, temperature: 3 }) as object, { temperature: 10, precipitation_rate: 0 });
    expect(parseDenseInput(raw).values.humidity).toBeUndefined();
    expect(parseDenseInput(raw).values.temperature).toBe(10);
    expect(parseDenseInput(raw).missing).toContain('humidity');
  });

  it('keeps the fields in the spec order whatever order the keys come in, ignoring unknown and numeric keys', () => {
    const raw = { 7: 1, rain_1h: 2, zzz: 3, temperature: -0, precipitation_rate: '0.5', humidity: 140 };
    const dense = parseDenseInput(raw);
    expect(dense.available).toEqual(['temperature', 'precipitation_rate', 'rain_1h']);
    expect(Object.is(dense.values.temperature, 0)).toBe(true);
    expect(dense.values.precipitation_rate).toBe(0.5);
    expect(dense.values.humidity).toBeUndefined();
  });

  it('reads only the fields whose getter does not throw, and the rest through a proxy that lists its keys', () => {
    const getter = {
      precipitation_rate: 1,
      get humidity(): number {
        throw new Error('boom');
      },
      temperature: 4,
    };
    expect(parseDenseInput(getter).available).toEqual(['temperature', 'precipitation_rate']);
    const proxy = new Proxy({ temperature: 8, precipitation_rate: 0 }, {});
    expect(parseDenseInput(proxy).values).toMatchObject({ temperature: 8, precipitation_rate: 0 });
  });
});
