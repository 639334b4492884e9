/** Spec fields a unit adds to the input are derived, never a station's measurement; extension fields are not spec fields. */
import { describe, expect, it } from 'vitest';
import { fieldsAddedByUnits } from '../../src/station/unitDerivedFields.js';

describe('fields added by units', () => {
  it('lists spec fields the assembly did not have, in the spec order', () => {
    expect(fieldsAddedByUnits({ temperature: 20 }, { temperature: 20, soil_moisture: 30, humidity: 50 })).toEqual([
      'humidity',
      'soil_moisture',
    ]);
  });

  it('ignores replaced values and extension fields', () => {
    expect(
      fieldsAddedByUnits({ temperature: 20, soil_moisture: 18 }, { temperature: 21, soil_moisture: 30, mow_need: 40 } as never),
    ).toEqual([]);
  });
});
