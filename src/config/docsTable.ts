/**
 * Renders the settings tables of README.md and docs/configuration.md from the schema, so the
 * documentation cannot drift from the code. Regenerate with `npm run docs:config`; a test fails
 * when a committed table is stale.
 *
 * A home install needs about a dozen settings; the rest serve a public service, bound the
 * embedded broker or the HTTP server, or tune the daemon. Which group a setting belongs to comes
 * from GROUP_OF_PREFIX alone (the longest matching prefix wins), so a renamed or new setting is
 * placed by one line there. docs/configuration.md shows the home table first, the other groups of a
 * home daemon at its end, and the public service's settings (src/publicService/) in a section of
 * their own after them; README.md shows the home table only.
 *
 * A station unit module brings its own settings (src/station/unit.ts): the tables take the modules of
 * stationUnits() (src/daemon.ts; scripts/gen-config-docs.mjs passes them) and show each module's
 * settings under its own heading, but those GROUP_OF_PREFIX names for the home table.
 */
import { listSettings, type SettingSpec } from './schema.js';
import type { UnitConfigSpec } from './unitSettings.js';

/** What the tables need of a station unit module: its name and its configuration (settings fragment). */
export interface UnitSettingsSource {
  readonly name: string;
  readonly config?: UnitConfigSpec;
}

interface ListedSetting {
  key: string;
  spec: SettingSpec;
}

export type SettingGroupId = 'home' | 'station' | 'publicService' | 'brokerLimits' | 'httpLimits' | 'tuning';

/** The groups in the order docs/configuration.md shows them, with the heading and one line saying who needs them. */
export const SETTING_GROUPS: ReadonlyArray<{ id: SettingGroupId; title: string; intro: string }> = [
  {
    id: 'home',
    title: 'Settings for a home install',
    intro: 'Most homes set only these; every other setting has a default that suits a home.',
  },
  {
    id: 'station',
    title: 'Stations, MQTT, Home Assistant and the lawn',
    intro: 'The rest of the station side: the MQTT connection, discovery, when `mowable` switches, the lawn memory and the forecast.',
  },
  {
    id: 'publicService',
    title: 'Public service',
    intro:
      'Only for a service other people use: API keys and their quotas, key registration, reverse proxies, several instances on PostgreSQL and Redis.',
  },
  {
    id: 'brokerLimits',
    title: 'Embedded broker limits',
    intro: 'What one MQTT client may cost the embedded broker; the defaults fit a home network.',
  },
  {
    id: 'httpLimits',
    title: 'HTTP server limits',
    intro: 'Connections, timeouts and body sizes of the HTTP server; keep them when the port is reachable without a reverse proxy.',
  },
  { id: 'tuning', title: 'Tuning and diagnostics', intro: 'Timing, history and logging details; change them when a symptom asks for it.' },
];

/**
 * A setting's group by the longest prefix of its dotted key listed here; a key no prefix matches
 * is tuning. Entries for the home group name whole keys (a test checks that each still exists).
 */
export const GROUP_OF_PREFIX: Readonly<Record<string, SettingGroupId>> = {
  stations: 'home',
  location: 'home',
  timezone: 'home',
  'http.port': 'home',
  'mqtt.url': 'home',
  'broker.enabled': 'home',
  'homeassistant.discovery': 'home',
  'lawn.mowerClass': 'home',
  'lawn.soilType': 'home',
  'lawnMemory.enabled': 'home',
  'lawnMemory.noiseHours': 'home',
  'forecast.rainLeadMinutes': 'home',
  'mqtt.': 'station',
  'mqtt.mowable': 'station',
  'station.mowable': 'station',
  'broker.host': 'station',
  'broker.port': 'station',
  'broker.users': 'station',
  'broker.persistRetained': 'station',
  'homeassistant.': 'station',
  'lawn.': 'station',
  'forecast.': 'station',
  hemisphere: 'station',
  'http.host': 'station',
  'http.statusPage': 'station',
  'http.ingressProxy': 'station',
  'http.ecowittUploadPath': 'station',
  'http.metrics': 'station',
  'registration.': 'publicService',
  'keys.': 'publicService',
  'store.': 'publicService',
  'http.rateLimit': 'publicService',
  'http.trustProxy': 'publicService',
  'broker.': 'brokerLimits',
  'http.': 'httpLimits',
  'http.accessLog': 'tuning',
  'http.accessLogSample': 'tuning',
  'mqtt.recompute': 'tuning',
  'mqtt.keepaliveSeconds': 'tuning',
  'mqtt.reconnectMaxSeconds': 'tuning',
  'forecast.timeoutSeconds': 'tuning',
  'forecast.retries': 'tuning',
};

const PREFIXES = Object.keys(GROUP_OF_PREFIX);

function matchingPrefix(key: string): string {
  let best = '';
  for (const prefix of PREFIXES) if (key.startsWith(prefix) && prefix.length > best.length) best = prefix;
  return best;
}

export function groupOf(key: string): SettingGroupId {
  return GROUP_OF_PREFIX[matchingPrefix(key)] ?? 'tuning';
}

const FORMAT_TEXT: Record<string, string> = {
  port: '0–65535',
  nat: 'whole number ≥ 0',
  'positive-int': 'whole number ≥ 1',
  boolean: 'true / false',
  timezone: 'IANA zone, or empty',
  'trust-proxy': 'false, hop count, or addresses/CIDRs',
  'non-empty-string': 'text',
  'broker-users': 'JSON list of accounts',
  '*': 'any',
};

function allowedText(spec: SettingSpec): string {
  const format = spec.format;
  if (Array.isArray(format)) return format.map(String).join(', ');
  if (typeof format === 'string') return FORMAT_TEXT[format] ?? format;
  if (format === Boolean) return 'true / false';
  if (format === Number) return 'number';
  if (format === String) return 'text';
  if (format === Array) return 'list';
  return 'see description';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The modules with settings, those sharing one fragment (the same object: the forecast's `forecast.*`
 * for the forecast and the modelled stations) merged into one entry naming them all.
 */
function settingsOwners(units: readonly UnitSettingsSource[]): UnitSettingsSource[] {
  const owners = new Map<unknown, { names: string[]; config: UnitConfigSpec }>();
  for (const unit of units) {
    const fragment = unit.config?.settings?.schema;
    if (fragment === undefined) continue;
    const owner = owners.get(fragment);
    if (owner) owner.names.push(unit.name);
    else owners.set(fragment, { names: [unit.name], config: unit.config! });
  }
  return [...owners.values()].map(({ names, config }) => ({ name: names.join('`, `'), config }));
}

/** A unit module's settings with their dotted keys (under its settings key), in fragment order. */
export function unitSettings(unit: UnitSettingsSource): ListedSetting[] {
  const settings = unit.config?.settings;
  return settings ? listSettings(settings.schema).map(({ key, spec }) => ({ key: `${settings.key}.${key}`, spec })) : [];
}

function table(settings: readonly ListedSetting[]): string {
  const header = '| Key | Environment variable | Flag | Default | Allowed | Description |\n|---|---|---|---|---|---|';
  const rows = settings.map(({ key, spec }) => {
    const defaultText = spec.sensitive ? '(secret)' : `\`${JSON.stringify(spec.default)}\``;
    const description = spec.sensitive ? `${spec.doc} Secret: redacted in output.` : spec.doc;
    return `| \`${key}\` | ${spec.env ? `\`${spec.env}\`` : '–'} | ${spec.arg ? `\`--${spec.arg}\`` : '–'} | ${cell(defaultText)} | ${cell(allowedText(spec))} | ${cell(description)} |`;
  });
  return [header, ...rows].join('\n');
}

/**
 * One table of the settings of one group, in schema order. The home table also holds the units'
 * settings GROUP_OF_PREFIX names for it, and reads in the order GROUP_OF_PREFIX names its keys, stations first.
 */
export function renderSettingsTable(group: SettingGroupId, units: readonly UnitSettingsSource[] = []): string {
  const settings = listSettings().filter(({ key }) => groupOf(key) === group);
  if (group !== 'home') return table(settings);
  settings.push(
    ...settingsOwners(units)
      .flatMap(unitSettings)
      .filter(({ key }) => groupOf(key) === 'home'),
  );
  settings.sort((a, b) => PREFIXES.indexOf(matchingPrefix(a.key)) - PREFIXES.indexOf(matchingPrefix(b.key)));
  return table(settings);
}

/** Each unit module's settings but the home ones, under the unit's heading. */
export function renderUnitSettings(units: readonly UnitSettingsSource[]): string {
  const sections = settingsOwners(units).flatMap((unit) => {
    const settings = unitSettings(unit).filter(({ key }) => groupOf(key) !== 'home');
    if (settings.length === 0) return [];
    const key = unit.config!.settings!.key;
    return [`#### ${unit.name.includes('`') ? 'Units' : 'Unit'} \`${unit.name}\`: \`${key}.*\`\n\n${table(settings)}`];
  });
  if (sections.length === 0) return '';
  const intro =
    'Settings a station unit brings with its module (docs/units.md): each under its own key, known when the unit is listed in `stationUnits()`.';
  return `### Station units\n\n${intro}\n\n${sections.join('\n\n')}`;
}

/** Every group but the home one, each under its own heading, then the units' settings. */
export function renderOtherGroups(units: readonly UnitSettingsSource[] = []): string {
  const groups = SETTING_GROUPS.filter(({ id }) => id !== 'home' && id !== 'publicService').map(
    ({ id, title, intro }) => `### ${title}\n\n${intro}\n\n${renderSettingsTable(id)}`,
  );
  const unitSection = renderUnitSettings(units);
  return [...groups, ...(unitSection === '' ? [] : [unitSection])].join('\n\n');
}

/** The public service's settings (src/publicService/), a section of their own: a home install reads the page without them. */
export function renderPublicServiceSettings(): string {
  const group = SETTING_GROUPS.find(({ id }) => id === 'publicService');
  return `${group?.intro ?? ''}\n\n${renderSettingsTable('publicService')}`;
}

/** The generated blocks: each between its start and end marker, in any document that holds the markers. */
export const GENERATED_BLOCKS: ReadonlyArray<{ start: string; end: string; render: (units: readonly UnitSettingsSource[]) => string }> = [
  {
    start: '<!-- settings-home:start (generated by npm run docs:config; do not edit) -->',
    end: '<!-- settings-home:end -->',
    render: (units) => renderSettingsTable('home', units),
  },
  {
    start: '<!-- settings-groups:start (generated by npm run docs:config; do not edit) -->',
    end: '<!-- settings-groups:end -->',
    render: renderOtherGroups,
  },
  {
    start: '<!-- settings-public:start (generated by npm run docs:config; do not edit) -->',
    end: '<!-- settings-public:end -->',
    render: renderPublicServiceSettings,
  },
];

/** Replaces every generated block the document holds (with the settings of `units`); throws when it holds none or a broken pair. */
export function replaceSettingsTable(document: string, units: readonly UnitSettingsSource[] = []): string {
  let result = document;
  let found = 0;
  for (const block of GENERATED_BLOCKS) {
    const start = result.indexOf(block.start);
    const end = result.indexOf(block.end);
    if (start === -1 && end === -1) continue;
    if (start === -1 || end === -1 || end < start) throw new Error(`settings table markers broken: ${block.start}`);
    result = `${result.slice(0, start + block.start.length)}\n${block.render(units)}\n${result.slice(end)}`;
    found++;
  }
  if (found === 0) throw new Error('settings table markers not found');
  return result;
}
