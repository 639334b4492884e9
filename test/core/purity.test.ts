import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE_DIR = path.resolve(import.meta.dirname, '../../src/core');
const FORBIDDEN_MODULE = /^(node:|fastify|@fastify\/|mqtt|aedes|sqlite3|pino|convict|node-cron|fs$|path$|os$|crypto$|http$|net$)/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function importedModules(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) if (match[1] !== undefined) specifiers.push(match[1]);
  }
  return specifiers;
}

describe('src/core stays pure', () => {
  const files = sourceFiles(CORE_DIR);

  it('finds the core sources', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
    expect(files.some((file) => file.endsWith(path.join('checks', 'rain.ts')))).toBe(true);
  });

  it.each(files.map((file) => [path.relative(CORE_DIR, file), file]))('%s imports only relative core modules', (_name, file) => {
    const modules = importedModules(fs.readFileSync(file, 'utf8'));
    for (const specifier of modules) {
      expect(specifier, `${file} imports ${specifier}`).not.toMatch(FORBIDDEN_MODULE);
      expect(specifier.startsWith('./') || specifier.startsWith('../'), `${file} imports ${specifier}`).toBe(true);
    }
  });

  it.each(files.map((file) => [path.relative(CORE_DIR, file), file]))('%s reads no clock, environment or randomness', (_name, file) => {
    const source = fs.readFileSync(file, 'utf8');
    expect(source).not.toMatch(/Date\.now\(|new Date\(\)|process\.|Math\.random\(|performance\.now\(|console\./);
  });

  it('detects a forbidden import (self-check of the scanner)', () => {
    const modules = importedModules("import fs from 'node:fs';\nimport type { Logger } from 'pino';\nconst m = await import('mqtt');");
    expect(modules).toEqual(['node:fs', 'pino', 'mqtt']);
    expect(modules.every((specifier) => FORBIDDEN_MODULE.test(specifier))).toBe(true);
  });
});
