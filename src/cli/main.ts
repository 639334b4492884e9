#!/usr/bin/env node
/**
 * The `mowability` executable. It checks the Node.js version first and only then loads the CLI
 * (src/cli/process.ts): every static import here must load on old Node.js versions too, so this
 * file imports nothing but the version check.
 */
import { nodeVersionProblem } from './nodeVersion.js';
import { EXIT_CONFIG } from '../util/exitCodes.js';

const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem === undefined) {
  await import('./process.js');
} else {
  process.stderr.write(`${problem}\n`);
  // A setup problem that a restart cannot fix: the unit's RestartPreventExitStatus= stops the loop.
  process.exitCode = EXIT_CONFIG;
}
