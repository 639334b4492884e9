import { describe, expect, it } from 'vitest';
import { calculationContext } from '../../src/config/calculationContext.js';

const settings = { timezone: 'Europe/Berlin', hemisphere: 'north', lawn: { soilType: 'loam', mowerClass: 'walk' } };

describe('calculationContext', () => {
  it('maps the configuration to the core context', () => {
    expect(calculationContext(settings, 1234)).toEqual({
      nowMs: 1234,
      timeZone: 'Europe/Berlin',
      hemisphere: 'north',
      lawn: { soilType: 'loam', mowerClass: 'walk' },
    });
  });

  it('lets a station lawn override each field on its own, and forces the season only when asked', () => {
    const context = calculationContext({ ...settings, hemisphere: 'south' }, 0, { lawn: { mowerClass: 'robot' }, forcedSeason: 'winter' });
    expect(context.lawn).toEqual({ soilType: 'loam', mowerClass: 'robot' });
    expect(context.hemisphere).toBe('south');
    expect(context.forcedSeason).toBe('winter');
    expect('forcedSeason' in calculationContext(settings, 0, { forcedSeason: undefined })).toBe(false);
  });

  it('uses the system time zone when none is configured', () => {
    expect(calculationContext({ ...settings, timezone: '' }, 0).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

describe('calculationContext turf type (model 1.1)', () => {
  it('passes the configured turf type and lets a station override it', () => {
    const warm = { ...settings, lawn: { ...settings.lawn, turfType: 'warm_season' } };
    expect(calculationContext(warm, 0).lawn).toEqual({ soilType: 'loam', mowerClass: 'walk', turfType: 'warm_season' });
    expect(calculationContext(warm, 0, { lawn: { turfType: 'cool_season' } }).lawn?.turfType).toBe('cool_season');
    expect(calculationContext(settings, 0).lawn).not.toHaveProperty('turfType');
  });
});
