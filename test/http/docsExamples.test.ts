/**
 * docs/api.md's examples that show the daemon's own answers come from the running daemon, so they
 * cannot drift (the health example once showed an old mfi_version and no checks.mqtt). Each block
 * is compared with a fresh answer; `UPDATE_DOCS=1 npx vitest run test/http/docsExamples.test.ts`
 * writes the answers into the document.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { MFI_VERSION } from '../../src/core/version.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { waitUntil } from '../helpers/wait.js';

const API_DOC = fileURLToPath(new URL('../../docs/api.md', import.meta.url));

/** The first ```json block after `heading`: its text and where it sits in the document. */
function exampleBlock(doc: string, heading: string): { text: string; start: number; end: number } {
  const at = doc.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`docs/api.md has no heading "${heading}"`);
  const start = doc.indexOf('```json\n', at) + '```json\n'.length;
  const end = doc.indexOf('```', start);
  return { text: doc.slice(start, end), start, end };
}

describe('docs/api.md examples from the running daemon', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let daemon: RunningDaemon | undefined;

  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(async () => {
    await daemon?.stop();
    temp.cleanup();
  });

  it('GET /health (embedded broker on, once connected)', async () => {
    const env = {
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: '0',
      MOWABILITY_BROKER_ENABLED: 'true',
      MOWABILITY_BROKER_PORT: '0',
    };
    daemon = await startDaemon({ config: loadConfig({ env }), logger: captureLogger('warn').logger });
    const health = async () =>
      (await (await fetch(`${daemon!.httpAddress}/health`)).json()) as {
        mfi: { checks: { mqtt?: { status: string } }; response_time_ms: number };
      };
    await waitUntil(async () => (await health()).mfi.checks.mqtt?.status === 'ok', 'checks.mqtt ok');
    // The one value that differs from run to run.
    const mfi = { ...(await health()).mfi, response_time_ms: 1 };
    const generated = `${JSON.stringify(mfi, null, 2)}\n`;
    expect(generated).toContain(`"mfi_version": "${MFI_VERSION}"`);

    const doc = readFileSync(API_DOC, 'utf8');
    const block = exampleBlock(doc, '### GET /health and /v1/health');
    if (process.env.UPDATE_DOCS === '1') writeFileSync(API_DOC, doc.slice(0, block.start) + generated + doc.slice(block.end));
    else expect(block.text, 'docs/api.md is out of date: run UPDATE_DOCS=1 npx vitest run test/http/docsExamples.test.ts').toBe(generated);
  });
});
