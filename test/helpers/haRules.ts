/**
 * Home Assistant's rules for MQTT discovery configs, as far as our entities use them, from HA's
 * documentation: entity ids (https://developers.home-assistant.io/docs/core/entity/ : `^[a-z0-9_]+\.[a-z0-9_]+$`),
 * the discovery topic (https://www.home-assistant.io/integrations/mqtt/#discovery-topic), sensor device
 * classes with their units and state classes (https://developers.home-assistant.io/docs/core/entity/sensor/),
 * binary sensor device classes and entity categories, and the command entities' required keys
 * (https://www.home-assistant.io/integrations/number.mqtt/, select.mqtt/, button.mqtt/, switch.mqtt/,
 * event.mqtt/; number device classes and units: https://developers.home-assistant.io/docs/core/entity/number/).
 * Returns every violation of one message.
 */
const ENTITY_ID = /^[a-z0-9_]+\.[a-z0-9_]+$/;
const OBJECT_ID = /^[a-z0-9_]+$/;
const DISCOVERY_TOPIC = /^[^/#+]+\/(sensor|binary_sensor|number|select|button|switch|event)\/(?:[a-zA-Z0-9_-]+\/)?[a-zA-Z0-9_-]+\/config$/;
/** Components that take commands: each needs a command topic. */
const COMMAND_COMPONENTS = ['number', 'select', 'button', 'switch'];
const NUMBER_MODES = ['auto', 'box', 'slider'];

/** Units HA accepts per sensor device class (only the classes we use; others are refused here). */
const SENSOR_UNITS: Record<string, readonly string[] | null> = {
  temperature: ['°C', '°F', 'K'],
  humidity: ['%'],
  wind_speed: ['Beaufort', 'ft/s', 'km/h', 'kn', 'm/s', 'mph'],
  precipitation: ['cm', 'in', 'mm'],
  precipitation_intensity: ['in/d', 'in/h', 'mm/d', 'mm/h'],
  duration: ['d', 'h', 'min', 's', 'ms'],
  // Classes without a unit: a unit would make HA refuse the entity.
  enum: null,
  timestamp: null,
};
/** State classes HA allows per device class (enum and timestamp take none). */
const SENSOR_STATE_CLASSES: Record<string, readonly string[]> = {
  temperature: ['measurement'],
  humidity: ['measurement'],
  wind_speed: ['measurement'],
  precipitation: ['measurement', 'total', 'total_increasing'],
  precipitation_intensity: ['measurement'],
  duration: ['measurement', 'total', 'total_increasing'],
  enum: [],
  timestamp: [],
};
const STATE_CLASSES = ['measurement', 'total', 'total_increasing'];
const BINARY_DEVICE_CLASSES = ['connectivity', 'moisture', 'problem', 'running'];
const ENTITY_CATEGORIES = ['config', 'diagnostic'];

export function haDiscoveryViolations(topic: string, payload: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const fail = (message: string): void => {
    problems.push(`${topic}: ${message}`);
  };
  const component = DISCOVERY_TOPIC.exec(topic)?.[1];
  if (!component) fail('topic is not <prefix>/<component>/[<node_id>/]<object_id>/config');
  const entityId = payload.default_entity_id;
  if (typeof entityId !== 'string' || !ENTITY_ID.test(entityId)) fail(`default_entity_id ${String(entityId)} is not a valid entity id`);
  else if (component && !entityId.startsWith(`${component}.`)) fail(`default_entity_id ${entityId} is not in domain ${component}`);
  if (typeof payload.object_id !== 'string' || !OBJECT_ID.test(payload.object_id))
    fail(`object_id ${String(payload.object_id)} is not [a-z0-9_]+`);
  if (typeof payload.unique_id !== 'string' || payload.unique_id === '') fail('unique_id is missing');
  if (component === 'button') {
    if (payload.state_topic !== undefined) fail('a button has no state_topic');
  } else if (typeof payload.state_topic !== 'string') fail('state_topic is missing');
  if (component && COMMAND_COMPONENTS.includes(component) && (typeof payload.command_topic !== 'string' || payload.command_topic === ''))
    fail(`${component} without command_topic`);
  if (component === 'number') problems.push(...numberViolations(payload).map((problem) => `${topic}: ${problem}`));
  if (
    component === 'select' &&
    (!Array.isArray(payload.options) || payload.options.length === 0 || !payload.options.every((o) => typeof o === 'string'))
  )
    fail('select without a list of string options');
  if (component === 'event' && (!Array.isArray(payload.event_types) || payload.event_types.length === 0)) fail('event without event_types');
  if (typeof payload.name !== 'string') fail('name is missing');
  const device = payload.device as { identifiers?: unknown } | undefined;
  if (!device || !Array.isArray(device.identifiers) || device.identifiers.length === 0) fail('device.identifiers is missing');
  if (payload.entity_category !== undefined && !ENTITY_CATEGORIES.includes(String(payload.entity_category)))
    fail(`entity_category ${String(payload.entity_category)}`);
  if (payload.icon !== undefined && !/^mdi:[a-z0-9-]+$/.test(String(payload.icon))) fail(`icon ${String(payload.icon)} is not mdi:<name>`);
  if (payload.json_attributes_template !== undefined && typeof payload.json_attributes_topic !== 'string')
    fail('json_attributes_template without json_attributes_topic');
  const origin = payload.origin as { name?: unknown; support_url?: unknown } | undefined;
  if (typeof origin?.name !== 'string') fail('origin.name is missing');
  if (origin?.support_url !== undefined && !/^https?:\/\/[^\s]+$/.test(String(origin.support_url)))
    fail('origin.support_url is not an http(s) URL');

  const deviceClass = payload.device_class as string | undefined;
  const unit = payload.unit_of_measurement as string | undefined;
  const stateClass = payload.state_class as string | undefined;
  if (component && ['number', 'select', 'button', 'switch', 'event'].includes(component)) return problems;
  if (component === 'binary_sensor') {
    if (deviceClass !== undefined && !BINARY_DEVICE_CLASSES.includes(deviceClass)) fail(`binary_sensor device_class ${deviceClass}`);
    if (unit !== undefined || stateClass !== undefined) fail('binary_sensor with a unit or state class');
    return problems;
  }
  if (stateClass !== undefined && !STATE_CLASSES.includes(stateClass)) fail(`state_class ${stateClass}`);
  if (payload.options !== undefined && deviceClass !== 'enum') fail('options without device_class enum');
  if (deviceClass === undefined) return problems;
  if (!(deviceClass in SENSOR_UNITS)) {
    fail(`device_class ${deviceClass} is not one this validator knows`);
    return problems;
  }
  const units = SENSOR_UNITS[deviceClass];
  if (units === null && unit !== undefined) fail(`device_class ${deviceClass} must not have a unit`);
  if (units && (unit === undefined || !units.includes(unit))) fail(`unit ${String(unit)} is not valid for device_class ${deviceClass}`);
  if (stateClass !== undefined && !SENSOR_STATE_CLASSES[deviceClass]!.includes(stateClass))
    fail(`state_class ${stateClass} is not valid for device_class ${deviceClass}`);
  if (deviceClass === 'enum' && (!Array.isArray(payload.options) || payload.options.length === 0)) fail('enum without options');
  return problems;
}

/** number.mqtt: min below max, a positive step, a known mode, a device class only with one of its units. */
function numberViolations(payload: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const min = payload.min ?? 1;
  const max = payload.max ?? 100;
  if (typeof min !== 'number' || typeof max !== 'number' || !(min < max))
    problems.push(`number min ${String(min)} not below max ${String(max)}`);
  const step = payload.step ?? 1;
  if (typeof step !== 'number' || !(step >= 0.001)) problems.push(`number step ${String(step)} below 0.001`);
  if (payload.mode !== undefined && !NUMBER_MODES.includes(String(payload.mode))) problems.push(`number mode ${String(payload.mode)}`);
  if (payload.state_class !== undefined) problems.push('a number has no state_class');
  const deviceClass = payload.device_class as string | undefined;
  if (deviceClass !== undefined) {
    const units = SENSOR_UNITS[deviceClass];
    if (!units) problems.push(`number device_class ${deviceClass} is not one this validator knows with units`);
    else if (!units.includes(String(payload.unit_of_measurement)))
      problems.push(`number unit ${String(payload.unit_of_measurement)} for ${deviceClass}`);
  }
  return problems;
}

/**
 * Home Assistant's rule for a sensor's state (https://developers.home-assistant.io/docs/core/entity/sensor/,
 * "options": the possible states of an `enum` sensor): a state of an `enum` sensor that is not one
 * of its `options` is refused (HA's sensor raises "provides state value …, which is not in the list
 * of options provided" and the MQTT sensor drops the message); `None` is unknown and always allowed.
 */
export function haStateViolation(config: Record<string, unknown>, renderedState: string): string | undefined {
  if (config.device_class !== 'enum' || renderedState === 'None') return undefined;
  const options = config.options as unknown[];
  return options.includes(renderedState)
    ? undefined
    : `${String(config.default_entity_id)}: state "${renderedState}" is not one of its options ${JSON.stringify(options)}`;
}
