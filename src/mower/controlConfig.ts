/**
 * A station's `mower.control` block: whether and how the daemon drives the robot mower (docs/mower.md).
 * The `mower` object belongs to the lawn memory (src/lawn/mowerConfig.ts: its state topic as a cut
 * source); this unit validates only its `control` member and fills in its defaults. Off unless
 * `enabled`, and a dry run (`dryRun`, the default) sends nothing. Every message names the key and the fix.
 */
import { USER_RUN_POLICIES, type UserRunPolicy } from '../core/mower/decision.js';
import { isPlainObject, type Problem, type UnitStationKey } from '../ingest/stationConfig.js';

export const MOWER_KINDS = ['homeassistant', 'openmower', 'mqtt'] as const;
export type MowerKind = (typeof MOWER_KINDS)[number];

/** Calls a vendor's API allows (Gardena about 700 a week, Husqvarna about 10,000 a month); 0: no limit. */
export interface CallBudget {
  perDay: number;
  perWeek: number;
  perMonth: number;
}

export interface HomeAssistantMowerConfig {
  /** Home Assistant's address, e.g. "http://homeassistant.local:8123"; "": the add-on's Supervisor proxy (mowerControl.supervisorUrl). */
  url: string;
  /** The `lawn_mower` entity, e.g. "lawn_mower.robbi". */
  entity: string;
  /** The start service (`domain.service`), e.g. "husqvarna_automower.override_schedule"; default lawn_mower.start_mowing. */
  startService: string;
  /** Data sent with the start service besides `entity_id`, e.g. {"override_mode": "mow", "duration": {"minutes": 90}}. */
  startData: Record<string, unknown>;
}

export interface OpenMowerConfig {
  /** The topic prefix of the OpenMower's MQTT (its `<prefix>/action`, `<prefix>/robot_state/json`). */
  prefix: string;
}

/** The activities a generic mower's state words map to. */
export const MAPPED_ACTIVITIES = ['mowing', 'docked', 'paused', 'returning', 'error'] as const;
export type MappedActivity = (typeof MAPPED_ACTIVITIES)[number];

export interface GenericMqttMowerConfig {
  commandTopic: string;
  payloads: { start: string; dock: string; pause: string };
  stateTopic: string;
  /** Dotted path of the state word in JSON payloads; "": the payload is the word. */
  stateKey: string;
  /** State words (compared without case) per activity; a word in none of them is "unknown". */
  states: Record<MappedActivity, string[]>;
}

export interface MowerControlConfig {
  enabled: boolean;
  dryRun: boolean;
  kind: MowerKind;
  /** The lawn this mower cuts: the ledger's key (default: the station id). */
  lawn: string;
  runMinutes: number;
  minGapHours: number;
  confirmSeconds: number;
  retries: number;
  userRuns: UserRunPolicy;
  respectUserDock: boolean;
  staleMinutes: number;
  rainLeadMinutes: number;
  minCommandGapMinutes: number;
  /** Runs a week; 0: no limit. */
  runsPerWeek: number;
  budget: CallBudget;
  homeassistant?: HomeAssistantMowerConfig;
  openmower?: OpenMowerConfig;
  mqtt?: GenericMqttMowerConfig;
}

/** Whole-number settings with their range and what they mean (for the message). */
const NUMBERS: Readonly<Record<string, readonly [min: number, max: number, fallback: number, meaning: string]>> = {
  runMinutes: [5, 24 * 60, 60, 'minutes one run takes (the dry window ahead must be at least this long)'],
  minGapHours: [0, 14 * 24, 20, 'hours after a completed run before the next start'],
  confirmSeconds: [5, 3600, 120, 'seconds the mower has to report the expected activity after a command'],
  retries: [0, 10, 2, 'times a command is repeated when the mower does not confirm it'],
  staleMinutes: [5, 24 * 60, 30, 'minutes without a reading after which the station counts as stale (the mower is docked)'],
  rainLeadMinutes: [0, 24 * 60, 30, 'minutes before expected rain within which nothing starts and a run is docked'],
  minCommandGapMinutes: [0, 24 * 60, 15, 'minutes between two commands the index alone causes (no flapping)'],
  runsPerWeek: [0, 100, 0, 'runs a week (0: no limit)'],
};
const BUDGET_KEYS = ['perDay', 'perWeek', 'perMonth'] as const;
const MAX_BUDGET = 1_000_000;
export const CONTROL_KEYS: readonly string[] = [
  'enabled',
  'dryRun',
  'kind',
  'lawn',
  'userRuns',
  'respectUserDock',
  'budget',
  ...Object.keys(NUMBERS),
  ...MOWER_KINDS,
];
const LAWN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_TEXT = 256;
const SERVICE = /^[a-z0-9_]+\.[a-z0-9_]+$/;
const ENTITY = /^lawn_mower\.[a-z0-9_]+$/;

function concreteTopicProblem(topic: unknown): string | undefined {
  if (typeof topic !== 'string' || topic === '') return 'is required: an MQTT topic';
  if (topic.length > MAX_TEXT || topic.includes('\u0000')) return `must be at most ${MAX_TEXT} characters, without NUL`;
  if (topic.includes('+') || topic.includes('#')) return 'must be a concrete topic (no wildcards + or #)';
  return undefined;
}

function textProblem(value: unknown, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  return typeof value === 'string' && value !== '' && value.length <= MAX_TEXT
    ? undefined
    : `must be a non-empty string of up to ${MAX_TEXT} characters`;
}

function homeAssistantProblems(value: unknown, problem: Problem): void {
  if (!isPlainObject(value))
    return problem(
      'mower.control.homeassistant',
      'must be an object {"url": "http://homeassistant.local:8123", "entity": "lawn_mower.robbi"}',
    );
  for (const key of Object.keys(value))
    if (!['url', 'entity', 'startService', 'startData'].includes(key))
      problem(
        `mower.control.homeassistant.${key}`,
        'is not allowed (only url, entity, startService, startData; the token is the setting mowerControl.homeAssistantToken)',
      );
  // No url: inside the Home Assistant add-on, the Supervisor's proxy with the Supervisor's token.
  if (value.url !== undefined && (typeof value.url !== 'string' || !/^https?:\/\/[^\s/]+/.test(value.url) || /\/\/[^/]*@/.test(value.url)))
    problem(
      'mower.control.homeassistant.url',
      'must be Home Assistant\'s http(s) address without credentials, e.g. "http://homeassistant.local:8123"',
    );
  if (typeof value.entity !== 'string' || !ENTITY.test(value.entity))
    problem('mower.control.homeassistant.entity', 'must be a lawn_mower entity id, e.g. "lawn_mower.robbi"');
  if (value.startService !== undefined && (typeof value.startService !== 'string' || !SERVICE.test(value.startService)))
    problem('mower.control.homeassistant.startService', 'must be a service "domain.service", e.g. "husqvarna_automower.override_schedule"');
  if (value.startData !== undefined && (!isPlainObject(value.startData) || JSON.stringify(value.startData).length > 4096))
    problem(
      'mower.control.homeassistant.startData',
      'must be an object of service data (up to 4 KiB), e.g. {"override_mode": "mow", "duration": {"minutes": 90}}',
    );
}

function openMowerProblems(value: unknown, problem: Problem): void {
  if (!isPlainObject(value)) return problem('mower.control.openmower', 'must be an object {"prefix": "openmower"}');
  for (const key of Object.keys(value)) if (key !== 'prefix') problem(`mower.control.openmower.${key}`, 'is not allowed (only prefix)');
  const topic = concreteTopicProblem(value.prefix);
  if (topic) problem('mower.control.openmower.prefix', `${topic} prefix, e.g. "openmower"`);
}

function mqttProblems(value: unknown, problem: Problem): void {
  const at = 'mower.control.mqtt';
  if (!isPlainObject(value))
    return problem(at, 'must be an object {"commandTopic": "...", "payloads": {...}, "stateTopic": "...", "states": {...}}');
  for (const key of Object.keys(value))
    if (!['commandTopic', 'payloads', 'stateTopic', 'stateKey', 'states'].includes(key))
      problem(`${at}.${key}`, 'is not allowed (only commandTopic, payloads, stateTopic, stateKey, states)');
  for (const key of ['commandTopic', 'stateTopic']) {
    const topic = concreteTopicProblem(value[key]);
    if (topic) problem(`${at}.${key}`, topic);
  }
  if (value.stateKey !== undefined && (typeof value.stateKey !== 'string' || value.stateKey.length > MAX_TEXT))
    problem(`${at}.stateKey`, 'must be a JSON field or dotted path ("" for a plain payload)');
  const payloads = value.payloads;
  if (!isPlainObject(payloads)) problem(`${at}.payloads`, 'must be an object {"start": "...", "dock": "...", "pause": "..."}');
  else
    for (const key of ['start', 'dock', 'pause'])
      if (textProblem(payloads[key], true)) problem(`${at}.payloads.${key}`, textProblem(payloads[key], true)!);
  const states = value.states;
  if (!isPlainObject(states))
    return problem(
      `${at}.states`,
      `must be an object naming the state words of ${MAPPED_ACTIVITIES.join(', ')}, e.g. {"mowing": ["mowing"], "docked": ["home", "charging"]}`,
    );
  for (const key of Object.keys(states))
    if (!(MAPPED_ACTIVITIES as readonly string[]).includes(key))
      problem(`${at}.states.${key}`, `is not an activity (${MAPPED_ACTIVITIES.join(', ')})`);
  for (const activity of ['mowing', 'docked'] as const)
    if (states[activity] === undefined) problem(`${at}.states.${activity}`, 'is required: the words that mean it');
  for (const [key, words] of Object.entries(states)) {
    if (
      !Array.isArray(words) ||
      words.length === 0 ||
      words.length > 16 ||
      !words.every((word) => typeof word === 'string' && word !== '' && word.length <= 64)
    )
      problem(`${at}.states.${key}`, 'must be a list of 1 to 16 state words');
  }
}

function numberProblems(control: Record<string, unknown>, problem: Problem): void {
  for (const [key, [min, max, , meaning]] of Object.entries(NUMBERS)) {
    const value = control[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max))
      problem(`mower.control.${key}`, `must be a whole number from ${min} to ${max}: the ${meaning}`);
  }
  const budget = control.budget;
  if (budget === undefined) return;
  if (!isPlainObject(budget))
    return problem('mower.control.budget', 'must be an object {"perDay": 0, "perWeek": 700, "perMonth": 0} (0: no limit)');
  for (const key of Object.keys(budget))
    if (!(BUDGET_KEYS as readonly string[]).includes(key))
      problem(`mower.control.budget.${key}`, 'is not allowed (only perDay, perWeek, perMonth)');
  for (const key of BUDGET_KEYS) {
    const value = budget[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_BUDGET))
      problem(`mower.control.budget.${key}`, `must be a whole number of API calls from 0 (no limit) to ${MAX_BUDGET}`);
  }
}

/** Every problem of a `mower.control` value (the `mower` object's other keys are the lawn memory's). */
export function controlProblems(control: unknown, problem: Problem): void {
  if (control === undefined) return;
  if (!isPlainObject(control))
    return problem('mower.control', 'must be an object {"enabled": true, "dryRun": true, "kind": "homeassistant", ...} (docs/mower.md)');
  for (const key of Object.keys(control))
    if (!CONTROL_KEYS.includes(key)) problem(`mower.control.${key}`, `is not allowed (only ${CONTROL_KEYS.join(', ')})`);
  for (const key of ['enabled', 'dryRun', 'respectUserDock'])
    if (control[key] !== undefined && typeof control[key] !== 'boolean') problem(`mower.control.${key}`, 'must be true or false');
  if (!(MOWER_KINDS as readonly unknown[]).includes(control.kind))
    return problem('mower.control.kind', `must be one of ${MOWER_KINDS.join(', ')}`);
  if (control.lawn !== undefined && (typeof control.lawn !== 'string' || !LAWN_ID.test(control.lawn)))
    problem('mower.control.lawn', 'must be an id of letters, digits, "_" and "-" (up to 64)');
  if (control.userRuns !== undefined && !(USER_RUN_POLICIES as readonly unknown[]).includes(control.userRuns))
    problem('mower.control.userRuns', `must be one of ${USER_RUN_POLICIES.join(', ')}`);
  numberProblems(control, problem);
  for (const kind of MOWER_KINDS)
    if (kind !== control.kind && control[kind] !== undefined)
      problem(`mower.control.${kind}`, `is set but kind is "${String(control.kind)}": remove it or change kind`);
  const kindBlock = control[control.kind as string];
  if (kindBlock === undefined)
    return problem(
      `mower.control.${String(control.kind)}`,
      `is required for kind "${String(control.kind)}" (docs/mower.md has one worked example per kind)`,
    );
  if (control.kind === 'homeassistant') homeAssistantProblems(kindBlock, problem);
  else if (control.kind === 'openmower') openMowerProblems(kindBlock, problem);
  else mqttProblems(kindBlock, problem);
}

const words = (list: unknown): string[] => (Array.isArray(list) ? list.map((word) => String(word).toLowerCase()) : []);

/** The validated block with every default filled in; `stationId` is the lawn's default id. */
export function controlConfigOf(raw: Readonly<Record<string, unknown>>, stationId: string): MowerControlConfig {
  const number = (key: string): number => (typeof raw[key] === 'number' ? raw[key] : NUMBERS[key]![2]);
  const budget = isPlainObject(raw.budget) ? raw.budget : {};
  const config: MowerControlConfig = {
    enabled: raw.enabled === true,
    dryRun: raw.dryRun !== false,
    kind: raw.kind as MowerKind,
    lawn: typeof raw.lawn === 'string' ? raw.lawn : stationId,
    runMinutes: number('runMinutes'),
    minGapHours: number('minGapHours'),
    confirmSeconds: number('confirmSeconds'),
    retries: number('retries'),
    userRuns: (raw.userRuns as UserRunPolicy | undefined) ?? 'respect',
    respectUserDock: raw.respectUserDock !== false,
    staleMinutes: number('staleMinutes'),
    rainLeadMinutes: number('rainLeadMinutes'),
    minCommandGapMinutes: number('minCommandGapMinutes'),
    runsPerWeek: number('runsPerWeek'),
    budget: { perDay: Number(budget.perDay ?? 0), perWeek: Number(budget.perWeek ?? 0), perMonth: Number(budget.perMonth ?? 0) },
  };
  const block = raw[config.kind] as Record<string, unknown>;
  if (config.kind === 'homeassistant') {
    config.homeassistant = {
      url: typeof block.url === 'string' ? block.url.replace(/\/+$/, '') : '',
      entity: String(block.entity),
      startService: typeof block.startService === 'string' ? block.startService : 'lawn_mower.start_mowing',
      startData: isPlainObject(block.startData) ? block.startData : {},
    };
  } else if (config.kind === 'openmower') {
    config.openmower = { prefix: String(block.prefix) };
  } else {
    const payloads = block.payloads as Record<string, string>;
    const states = block.states as Record<string, unknown>;
    config.mqtt = {
      commandTopic: String(block.commandTopic),
      payloads: { start: payloads.start!, dock: payloads.dock!, pause: payloads.pause! },
      stateTopic: String(block.stateTopic),
      stateKey: typeof block.stateKey === 'string' ? block.stateKey : '',
      states: {
        mowing: words(states.mowing),
        docked: words(states.docked),
        paused: words(states.paused),
        returning: words(states.returning),
        error: words(states.error),
      },
    };
  }
  return config;
}

/** The MQTT topics the control subscribes (none may lie under `mqtt.baseTopic`). */
export function controlTopics(control: MowerControlConfig): string[] {
  if (control.kind === 'mqtt' && control.mqtt) return [control.mqtt.stateTopic];
  if (control.kind === 'openmower' && control.openmower) return [`${control.openmower.prefix}/robot_state/json`];
  return [];
}

/**
 * Every problem of the lawns' own `mower.control` blocks (`stations[i].lawns[j].mower.control...`): the
 * lawns module validates the rest of a lawn; a lawn's control cuts that lawn, so it takes no `lawn` key.
 */
export function lawnControlProblems(stations: readonly unknown[]): string[] {
  const problems: string[] = [];
  stations.forEach((station, index) => {
    if (!isPlainObject(station) || !Array.isArray(station.lawns)) return;
    const where = `stations[${index}]${typeof station.id === 'string' ? ` ("${station.id}")` : ''}`;
    station.lawns.forEach((lawn: unknown, lawnIndex) => {
      if (!isPlainObject(lawn) || !isPlainObject(lawn.mower) || lawn.mower.control === undefined) return;
      const problem: Problem = (key, message) => problems.push(`${where}.lawns[${lawnIndex}].${key} ${message}`);
      controlProblems(lawn.mower.control, problem);
      if (isPlainObject(lawn.mower.control) && lawn.mower.control.lawn !== undefined)
        problem('mower.control.lawn', "is not allowed in a lawn's own mower block (its runs are the lawn's): remove it");
    });
  });
  return problems;
}

/**
 * The station key `mower`, as this unit sees it: only `mower.control` (the lawn memory validates the rest),
 * and across the stations the lawns' own `mower.control` blocks. Two modules may read the same key; each checks its own members.
 */
export const MOWER_CONTROL_STATION_KEY: UnitStationKey = {
  key: 'mower',
  problems: (mower, problem) => {
    if (isPlainObject(mower)) controlProblems(mower.control, problem);
  },
  acrossStations: lawnControlProblems,
  topics: (mower) => {
    const control = isPlainObject(mower) && isPlainObject(mower.control) ? mower.control : undefined;
    return control && (MOWER_KINDS as readonly unknown[]).includes(control.kind) && control[control.kind as string] !== undefined
      ? controlTopics(controlConfigOf(control, 'station'))
      : [];
  },
};
