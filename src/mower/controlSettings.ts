/** The mower control's global settings (`mowerControl.*`, convict fragment; docs/configuration.md is generated from it). */
import { UNIT_CREDENTIAL_VARIABLES } from '../config/credentials.js';

export interface MowerControlSettings {
  tickSeconds: number;
  homeAssistantToken: string;
  /** Inside the Home Assistant add-on: the Supervisor's address and token (homeassistant mowers without a url). */
  supervisorUrl?: string;
  supervisorToken?: string;
}

/** The variable the Supervisor gives every add-on its token in (developers.home-assistant.io, "App communication"). */
export const SUPERVISOR_TOKEN_ENV = 'SUPERVISOR_TOKEN';
/** The Supervisor's address inside an add-on; the variable that replaces it is for tests and development only. */
export const SUPERVISOR_URL_DEFAULT = 'http://supervisor';
export const SUPERVISOR_URL_ENV = 'MOWABILITY_SUPERVISOR_URL';

export const MOWER_CONTROL_SETTINGS = {
  tickSeconds: {
    doc: "Mower control (docs/mower.md): how often, in seconds, each controlled mower's decision is asked again besides on every change the mower reports (and when unconfirmed commands are retried).",
    format: (value: unknown) => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 600)
        throw new Error('must be a whole number of seconds from 1 to 600');
    },
    default: 30,
    env: 'MOWABILITY_MOWER_CONTROL_TICK_SECONDS',
  },
  homeAssistantToken: {
    doc: 'Mower control (docs/mower.md): Home Assistant\'s long-lived access token for mowers of kind "homeassistant" (Profile → Security → Long-lived access tokens). Set it by environment or a systemd credential, never in the config file. Inside the Home Assistant add-on the Supervisor\'s token is used and this stays empty.',
    format: (value: unknown) => {
      if (typeof value !== 'string' || value.length > 4096 || /\s/.test(value))
        throw new Error('must be the token as Home Assistant shows it (no spaces, up to 4096 characters)');
    },
    default: '',
    env: UNIT_CREDENTIAL_VARIABLES['mowerControl.homeAssistantToken']!,
    sensitive: true,
  },
  supervisorUrl: {
    doc: 'Inside the Home Assistant add-on: the Supervisor\'s address. A mower of kind "homeassistant" whose block names no url talks to Home Assistant through the Supervisor\'s proxy (<this>/core/websocket) with mowerControl.supervisorToken. Change it only for tests and development (a fake Supervisor).',
    format: (value: unknown) => {
      if (typeof value !== 'string' || !/^https?:\/\/[^\s/@]+$/.test(value.replace(/\/+$/, '')))
        throw new Error('must be an http(s) address without a path or credentials, e.g. "http://supervisor"');
    },
    default: SUPERVISOR_URL_DEFAULT,
    env: SUPERVISOR_URL_ENV,
  },
  supervisorToken: {
    doc: "Inside the Home Assistant add-on: the Supervisor's token, which the Supervisor puts into the add-on's environment as SUPERVISOR_TOKEN (the add-on declares homeassistant_api). Used only with mowerControl.supervisorUrl, never sent to an address the user names. Empty: not in the add-on.",
    format: (value: unknown) => {
      if (typeof value !== 'string' || value.length > 4096 || /\s/.test(value))
        throw new Error('must be a token without spaces, up to 4096 characters');
    },
    default: '',
    env: SUPERVISOR_TOKEN_ENV,
    sensitive: true,
  },
};
