/**
 * The dependency rules of .dependency-cruiser.cjs (layers pointing one way, no cycles, a pure
 * core, no test code in the product or the benchmarks) hold for src/ and bench/. A second case
 * runs the same rules on a small project built to break each of them, so a rule that stopped
 * matching (a renamed folder, a resolver that no longer follows `.js` specifiers to `.ts`)
 * fails here instead of passing silently.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
/** A cruise of the whole tree takes ~5 s of CPU; on a loaded 2-core machine several times that. */
const CRUISE_TIMEOUT_MS = 120_000;

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}

interface CruiseResult {
  summary: { violations: Violation[]; totalCruised: number };
}

/** Runs depcruise with the project's rules in `cwd` and returns its JSON result (it exits 1 on violations). */
async function cruise(cwd: string, targets: string[]): Promise<CruiseResult> {
  const run = promisify(execFile);
  const args = [CLI, ...targets, '--config', CONFIG, '--output-type', 'json'];
  const output = await run(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => {
    if (typeof error.stdout === 'string' && error.stdout.startsWith('{')) return { stdout: error.stdout };
    throw error;
  });
  return JSON.parse(output.stdout) as CruiseResult;
}

function describeViolation(violation: Violation): string {
  const cycle = violation.cycle ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' → ')})` : '';
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`;
}

// dependency-cruiser over src/ and bench/: 5 s on a quiet machine, over 10 s on a loaded one.
describe('module dependencies', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  it(
    'point one way, with no cycles, in src/ and bench/',
    async () => {
      const result = await cruise(ROOT, ['src', 'bench']);
      expect(result.summary.totalCruised).toBeGreaterThan(150);
      expect(result.summary.violations.map(describeViolation)).toEqual([]);
    },
    CRUISE_TIMEOUT_MS,
  );

  describe('the rules catch each kind of breach', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mow-depcruise-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
      'package.json': JSON.stringify({ type: 'module' }),
      // Upward: the core imports an adapter; the config layer imports the MQTT adapter.
      'src/core/upward.ts': "import { ROUTE } from '../http/route.js';\nexport const USED = ROUTE;\n",
      'src/http/route.ts': "export const ROUTE = '/v1/calculate';\n",
      'src/config/schema.ts': "import type { Topic } from '../mqtt/topics.js';\nexport type Prefix = Topic;\n",
      'src/mqtt/topics.ts': 'export type Topic = string;\n',
      // A type-only cycle.
      'src/history/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'src/history/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
      // An impure core, a benchmark that imports a test helper, a specifier that resolves nowhere.
      'src/core/impure.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'bench/x.bench.ts':
        "import { helper } from '../test/helpers/helper.js';\nimport { gone } from '../src/util/gone.js';\nexport const used = [helper, gone];\n",
      'test/helpers/helper.ts': 'export const helper = 1;\n',
      // Two folders of one layer importing each other through different modules (no module cycle).
      'src/http/usesMqtt.ts': "import { TOPIC } from '../mqtt/topic.js';\nexport const A = TOPIC;\n",
      'src/mqtt/topic.ts': "export const TOPIC = 'x';\n",
      'src/mqtt/usesHttp.ts': "import { ROUTE } from '../http/route.js';\nexport const B = ROUTE;\n",
      // One station unit importing another.
      'src/forecast/quiet.ts': "import { HOLIDAYS } from '../lawn/holidays.js';\nexport const Q = HOLIDAYS;\n",
      'src/lawn/holidays.ts': 'export const HOLIDAYS: string[] = [];\n',
      // A home part (metrics, above http/ in the layers) reaching into the public service; the public service reading the station side.
      'src/metrics/quota.ts': "import { QUOTA } from '../publicService/quota.js';\nexport const Q = QUOTA;\n",
      'src/publicService/quota.ts': "import { STATE } from '../station/state.js';\nexport const QUOTA = STATE.length;\n",
      'src/station/state.ts': "export const STATE = 'x';\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }

    it(
      'reports every breach by its rule',
      async () => {
        const found = (await cruise(dir, ['src', 'bench'])).summary.violations.map(describeViolation);
        expect(found.sort()).toEqual([
          'core-is-pure: src/core/impure.ts → fs',
          'no-circular: src/history/a.ts → src/history/b.ts (cycle: src/history/b.ts → src/history/a.ts)',
          'no-folder-cycle: src/http → src/mqtt (cycle: src/mqtt → src/http)',
          'no-folder-cycle: src/mqtt → src/http (cycle: src/http → src/mqtt)',
          'no-test-code-in-product: bench/x.bench.ts → test/helpers/helper.ts',
          'no-upward-from-config: src/config/schema.ts → src/mqtt/topics.ts',
          'no-upward-from-core: src/core/upward.ts → src/http/route.ts',
          'not-to-unresolvable: bench/x.bench.ts → ../src/util/gone.js',
          'public-service-apart: src/metrics/quota.ts → src/publicService/quota.ts',
          'public-service-scope: src/publicService/quota.ts → src/station/state.ts',
          'transports-apart: src/http/usesMqtt.ts → src/mqtt/topic.ts',
          'transports-apart: src/mqtt/usesHttp.ts → src/http/route.ts',
          'units-apart: src/forecast/quiet.ts → src/lawn/holidays.ts',
        ]);
      },
      CRUISE_TIMEOUT_MS,
    );
  });
});
