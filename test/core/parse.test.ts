import { describe, expect, it } from 'vitest';
import { FIELD_NAMES, parseFieldValue, parseInput } from '../../src/core/index.js';
import { fieldMask, parseDenseInput } from '../../src/core/parse.js';

describe('parseFieldValue', () => {
  it.each([
    [12.5, 12.5],
    [-60, -60],
    [60, 60],
    ['12.5', 12.5],
    [' 3 ', 3],
    ['1e1', 10],
    ['-0', 0],
    ['+4.', 4],
    ['.5', 0.5],
  ])('accepts temperature %j as %j', (value, expected) => {
    expect(parseFieldValue('temperature', value)).toBe(expected);
  });

  it.each([
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [true],
    [false],
    [null],
    [undefined],
    [[12]],
    [{ value: 12 }],
    ['12,5'],
    ['12,5abc'],
    ['12abc'],
    [''],
    ['   '],
    ['0x10'],
    ['Infinity'],
    ['NaN'],
    ['1e400'],
    ['1_000'],
    [60.0001],
    [-60.5],
    ['61'],
  ])('rejects temperature %j', (value) => {
    expect(parseFieldValue('temperature', value)).toBeUndefined();
  });

  it.each([
    ['precipitation_rate', 0, 0],
    ['precipitation_rate', 500, 500],
    ['precipitation_rate', -0.1, undefined],
    ['precipitation_rate', 500.1, undefined],
    ['humidity', 100, 100],
    ['humidity', 100.5, undefined],
    ['wind_gusts', 400, 400],
    ['soil_temperature', -30, -30],
    ['soil_temperature', -31, undefined],
    ['soil_temperature', 70, 70],
    ['rain_14d', 5000, 5000],
    ['rain_14d', 5001, undefined],
    ['minutes_since_rain', 99999, 99999],
    ['minutes_since_rain', 100000, undefined],
    ['solar', 2000, 2000],
    ['solar', 2001, undefined],
  ])('applies the valid range of %s to %j', (name, value, expected) => {
    expect(parseFieldValue(name, value)).toBe(expected);
  });

  it('returns undefined for unknown field names', () => {
    expect(parseFieldValue('season', 1)).toBeUndefined();
    expect(parseFieldValue('__proto__', 1)).toBeUndefined();
  });
});

describe('parseInput', () => {
  it('lists available and missing fields in the spec table order', () => {
    const parsed = parseInput({ min_temp_14d: 1, humidity: '40', temperature: 10, precipitation_rate: 'x', rain_1h: 0 });
    expect(parsed.available).toEqual(['temperature', 'humidity', 'rain_1h', 'min_temp_14d']);
    expect(parsed.missing).toEqual(FIELD_NAMES.filter((name) => !parsed.available.includes(name)));
    expect(parsed.values).toEqual({ temperature: 10, humidity: 40, rain_1h: 0, min_temp_14d: 1 });
  });

  it('ignores unknown keys and never reads through the prototype', () => {
    const hostile = JSON.parse('{"__proto__": {"temperature": 20}, "constructor": 1, "api_key": "k", "season": "summer"}') as object;
    const inherited = Object.create({ temperature: 20, precipitation_rate: 0 }) as object;
    expect(parseInput(hostile).available).toEqual([]);
    expect(parseInput(inherited).available).toEqual([]);
    expect(Object.keys(parseInput(hostile).values)).toEqual([]);
  });

  it('treats non-objects and throwing getters as no input', () => {
    for (const raw of [null, undefined, 42, 'temperature=1', [1, 2]]) {
      expect(parseInput(raw).available).toEqual([]);
    }
    const trap = {
      precipitation_rate: 0,
      get temperature(): number {
        throw new Error('boom');
      },
    };
    expect(parseInput(trap).available).toEqual(['precipitation_rate']);
    const proxy = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('boom');
        },
      },
    );
    expect(parseInput(proxy).available).toEqual([]);
  });
});

describe('parseDenseInput', () => {
  it('holds every field in the spec table order, undefined where parseInput has none, with the same lists', () => {
    const raws: unknown[] = [
      { min_temp_14d: 1, humidity: '40', temperature: 10, precipitation_rate: 'x', rain_1h: 0 },
      Object.fromEntries(FIELD_NAMES.map((name, i) => [name, i])),
      { temperature: 99, humidity: 140, precipitation_rate: -0 },
      {
        precipitation_rate: 0,
        get temperature(): number {
          throw new Error('boom');
        },
      },
      new Proxy(
        {},
        {
          getOwnPropertyDescriptor() {
            throw new Error('boom');
          },
        },
      ),
      null,
      'temperature=1',
    ];
    for (const raw of raws) {
      const dense = parseDenseInput(raw);
      const sparse = parseInput(raw);
      expect(Object.keys(dense.values)).toEqual(FIELD_NAMES);
      expect(Object.fromEntries(Object.entries(dense.values).filter(([, value]) => value !== undefined))).toEqual(sparse.values);
      expect(dense.available).toEqual(sparse.available);
      expect(dense.missing).toEqual(sparse.missing);
    }
  });
});

describe('the mask of valid fields', () => {
  it('has the bit of each valid field, and a bit no input has for an unknown name', () => {
    const dense = parseDenseInput({ temperature: 10, precipitation_rate: 0, humidity: 140, min_temp_14d: 2 });
    expect(dense.mask).toBe(fieldMask(['temperature', 'precipitation_rate', 'min_temp_14d']));
    expect(fieldMask(FIELD_NAMES)).toBe(2 ** FIELD_NAMES.length - 1);
    const withUnknown = fieldMask(['temperature', 'no_such_field']);
    expect(withUnknown & ~fieldMask(FIELD_NAMES)).not.toBe(0);
  });

  it('gives every parse its own field lists, whatever an earlier caller did to its lists', () => {
    const raw = { temperature: 10, precipitation_rate: 0 };
    const first = parseDenseInput(raw);
    first.available.push('humidity');
    first.missing.length = 0;
    const second = parseDenseInput(raw);
    expect(second.available).toEqual(['temperature', 'precipitation_rate']);
    expect(second.missing).toEqual(FIELD_NAMES.slice(2));
    expect(parseInput(raw).available).toEqual(['temperature', 'precipitation_rate']);
  });
});
