/** The mower control's global settings (`mowerControl.*`, convict fragment; docs/configuration.md is generated from it). */
import { UNIT_CREDENTIAL_VARIABLES } from '../config/credentials.js';

export interface MowerControlSettings {
  tickSeconds: number;
  homeAssistantToken: string;
}

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
};
