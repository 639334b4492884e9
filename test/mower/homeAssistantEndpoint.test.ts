/**
 * Which Home Assistant a mower of kind "homeassistant" talks to, with which token
 * (homeAssistantEndpoint in src/mower/homeAssistantMower.ts): its own url with the long-lived token;
 * without a url, inside the add-on, the Supervisor's WebSocket proxy with the Supervisor's token,
 * which never goes to an address the user names; without either, a problem that names the url.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { controlProblems } from '../../src/mower/controlConfig.js';
import { homeAssistantEndpoint, HomeAssistantMower } from '../../src/mower/homeAssistantMower.js';

const SUPERVISOR = { supervisorUrl: 'http://supervisor', supervisorToken: 'the-supervisor-token' };

describe('the Home Assistant endpoint of a mower', () => {
  it('without a url inside the add-on: ws://supervisor/core/websocket with the Supervisor token', () => {
    expect(homeAssistantEndpoint('', { homeAssistantToken: '', ...SUPERVISOR })).toMatchObject({
      webSocketUrl: 'ws://supervisor/core/websocket',
      token: 'the-supervisor-token',
    });
    expect(
      homeAssistantEndpoint('', { homeAssistantToken: '', supervisorUrl: 'http://127.0.0.1:41234/', supervisorToken: 't' })?.webSocketUrl,
    ).toBe('ws://127.0.0.1:41234/core/websocket');
  });

  it("with a url: that address with the long-lived token, never the Supervisor's token", () => {
    const own = homeAssistantEndpoint('https://ha.example.net', { homeAssistantToken: '', ...SUPERVISOR });
    expect(own).toMatchObject({ webSocketUrl: 'wss://ha.example.net/api/websocket', token: '' });
    expect(JSON.stringify(own)).not.toContain('the-supervisor-token');
  });

  it('without a url outside the add-on: no endpoint, and the mower says to set the url', async () => {
    expect(homeAssistantEndpoint('', { homeAssistantToken: 'long-lived' })).toBeUndefined();
    expect(homeAssistantEndpoint('', { homeAssistantToken: '', supervisorUrl: 'http://supervisor', supervisorToken: '' })).toBeUndefined();
    const mower = new HomeAssistantMower(
      { url: '', entity: 'lawn_mower.robbi', startService: 'lawn_mower.start_mowing', startData: {} },
      undefined,
      pino({ level: 'silent' }),
    );
    await mower.open();
    expect(mower.problem()).toContain('mower.control.homeassistant.url is not set');
    await mower.close();
  });

  it('the block may leave out the url; a url it names must still be an address without credentials', () => {
    const problems: string[] = [];
    const problem = (key: string, message: string) => void problems.push(`${key} ${message}`);
    controlProblems({ enabled: true, kind: 'homeassistant', homeassistant: { entity: 'lawn_mower.robbi' } }, problem);
    expect(problems).toEqual([]);
    controlProblems(
      { enabled: true, kind: 'homeassistant', homeassistant: { url: 'http://me:pw@ha:8123', entity: 'lawn_mower.robbi' } },
      problem,
    );
    expect(problems).toEqual([expect.stringContaining('mower.control.homeassistant.url must be')]);
  });
});
