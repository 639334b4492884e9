import { describe, expect, it } from 'vitest';
import { calculationContext, type CalculationSettings } from '../../src/config/calculationContext.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';

const settings: CalculationSettings = { timezone: 'Europe/Berlin', hemisphere: 'north', lawn: { soilType: 'loam', mowerClass: 'walk' } };

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
    const warm: CalculationSettings = { ...settings, lawn: { ...settings.lawn, turfType: 'warm_season' } };
    expect(calculationContext(warm, 0).lawn).toEqual({ soilType: 'loam', mowerClass: 'walk', turfType: 'warm_season' });
    expect(calculationContext(warm, 0, { lawn: { turfType: 'cool_season' } }).lawn?.turfType).toBe('cool_season');
    expect(calculationContext(settings, 0).lawn).not.toHaveProperty('turfType');
  });
});

describe('lawn field capacity (model 1.1, D9)', () => {
  it('passes a configured field capacity, lets a station override it, and leaves 0 to the soil type', () => {
    const own = { ...settings, lawn: { ...settings.lawn, fieldCapacityPercent: 22 } };
    expect(calculationContext(own, 0).lawn?.fieldCapacityPercent).toBe(22);
    expect(calculationContext(own, 0, { lawn: { fieldCapacityPercent: 30 } }).lawn?.fieldCapacityPercent).toBe(30);
    expect(calculationContext(own, 0, { lawn: { fieldCapacityPercent: 0 } }).lawn?.fieldCapacityPercent).toBe(22);
    const byType = { ...settings, lawn: { ...settings.lawn, fieldCapacityPercent: 0 } };
    expect(calculationContext(byType, 0).lawn).not.toHaveProperty('fieldCapacityPercent');
  });

  it('validates the setting from the environment and the command line, naming it and the range', () => {
    expect(loadConfig({ env: {}, argv: [] }).lawn.fieldCapacityPercent).toBe(0);
    expect(loadConfig({ env: { MOWABILITY_LAWN_FIELD_CAPACITY_PERCENT: '22.5' }, argv: [] }).lawn.fieldCapacityPercent).toBe(22.5);
    expect(loadConfig({ env: {}, argv: ['--lawn-field-capacity-percent', '16.4'] }).lawn.fieldCapacityPercent).toBe(16.4);
    for (const bad of ['4.9', '60.1', 'wet', '-1']) {
      let message = '';
      try {
        loadConfig({ env: { MOWABILITY_LAWN_FIELD_CAPACITY_PERCENT: bad }, argv: [] });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as ConfigError).problems.join(' ');
      }
      expect(message).toContain('lawn.fieldCapacityPercent');
      expect(message).toContain('from 5 to 60');
    }
  });
});
