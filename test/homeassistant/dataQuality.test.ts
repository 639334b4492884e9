/**
 * Home Assistant's Data quality entity takes every `data_quality` a station's state can carry: the
 * calculation's three levels (a real calculation at each) and a modelled station's `modelled` (the
 * whole daemon with a modelled station on a fake Open-Meteo), each rendered through the entity's
 * discovered value_template and checked by HA's enum rule (a state outside `options` is dropped).
 */
import { describe, expect, it } from 'vitest';
import { calculate, STATE_DATA_QUALITIES } from '../../src/core/index.js';
import { allDiscoveryMessages } from '../../src/homeassistant/discovery.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { buildStatePayload } from '../../src/station/statePayload.js';
import { haStateViolation } from '../helpers/haRules.js';
import { renderHaTemplate } from '../helpers/haTemplate.js';
import { FakeClock, waitUntil } from '../helpers/mqttHarness.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { useFakeOpenMeteo } from '../modelled/fakeModelledServer.js';

const NOW = Date.parse('2026-06-15T10:20:00Z');
const CONTEXT = { nowMs: NOW, timeZone: 'Europe/Berlin', hemisphere: 'north' } as const;
const GARDEN: StationConfig = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };

/** Field sets the calculation rates minimal (the required fields only), partial and full. */
const INPUTS = [
  { temperature: 20, precipitation_rate: 0 },
  { temperature: 20, precipitation_rate: 0, humidity: 50, wind_speed: 5 },
  {
    temperature: 20,
    precipitation_rate: 0,
    humidity: 50,
    wind_speed: 5,
    wind_gusts: 8,
    dew_point: 9,
    solar: 400,
    soil_temperature: 15,
    soil_moisture: 25,
    rain_1h: 0,
    rain_12h: 0,
    rain_24h: 0,
    rain_14d: 10,
    minutes_since_rain: 600,
    min_temp_3h: 18,
    min_temp_3d: 12,
    min_temp_14d: 8,
  },
];

const clock = new FakeClock(NOW);
const openMeteo = useFakeOpenMeteo(clock, NOW);

/** The station's Data quality discovery config. */
function dataQualityConfig(station: StationConfig): Record<string, unknown> {
  const messages = allDiscoveryMessages({
    prefix: 'homeassistant',
    baseTopic: 'mowability',
    softwareVersion: '1.2.3',
    stations: [station],
  });
  return messages.find((message) => message.payload.unique_id === `mowability_${station.id}_data_quality`)!.payload;
}

/** What HA makes of `state` for the Data quality entity: its rendered value and the enum rule's verdict. */
function asHomeAssistantSees(station: StationConfig, state: Record<string, unknown>): { value: string; violation: string | undefined } {
  const config = dataQualityConfig(station);
  const value = renderHaTemplate(String(config.value_template), state);
  return { value, violation: haStateViolation(config, value) };
}

describe('Home Assistant Data quality entity', () => {
  it('takes every level the calculation produces', () => {
    const seen = INPUTS.map((input) => {
      const outcome = calculate(input, CONTEXT);
      if (!outcome.ok) throw new Error(outcome.error.message);
      const state = buildStatePayload({
        stationId: 'garden',
        stationName: 'Garden',
        outcome,
        mowable: false,
        mowableReason: 'x',
        assembly: { input, withheld: {}, derived: [], coverage: {}, lastReadingAtMs: NOW },
      });
      const seenByHa = asHomeAssistantSees(GARDEN, state as unknown as Record<string, unknown>);
      expect(seenByHa).toEqual({ value: state.data_quality, violation: undefined });
      return seenByHa.value;
    });
    expect(seen).toEqual(['minimal', 'partial', 'full']);
  });

  it("takes a modelled station's state from the running daemon", { timeout: 60_000 }, async () => {
    const home = { id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 52.52, longitude: 13.41 } } as const;
    const daemon = await startOpenMeteoDaemon({ temp: openMeteo.temp, stations: [home], openMeteoUrl: openMeteo.fake.baseUrl, clock });
    try {
      await waitUntil(() => typeof daemon.station.stationState('home')?.index_score === 'number', 'the modelled index', 20_000);
      const state = daemon.station.stationState('home')!;
      expect(state.data_quality).toBe('modelled');
      expect(asHomeAssistantSees(home as unknown as StationConfig, state)).toEqual({ value: 'modelled', violation: undefined });
    } finally {
      await daemon.stop();
    }
  });

  it('offers exactly the values a state can carry, and the rule refuses one outside them', () => {
    const config = dataQualityConfig(GARDEN);
    expect(config.options).toEqual([...STATE_DATA_QUALITIES]);
    expect(haStateViolation(config, 'estimated')).toMatch(/state "estimated" is not one of its options/);
    expect(haStateViolation(config, 'None')).toBeUndefined();
  });
});
