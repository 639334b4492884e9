/**
 * Renders Home Assistant MQTT templates (`value_template`, `json_attributes_template`) with a real
 * Jinja implementation, the variable `value_json` bound to a payload as HA does. One known
 * difference from HA's Python Jinja: `None` renders as "" here and as "None" there (which HA's MQTT
 * sensor reads as "unknown"); we report it as "None".
 */
import { Template } from '@huggingface/jinja';

export function renderHaTemplate(template: string, valueJson: unknown): string {
  const rendered = new Template(template).render({ value_json: valueJson as Record<string, unknown> });
  return rendered === '' ? 'None' : rendered;
}
