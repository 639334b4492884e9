/**
 * The strict reading of Home Assistant's control payloads and of the values stored for them: what
 * HA's number sends (`75`, `75.0`) is read, everything else is refused with a reason; a stored value
 * that the configuration's rules no longer allow is not used.
 */
import { describe, expect, it } from 'vitest';
import { readControlPayload, storedControlValue, type ControlValues } from '../../src/station/controlValues.js';

const current: ControlValues = { mowable_on_threshold: 70, mowable_off_threshold: 60, mowable_on_delay_minutes: 15, mower_class: 'walk' };
const read = (key: Parameters<typeof readControlPayload>[0], text: string) => readControlPayload(key, Buffer.from(text), current);

describe('control payloads', () => {
  it("reads what Home Assistant's number and select send, and a reset", () => {
    expect(read('mowable_on_threshold', '75')).toEqual({ kind: 'set', value: 75 });
    expect(read('mowable_on_threshold', '75.0')).toEqual({ kind: 'set', value: 75 });
    expect(read('mowable_on_threshold', ' 72.5\n')).toEqual({ kind: 'set', value: 72.5 });
    expect(read('mowable_off_threshold', '0')).toEqual({ kind: 'set', value: 0 });
    expect(read('mowable_on_delay_minutes', '1440')).toEqual({ kind: 'set', value: 1440 });
    expect(read('mowable_on_delay_minutes', '0')).toEqual({ kind: 'set', value: 0 });
    expect(read('mower_class', 'ride_on')).toEqual({ kind: 'set', value: 'ride_on' });
    expect(read('mower_class', '')).toEqual({ kind: 'reset' });
    expect(read('mowable_on_threshold', 'RESET')).toEqual({ kind: 'reset' });
  });

  it('refuses everything else with a reason in English and German', () => {
    for (const [key, text] of [
      ['mowable_on_threshold', '100.0000001'],
      ['mowable_on_threshold', '1234567'],
      ['mowable_on_threshold', '- 5'],
      ['mowable_on_threshold', '5,5'],
      ['mowable_on_threshold', 'nan'],
      ['mowable_on_threshold', '"75"'],
      ['mowable_on_delay_minutes', '-0.5'],
      ['mowable_on_delay_minutes', '1441'],
      ['mower_class', 'robot '.repeat(10)],
      ['mower_class', '__proto__'],
    ] as const) {
      const request = read(key, text);
      expect(request.kind, `${key} ${text}`).toBe('refused');
      if (request.kind === 'refused') expect(request.reason.de.length, text).toBeGreaterThan(0);
    }
  });

  it('uses a stored value only while it still fits the rules', () => {
    expect(storedControlValue('mowable_off_threshold', '30', current)).toBe(30);
    expect(storedControlValue('mowable_off_threshold', '75', current)).toBeUndefined();
    expect(storedControlValue('mowable_on_threshold', '"80"', current)).toBeUndefined();
    expect(storedControlValue('mowable_on_threshold', 'not json', current)).toBeUndefined();
    expect(storedControlValue('mowable_on_threshold', '1e400', current)).toBeUndefined();
    expect(storedControlValue('mower_class', '"robot"', current)).toBe('robot');
    expect(storedControlValue('mower_class', '"tractor"', current)).toBeUndefined();
  });
});
