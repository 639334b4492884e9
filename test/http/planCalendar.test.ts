/**
 * The plan's iCalendar text, read back by a real parser (ical.js) and checked line by line for what
 * RFC 5545 requires: CRLF line ends only (3.1), no line longer than 75 octets (3.1, folding), TEXT with
 * `\`, `;`, `,` and newlines escaped (3.3.11), UTC times with `Z` and no TZID (3.3.5), and UID,
 * DTSTAMP, SEQUENCE, LAST-MODIFIED per slot.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { samplePlan } from '../../bench/lib/samplePlan.js';
import { planCalendarText } from '../../src/http/planCalendar.js';

const NOW_MS = Date.parse('2026-06-15T10:00:00Z');
/** Every character RFC 5545 makes TEXT escape, and a quote and a backslash at the end. */
const AWKWARD_NAME = 'Back, garden; "north"\\';

/** The lines as sent (before unfolding). */
const physicalLines = (text: string): string[] => text.split('\r\n').slice(0, -1);
/** Unfolded content lines (RFC 5545 3.1: CRLF followed by one space or tab continues the line). */
const contentLines = (text: string): string[] =>
  text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);

/** A date-time property's instant, ms. */
const timeOf = (component: ICAL.Component, name: string): number =>
  (component.getFirstPropertyValue(name) as ICAL.Time).toJSDate().getTime();

function events(text: string): ICAL.Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
}

describe('planCalendarText', () => {
  const plan = samplePlan('back', NOW_MS);
  // A long reason, so the description must be folded (several lines over 75 octets, with multi-byte characters).
  const longPlan = {
    ...plan,
    slots: plan.slots.map((slot) => ({
      ...slot,
      reason: { en: `${slot.reason.en} ${'Long words, really; '.repeat(6)}`, de: `${slot.reason.de} Übergrößenmäßig ${'ä'.repeat(80)}` },
    })),
  };

  it('parses with ical.js: one event per slot, with its UID, times, SEQUENCE and DTSTAMP', () => {
    const text = planCalendarText({ lawnId: 'back', lawnName: 'Back lawn', plan, lang: 'en', timeZone: 'Europe/Berlin' });
    const parsed = events(text);
    expect(parsed).toHaveLength(plan.slots.length);
    for (const [index, slot] of plan.slots.entries()) {
      const event = parsed[index]!;
      expect(event.uid).toBe(`${slot.id}@mowability`);
      expect(event.startDate.toJSDate().getTime()).toBe(slot.startMs);
      expect(event.endDate.toJSDate().getTime()).toBe(slot.endMs);
      expect(event.sequence).toBe(slot.sequence);
      expect(event.summary).toBe(slot.relaxed ? 'Mowing: Back lawn (relaxed rule)' : 'Mowing: Back lawn');
      expect(timeOf(event.component, 'dtstamp')).toBe(slot.changedAtMs);
      expect(timeOf(event.component, 'last-modified')).toBe(slot.changedAtMs);
      expect(event.component.getFirstPropertyValue('transp')).toBe('TRANSPARENT');
    }
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toMatch(/mowability/);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Mowing plan: Back lawn');
  });

  it('ends every line with CRLF and folds every line to at most 75 octets', () => {
    for (const lang of ['en', 'de'] as const) {
      const text = planCalendarText({ lawnId: 'back', lawnName: AWKWARD_NAME, plan: longPlan, lang, timeZone: 'Europe/Berlin' });
      expect(text.endsWith('\r\n') || text.endsWith('END:VCALENDAR')).toBe(true);
      // No bare LF or CR anywhere.
      expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
      const lines = physicalLines(`${text}\r\n`);
      expect(Math.max(...lines.map((line) => Buffer.byteLength(line, 'utf8')))).toBeLessThanOrEqual(75);
      // Folding happened (the descriptions are longer than a line) and never split a character.
      expect(lines.some((line) => line.startsWith(' '))).toBe(true);
      expect(text).not.toContain('\uFFFD');
      // What was folded reads back whole.
      const description = events(text)[0]!.description;
      expect(description.startsWith(longPlan.slots[0]!.reason[lang])).toBe(true);
    }
  });

  it('escapes , ; \\ and newlines in TEXT, and the parser gives the name back exactly', () => {
    const text = planCalendarText({ lawnId: 'back', lawnName: AWKWARD_NAME, plan, lang: 'en', timeZone: 'Europe/Berlin' });
    const lines = contentLines(text);
    expect(lines).toContain('X-WR-CALNAME:Mowing plan: Back\\, garden\\; "north"\\\\');
    expect(lines.filter((line) => line.startsWith('SUMMARY:'))[0]).toBe('SUMMARY:Mowing: Back\\, garden\\; "north"\\\\');
    // The description's lines are joined by an escaped newline, never a raw one.
    const description = lines.find((line) => line.startsWith('DESCRIPTION:'))!;
    expect(description).toContain('\\n');
    const parsed = events(text);
    expect(parsed[0]!.summary).toBe(`Mowing: ${AWKWARD_NAME}`);
    expect(parsed[0]!.description.split('\n')).toHaveLength(3);
    // ical.js keeps an X- property's value as written; read as TEXT (as calendars do), it is the name again.
    const calendarName = new ICAL.Component(ICAL.parse(text)).getFirstPropertyValue('x-wr-calname') as string;
    expect(ICAL.design.icalendar.value.text!.fromICAL!(calendarName)).toBe(`Mowing plan: ${AWKWARD_NAME}`);
  });

  it('gives times in UTC (Z, no TZID, so no VTIMEZONE is needed) and says the local times in the station zone', () => {
    const text = planCalendarText({ lawnId: 'back', lawnName: 'Back', plan, lang: 'de', timeZone: 'Europe/Berlin' });
    const lines = contentLines(text);
    const first = plan.slots[0]!;
    const utc = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
    expect(lines).toContain(`DTSTART:${utc(first.startMs)}`);
    expect(lines).toContain(`DTEND:${utc(first.endMs)}`);
    expect(text).not.toMatch(/TZID/);
    expect(text).not.toMatch(/BEGIN:VTIMEZONE/);
    // 12:00 UTC on 15 June is 14:00 in Berlin (summer time); the German description says so, with the zone.
    const description = events(text)[0]!.description;
    expect(description).toContain('Mo., 15. Juni, 14:00–16:00 (Europe/Berlin)');
    expect(description).toContain('Die trockensten Stunden des Tages');
    expect(events(text)[0]!.summary).toBe('Mähen: Back');
    const elsewhere = events(planCalendarText({ lawnId: 'back', lawnName: 'Back', plan, lang: 'en', timeZone: 'America/New_York' }))[0]!;
    expect(elsewhere.description).toContain('Mon 15 Jun, 08:00–10:00 (America/New_York)');
    expect(elsewhere.startDate.toJSDate().getTime()).toBe(first.startMs);
  });

  it('is the same text for the same plan (stable UIDs and stamps), and a changed slot carries its new SEQUENCE', () => {
    const input = { lawnId: 'back', lawnName: 'Back', plan, lang: 'en' as const, timeZone: 'Europe/Berlin' };
    expect(planCalendarText(input)).toBe(planCalendarText(input));
    const moved = {
      ...plan,
      slots: plan.slots.map((slot, index) =>
        index === 1 ? { ...slot, startMs: slot.startMs + 3_600_000, sequence: 1, changedAtMs: NOW_MS + 60_000 } : slot,
      ),
    };
    const before = events(planCalendarText(input));
    const after = events(planCalendarText({ ...input, plan: moved }));
    expect(after.map((event) => event.uid)).toEqual(before.map((event) => event.uid));
    expect(after.map((event) => event.sequence)).toEqual([0, 1, 0, 0]);
    expect(timeOf(after[1]!.component, 'dtstamp')).toBe(NOW_MS + 60_000);
  });

  it('without a plan yet: a valid calendar with its name and no events', () => {
    const text = planCalendarText({ lawnId: 'back', lawnName: 'Back', plan: null, lang: 'de', timeZone: 'Europe/Berlin' });
    expect(events(text)).toEqual([]);
    expect(new ICAL.Component(ICAL.parse(text)).getFirstPropertyValue('x-wr-calname')).toBe('Mähplan: Back');
  });
});
