/** The product's version, read once from package.json (shipped beside dist/ in every install). */
import { readFileSync } from 'node:fs';

// src/util/ and dist/util/ are both two levels below the package root.
const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;
  return cached;
}
