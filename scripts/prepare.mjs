// npm runs "prepare" after every install in the project directory (production installs with
// --omit=dev included) and before `npm pack`. In a clone with dev dependencies it builds dist/;
// in an unpacked release tarball, which ships dist/ but neither src/ nor TypeScript, it keeps
// the shipped build instead of failing with "tsc: not found".
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const inRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

function typescriptCompiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

const tsc = typescriptCompiler();
if (tsc && existsSync(inRoot('src'))) {
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
if (existsSync(inRoot('dist/cli/main.js'))) {
  console.log('prepare: no TypeScript or no sources here (a production install); using the shipped dist/.');
  process.exit(0);
}
console.error(
  'prepare: cannot build dist/: TypeScript is a dev dependency and is not installed.\n' +
    'Install with dev dependencies ("npm ci"), or install a release tarball, which ships dist/\n' +
    '(made with "npm pack"; see README.md, "Install on a Raspberry Pi").',
);
process.exit(1);
