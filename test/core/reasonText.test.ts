import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculate, type CalculationContext } from '../../src/core/index.js';
import {
  emphasis,
  htmlReason,
  plainReason,
  reasonSegments,
  renderHtmlReason,
  renderPlainReason,
  renderSpecReason,
  type ReasonSegment,
} from '../../src/core/reasonText.js';

const HEAT = `${emphasis('Hitze 35 °C')} – Hitzestress, Gras wächst kaum.`;

/** Inputs that between them raise most emphasised reasons (rain, frost, heat, wind, dew, wet soil, drought). */
const INPUTS = [
  { temperature: 35, precipitation_rate: 0, humidity: 30, soil_moisture: 8, soil_temperature: 33, rain_14d: 1, wind_speed: 10 },
  {
    temperature: 1,
    precipitation_rate: 2.5,
    humidity: 97,
    dew_point: 0.8,
    wind_speed: 60,
    wind_gusts: 80,
    min_temp_3h: -2,
    min_temp_3d: -4,
  },
  {
    temperature: 12,
    precipitation_rate: 0,
    humidity: 92,
    dew_point: 11,
    soil_moisture: 45,
    soil_temperature: 0,
    minutes_since_rain: 30,
    rain_1h: 6,
  },
];
const CONTEXT: CalculationContext = { nowMs: Date.parse('2026-04-15T12:00:00Z'), timeZone: 'Europe/Berlin', hemisphere: 'north' };

function allReasons(): string[] {
  return INPUTS.flatMap((input) => {
    const outcome = calculate(input, CONTEXT);
    return outcome.ok ? Object.values(outcome.result.checks).flatMap((check) => check?.reasons ?? []) : [];
  });
}

describe('reason segments', () => {
  it('split a reason into plain and emphasised runs', () => {
    expect(reasonSegments(HEAT)).toEqual([
      { text: 'Hitze 35 °C', emphasis: true },
      { text: ' – Hitzestress, Gras wächst kaum.', emphasis: false },
    ]);
    expect(reasonSegments('Kühl (8 °C) – Gras wächst langsam.')).toEqual([{ text: 'Kühl (8 °C) – Gras wächst langsam.', emphasis: false }]);
    expect(reasonSegments('a <b>unclosed')).toEqual([{ text: 'a <b>unclosed', emphasis: false }]);
  });

  it('render the spec text of every reason the core gives byte for byte (HTTP reasons stay as they are)', () => {
    const reasons = allReasons();
    expect(reasons.filter((reason) => reason.includes('<b>')).length).toBeGreaterThanOrEqual(8);
    for (const reason of reasons) expect(renderSpecReason(reasonSegments(reason))).toBe(reason);
  });

  const segment = fc.record({
    text: fc.string({ minLength: 1 }).filter((text) => !text.includes('<b>') && !text.includes('</b>')),
    emphasis: fc.boolean(),
  });
  it('spec text and segments convert both ways without loss', () => {
    fc.assert(
      fc.property(fc.array(segment), (segments: ReasonSegment[]) => {
        const spec = renderSpecReason(segments);
        expect(renderSpecReason(reasonSegments(spec))).toBe(spec);
        expect(renderPlainReason(reasonSegments(spec))).toBe(segments.map((s) => s.text).join(''));
      }),
    );
  });
});

describe('plain text renderer (MQTT, Home Assistant)', () => {
  it('drops the emphasis and keeps the words', () => {
    expect(plainReason(HEAT)).toBe('Hitze 35 °C – Hitzestress, Gras wächst kaum.');
    for (const reason of allReasons()) expect(plainReason(reason)).not.toMatch(/<\/?b>/);
  });
});

describe('HTML renderer (status page)', () => {
  it('renders emphasis as <strong> and escapes everything else', () => {
    expect(htmlReason(HEAT)).toBe('<strong>Hitze 35 °C</strong> – Hitzestress, Gras wächst kaum.');
    expect(
      renderHtmlReason([
        { text: `<script>alert("x")</script> & 'y'`, emphasis: false },
        { text: '<img src=x onerror=1>', emphasis: true },
      ]),
    ).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;<strong>&lt;img src=x onerror=1&gt;</strong>');
  });

  it('gives no markup but <strong> for any reason the core produces', () => {
    for (const reason of allReasons()) expect(htmlReason(reason).replace(/<\/?strong>/g, '')).not.toMatch(/[<>]/);
  });
});
