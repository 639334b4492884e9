/** The product's version and homepage, read once from package.json (shipped beside dist/ in every install). */
import { readFileSync } from 'node:fs';

// src/util/ and dist/util/ are both two levels below the package root.
const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

let cached: { version: string; homepage?: unknown } | undefined;

function packageJson(): { version: string; homepage?: unknown } {
  cached ??= JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string; homepage?: unknown };
  return cached;
}

export function packageVersion(): string {
  return packageJson().version;
}

/** package.json's `homepage` when it is an http(s) URL, else "" (Home Assistant refuses other support URLs). */
export function packageHomepage(): string {
  const homepage = packageJson().homepage;
  return typeof homepage === 'string' && /^https?:\/\/[^\s/]+/.test(homepage) ? homepage : '';
}
