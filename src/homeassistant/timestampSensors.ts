/**
 * Timestamp sensors whose value may be unknown (no cut recorded yet, no forecast window). Home
 * Assistant before 2024.10 reads only a valid date and time on a `timestamp` sensor: a template that
 * renders `None` (its word for "unknown") is logged as "Invalid state message" on every state
 * message (https://github.com/home-assistant/core/issues/126694, fixed in 2024.10). We therefore
 * never send it anything else: while the value is unknown the entity is made unavailable by an
 * availability entry on its own state topic, whose template reads the same value
 * (https://www.home-assistant.io/integrations/sensor.mqtt/, `availability` → `value_template`),
 * and the value template renders a fixed placeholder instant that the unavailable entity never shows.
 */

/** What the value template renders while the value is unknown; never shown (the entity is unavailable then). */
export const UNKNOWN_TIMESTAMP = '1970-01-01T00:00:00+00:00';

/** The expression of a template that is exactly one `{{ … }}`, or undefined. */
function soleExpression(template: string): string | undefined {
  const match = /^\{\{([\s\S]*)\}\}$/.exec(template.trim());
  if (!match || match[1]!.includes('}}') || match[1]!.includes('{{')) return undefined;
  return match[1]!.trim();
}

const known = "value is defined and value is not none and value != '' and value != 'None'";

/**
 * For a `timestamp` sensor whose value template is one expression: the config with that template
 * rendering the placeholder instead of an unknown value, and `availability` extended by an entry on
 * `stateTopic` that is `online` only while the value is known (with `availability_mode: all`, the
 * entity's other availability topics still count). Any other config is returned as it is.
 */
export function timestampAvailability(config: Record<string, unknown>, stateTopic: string | undefined): Record<string, unknown> {
  if (config.device_class !== 'timestamp' || typeof config.value_template !== 'string' || stateTopic === undefined) return config;
  const expression = soleExpression(config.value_template);
  if (expression === undefined) return config;
  const value = `{% set value = (${expression}) %}`;
  const availability: unknown[] = Array.isArray(config.availability) ? (config.availability as unknown[]) : [];
  return {
    ...config,
    value_template: `${value}{{ value if ${known} else '${UNKNOWN_TIMESTAMP}' }}`,
    availability: [...availability, { topic: stateTopic, value_template: `${value}{{ 'online' if ${known} else 'offline' }}` }],
    availability_mode: 'all',
  };
}
