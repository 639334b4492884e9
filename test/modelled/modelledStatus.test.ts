/**
 * The modelled station's status words: a refused redirect (the client's outcome says so by its
 * `problem`, not by its wording) adds the client's own sentence, which names the setting to fix.
 */
import { describe, expect, it } from 'vitest';
import { modelledView, type ModelledProgress } from '../../src/modelled/modelledStatus.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');

function failing(lastError: string, redirectRefused: boolean): ModelledProgress {
  return { failures: 2, lastError, lastErrorRedirectRefused: redirectRefused, failingSinceMs: NOW - 60_000, memory: { validators: {} } };
}

describe('modelledView', () => {
  it('names a refused redirect in the outage sentence', () => {
    const reason = 'HTTP 302 redirect to another host (evil.example) refused; set forecast.openMeteoUrl to the server that answers';
    const view = modelledView(failing(reason, true), null, 'Open-Meteo', NOW, 'UTC');
    expect(view.status).toBe('no_data_provider_unreachable');
    expect(view.message).toContain(`(${reason})`);
  });

  it('adds nothing for another failure, even when its words mention a redirect', () => {
    const reason = 'request failed: the proxy answered "redirect loop detected"';
    const view = modelledView(failing(reason, false), null, 'Open-Meteo', NOW, 'UTC');
    expect(view.message).not.toContain(reason);
    expect(view.last_error).toBe(reason);
  });
});
