/**
 * The household day's optional parts, switched on by one config block (`BENCH_HOUSEHOLD_FEATURES`):
 *
 *   lawns       the first station serves two lawns (the station key `lawns`); with the planner in the build,
 *               each lawn gets a plan (the state's `plan` member)
 *   mower       one simulated mower under control on that station (`mower.control`, kind `mqtt`): a bench
 *               client on the embedded broker that answers start/dock/pause as a mower does
 *   haControls  the Home Assistant controls (Mowed now, numbers, select under `<base>/<station>/control/`);
 *               their settings, if the build wants any, come from the block's `config`
 *
 * The block is `all`, a comma list (`lawns,mower`), JSON (`{"lawns":true,"mower":true,"haControls":{"config":{…}}}`)
 * or `@path` to a JSON file. Each part is asked of the build twice: whether `mowability config` accepts its
 * settings, and after the start whether the daemon shows it (the plan in the state, the mower control's status,
 * a discovery config with a control command topic). A part the build does not have is reported "not present"
 * and left out of the run, so the same command measures main before and after those features land.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { Child } from './child.js';
import { cliPath } from './daemon.js';
import { LOOPBACK } from './net.js';
import { makeTempDir, removeDir } from './tempDir.js';
import { sleep } from './time.js';

export const FEATURE_NAMES = ['lawns', 'mower', 'haControls'] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

export interface FeatureBlock {
  /** Extra top-level settings for the daemon's config file (merged shallowly per section). */
  config?: Record<string, unknown>;
}

export type HouseholdFeatures = Partial<Record<FeatureName, FeatureBlock>>;

/** Where each asked-for part stands after the checks: on (in the run and seen), not present (why), or asked but not seen. */
export type FeatureStanding = Partial<Record<FeatureName, string>>;

const MOWER_COMMAND_TOPIC = 'benchmower/command';
const MOWER_STATE_TOPIC = 'benchmower/activity';
/** The lawn the bench gives a second lawn and the mower (the first station). */
export const FEATURE_STATION = 'bench0';
const SECOND_LAWN = 'bench0_back';

/** BENCH_HOUSEHOLD_FEATURES as a block; empty when unset. */
export function featuresFromEnv(text = process.env.BENCH_HOUSEHOLD_FEATURES): HouseholdFeatures {
  const raw = (text ?? '').trim();
  if (raw === '' || raw === 'none') return {};
  if (raw === 'all') return Object.fromEntries(FEATURE_NAMES.map((name) => [name, {}]));
  const json = raw.startsWith('@') ? readFileSync(raw.slice(1), 'utf8') : raw.startsWith('{') ? raw : undefined;
  const parsed: Record<string, unknown> =
    json === undefined
      ? Object.fromEntries(raw.split(',').map((name) => [name.trim(), true]))
      : (JSON.parse(json) as Record<string, unknown>);
  const features: HouseholdFeatures = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (!(FEATURE_NAMES as readonly string[]).includes(name))
      throw new Error(`BENCH_HOUSEHOLD_FEATURES: unknown part "${name}" (known: ${FEATURE_NAMES.join(', ')}, or "all")`);
    if (value === false) continue;
    features[name as FeatureName] = typeof value === 'object' && value !== null ? value : {};
  }
  return features;
}

/** The station and config changes of one part. */
function partConfig(name: FeatureName, block: FeatureBlock): { station: Record<string, unknown>; config: Record<string, unknown> } {
  const config = block.config ?? {};
  if (name === 'lawns')
    return {
      station: {
        lawns: [
          { id: FEATURE_STATION, name: 'Front lawn', areaM2: 300, capacityM2PerHour: 150 },
          { id: SECOND_LAWN, name: 'Back lawn', areaM2: 180, capacityM2PerHour: 120 },
        ],
      },
      config,
    };
  if (name === 'mower')
    return {
      station: {
        mower: {
          control: {
            enabled: true,
            dryRun: false,
            kind: 'mqtt',
            runMinutes: 45,
            mqtt: {
              commandTopic: MOWER_COMMAND_TOPIC,
              payloads: { start: 'start_mowing', dock: 'dock', pause: 'pause' },
              stateTopic: MOWER_STATE_TOPIC,
              stateKey: '',
              states: { mowing: ['mowing'], docked: ['docked'], paused: ['paused'], returning: ['returning'], error: ['error'] },
            },
          },
        },
      },
      config,
    };
  return { station: {}, config };
}

function merged(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const kept = out[key];
    out[key] =
      typeof kept === 'object' &&
      kept !== null &&
      !Array.isArray(kept) &&
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value)
        ? { ...(kept as Record<string, unknown>), ...(value as Record<string, unknown>) }
        : value;
  }
  return out;
}

/** The config file with the given parts applied to the feature station. */
export function withFeatures(
  config: { stations: Record<string, unknown>[] },
  parts: readonly FeatureName[],
  features: HouseholdFeatures,
): Record<string, unknown> {
  let out: Record<string, unknown> = { ...config };
  const stations = config.stations.map((station) => ({ ...station }));
  for (const name of parts) {
    const { station, config: extra } = partConfig(name, features[name] ?? {});
    const index = stations.findIndex((s) => s.id === FEATURE_STATION);
    if (index >= 0) stations[index] = { ...stations[index], ...station };
    out = merged(out, extra);
  }
  return { ...out, stations };
}

/** Whether `mowability config` of this build accepts the config (its first complaint when not). */
async function configAccepted(repoRoot: string, config: Record<string, unknown>): Promise<{ ok: true } | { ok: false; why: string }> {
  const dir = makeTempDir();
  try {
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify(config));
    const child = await Child.spawnNode({
      args: [cliPath(repoRoot), 'config'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, MOWABILITY_CONFIG: path, MOWABILITY_DB_PATH: join(dir, 'check.db') },
      cwd: dir,
    });
    const exit = await child.waitExitWithin(30_000);
    if (exit === null) await child.stop();
    if (exit?.code === 0) return { ok: true };
    const why = child.output.find((line) => line.trim().startsWith('- ')) ?? child.output.join(' ').slice(0, 200);
    return { ok: false, why: why.trim() };
  } finally {
    removeDir(dir);
  }
}

/**
 * The parts the build accepts (each alone on top of the base config), and the standing of those it does not.
 * Every asked part not accepted is "not present" with the build's own complaint.
 */
export async function acceptedFeatures(
  repoRoot: string,
  base: { stations: Record<string, unknown>[] },
  features: HouseholdFeatures,
): Promise<{ parts: FeatureName[]; standing: FeatureStanding }> {
  const parts: FeatureName[] = [];
  const standing: FeatureStanding = {};
  for (const name of FEATURE_NAMES) {
    if (features[name] === undefined) continue;
    const check = await configAccepted(repoRoot, withFeatures(base, [name], features));
    if (check.ok) parts.push(name);
    else standing[name] = `not present (the build refuses its settings: ${check.why})`;
  }
  return { parts, standing };
}

/** The simulated mower: docked at first, and it does what it is told (a dock goes through returning). */
export async function startSimulatedMower(brokerPort: number): Promise<{ commands: () => number; stop: () => Promise<void> }> {
  const client: MqttClient = await mqtt.connectAsync(`mqtt://${LOOPBACK}:${brokerPort}`, {
    clientId: 'household-mower',
    reconnectPeriod: 1000,
  });
  let commands = 0;
  const report = (activity: string): void =>
    void client.publishAsync(MOWER_STATE_TOPIC, activity, { qos: 1, retain: true }).catch(() => {});
  client.on('message', (_topic, payload) => {
    commands++;
    const word = payload.toString();
    if (word === 'start_mowing') report('mowing');
    else if (word === 'pause') report('paused');
    else if (word === 'dock') {
      report('returning');
      setTimeout(() => report('docked'), 5000).unref();
    }
  });
  await client.subscribeAsync(MOWER_COMMAND_TOPIC, { qos: 1 });
  report('docked');
  return { commands: () => commands, stop: async () => void (await client.endAsync()) };
}

/** What the running daemon shows of each part in the run: its retained state and discovery configs. */
export async function probeFeatures(
  brokerPort: number,
  parts: readonly FeatureName[],
  standing: FeatureStanding,
): Promise<FeatureStanding> {
  if (parts.length === 0) return standing;
  const client = await mqtt.connectAsync(`mqtt://${LOOPBACK}:${brokerPort}`, { clientId: 'household-probe', reconnectPeriod: 0 });
  let state: Record<string, unknown> = {};
  let controlTopics = 0;
  client.on('message', (topic, payload) => {
    if (topic === `mowability/${FEATURE_STATION}/state`) {
      try {
        state = JSON.parse(payload.toString()) as Record<string, unknown>;
      } catch {
        // not a state this probe can read
      }
    } else if (topic.startsWith('homeassistant/') && payload.toString().includes(`/${FEATURE_STATION}/control/`)) controlTopics++;
  });
  await client.subscribeAsync([`mowability/${FEATURE_STATION}/state`, 'homeassistant/#']);
  await sleep(3000); // the retained messages arrive at once; the state within a reading's recompute
  await client.endAsync();
  const out: FeatureStanding = { ...standing };
  const plan = state.plan as { lawns?: Record<string, unknown> } | undefined;
  for (const name of parts) {
    if (name === 'lawns')
      out.lawns =
        plan?.lawns && Object.keys(plan.lawns).length >= 2
          ? `on: ${Object.keys(plan.lawns).length} lawns with a plan`
          : 'on (two lawns), planner not present (no `plan` with both lawns in the state)';
    if (name === 'mower')
      out.mower = 'mower_control' in state ? 'on: one simulated mower under control' : 'accepted, but no `mower_control` in the state';
    if (name === 'haControls')
      out.haControls =
        controlTopics > 0
          ? `on: ${controlTopics} discovery configs with a control topic`
          : 'not present (no discovery config with a control topic)';
  }
  return out;
}
