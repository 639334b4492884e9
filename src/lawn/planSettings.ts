/**
 * The week plan's global settings (`plan.*`): on or off, and the mower's run shape when a station's
 * `mower.control` names none (the planner takes `mower.control.runMinutes` and `minGapHours` where they
 * are set). A convict fragment the planner module brings (./planModule.ts).
 */

/** `plan.*` as loaded. */
export interface PlanSettings {
  readonly enabled: boolean;
  readonly runMinutes: number;
  readonly minRunMinutes: number;
  readonly gapMinutes: number;
  readonly chargeMinutes: number;
  /** `notify.<name>` to call on each plan change; '' = off. */
  readonly notifyService: string;
  readonly notifyLanguage: 'en' | 'de';
}

/** A whole number of minutes in [min, max]; the message says what the setting means. */
function minutes(min: number, max: number, meaning: string): (value: unknown) => void {
  return (value: unknown) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw new Error(`must be a whole number of minutes from ${min} to ${max} (${meaning})`);
  };
}

export const planSchema = {
  enabled: {
    doc: 'Plan each lawn\'s week (docs/model.md "The plan"): the runtime the lawn needs, run slots in the forecast\'s dry, allowed hours, the mowing debt; in the state (`plan`), Home Assistant and `<base>/<lawn>/plan/changed`.',
    format: Boolean,
    default: true,
    env: 'MOWABILITY_PLAN_ENABLED',
    arg: 'plan-enabled',
  },
  runMinutes: {
    doc: "Minutes of one planned run (a robot's run on one charge) for a station whose mower.control sets no runMinutes.",
    format: minutes(5, 24 * 60, 'one run'),
    default: 120,
    env: 'MOWABILITY_PLAN_RUN_MINUTES',
    arg: 'plan-run-minutes',
  },
  minRunMinutes: {
    doc: 'The shortest run worth planning, minutes: a dry stretch shorter than this gets no slot.',
    format: minutes(5, 24 * 60, 'the shortest run planned'),
    default: 30,
    env: 'MOWABILITY_PLAN_MIN_RUN_MINUTES',
    arg: 'plan-min-run-minutes',
  },
  gapMinutes: {
    doc: 'Minutes from the end of one planned run to the next start, for a station whose mower.control sets no minGapHours.',
    format: minutes(0, 14 * 24 * 60, 'the gap between runs'),
    default: 60,
    env: 'MOWABILITY_PLAN_GAP_MINUTES',
    arg: 'plan-gap-minutes',
  },
  chargeMinutes: {
    doc: 'Minutes the mower charges after a run; planned runs are at least this far apart too.',
    format: minutes(0, 24 * 60, 'charging after a run'),
    default: 60,
    env: 'MOWABILITY_PLAN_CHARGE_MINUTES',
    arg: 'plan-charge-minutes',
  },
  notifyService: {
    doc: 'A Home Assistant notify service, e.g. "notify.mobile_app_phone", called once per changed plan with its changes and their reasons (docs/mqtt.md, `<base>/<lawn>/plan/changed`), through the Home Assistant mower\'s connection or, in the add-on, the Supervisor\'s. Empty: off.',
    format: (value: unknown) => {
      if (typeof value !== 'string' || (value !== '' && !/^notify\.[a-z0-9_]+$/.test(value)))
        throw new Error(
          'must be "notify.<name>" (lower-case letters, digits, _), e.g. "notify.mobile_app_phone" as in Home Assistant\'s Developer tools → Actions, or empty for no notifications',
        );
    },
    default: '',
    env: 'MOWABILITY_PLAN_NOTIFY_SERVICE',
    arg: 'plan-notify-service',
  },
  notifyLanguage: {
    doc: 'The language of the plan notifications\' title and message: "en" or "de".',
    format: ['en', 'de'],
    default: 'en',
    env: 'MOWABILITY_PLAN_NOTIFY_LANGUAGE',
    arg: 'plan-notify-language',
  },
};
