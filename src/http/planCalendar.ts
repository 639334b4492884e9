/**
 * A lawn's week plan (src/core/plan/types.ts) as an iCalendar text (RFC 5545), written by
 * ical-generator, which folds lines at 75 octets, ends them with CRLF and escapes TEXT values.
 * Pure: the plan, the lawn's name, the language and the zone in, the text out.
 *
 * Times are UTC (RFC 5545 3.3.5, form 2, `...Z`), not local times with a VTIMEZONE: each slot is one
 * instant range, never repeated, so UTC says it exactly; Home Assistant's Remote Calendar and phone
 * calendars show UTC in the viewer's zone; and a VTIMEZONE would be a copy of the zone's rules the
 * daemon would have to generate and keep current (an out-of-date one shifts events by an hour). The
 * station's local times are said in each event's DESCRIPTION, with the zone named.
 *
 * No METHOD: then DTSTAMP is when the event's information last changed (RFC 5545 3.8.7.2), the slot's
 * `changedAtMs`, like LAST-MODIFIED; so two fetches of an unchanged plan are the same text.
 */
import ical, { escape, ICalEventTransparency } from 'ical-generator';
import type { LawnPlan, PlanSlot } from '../core/plan/types.js';

export type CalendarLanguage = 'en' | 'de';
export const CALENDAR_LANGUAGES: readonly CalendarLanguage[] = ['en', 'de'];

/** The UID domain of every slot: `<slot.id>@mowability`. */
export const UID_DOMAIN = 'mowability';
/** How often a subscribed calendar should fetch again (the plan is recomputed at most hourly). */
const REFRESH_SECONDS = 3600;

export interface PlanCalendarInput {
  lawnId: string;
  lawnName: string;
  /** null: the lawn is known but has no plan yet (planner not run, or off): a calendar without events. */
  plan: LawnPlan | null;
  lang: CalendarLanguage;
  /** The configured `timezone`, for the local times in the descriptions. */
  timeZone: string;
}

const WORDS = {
  en: {
    calendarName: (name: string) => `Mowing plan: ${name}`,
    summary: (name: string) => `Mowing: ${name}`,
    relaxed: ' (relaxed rule)',
    band: { OK: 'Conditions: good', WARNING: 'Conditions: acceptable (warning)' },
    horizon: (until: string) => `Planned up to ${until}; nothing is planned past the forecast.`,
    noPlan: 'No plan yet.',
    local: (range: string, zone: string) => `${range} (${zone})`,
  },
  de: {
    calendarName: (name: string) => `Mähplan: ${name}`,
    summary: (name: string) => `Mähen: ${name}`,
    relaxed: ' (gelockerte Regel)',
    band: { OK: 'Bedingungen: gut', WARNING: 'Bedingungen: annehmbar (Warnung)' },
    horizon: (until: string) => `Geplant bis ${until}; nach dem Ende der Vorhersage wird nichts geplant.`,
    noPlan: 'Noch kein Plan.',
    local: (range: string, zone: string) => `${range} (${zone})`,
  },
} as const;

function localFormats(lang: CalendarLanguage, timeZone: string): { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat } {
  const locale = lang === 'de' ? 'de-DE' : 'en-GB';
  return {
    day: new Intl.DateTimeFormat(locale, {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }),
    time: new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  };
}

function slotDescription(slot: PlanSlot, input: PlanCalendarInput, formats: ReturnType<typeof localFormats>): string {
  const words = WORDS[input.lang];
  const range = `${formats.day.format(slot.startMs)}–${formats.time.format(slot.endMs)}`;
  return [slot.reason[input.lang], words.band[slot.band], words.local(range, input.timeZone)].join('\n');
}

export function planCalendarText(input: PlanCalendarInput): string {
  const words = WORDS[input.lang];
  const formats = localFormats(input.lang, input.timeZone);
  const { plan } = input;
  const calendar = ical({
    // X-WR-CALNAME and X-WR-CALDESC are TEXT for the calendars that read them, but the library writes them as given.
    name: escape(words.calendarName(input.lawnName), false),
    description: escape(plan ? words.horizon(formats.day.format(plan.horizonEndMs)) : words.noPlan, false),
    prodId: { company: 'mowability', product: 'week-plan', language: input.lang.toUpperCase() },
    ttl: REFRESH_SECONDS,
  });
  for (const slot of plan?.slots ?? []) {
    const changed = new Date(slot.changedAtMs);
    calendar.createEvent({
      id: `${slot.id}@${UID_DOMAIN}`,
      start: new Date(slot.startMs),
      end: new Date(slot.endMs),
      stamp: changed,
      lastModified: changed,
      sequence: slot.sequence,
      summary: `${words.summary(input.lawnName)}${slot.relaxed ? words.relaxed : ''}`,
      description: slotDescription(slot, input, formats),
      // The robot mows, not the person: the slot does not make them busy.
      transparency: ICalEventTransparency.TRANSPARENT,
    });
  }
  return calendar.toString();
}
