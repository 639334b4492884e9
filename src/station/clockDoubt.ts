/**
 * Why the wall clock is not trusted for rain of the last hour (./recentRain.ts), in words a user
 * understands, English and German like the other holds: which clock problem was seen, and what
 * the daemon does about the rain the history cannot place.
 */
import type { Reason } from './unit.js';
import { describeDuration, type ClockStep } from '../util/clockWatch.js';

export type ClockDoubt =
  /** The clock watch saw a step `agoMs` ago (monotonic). */
  | { kind: 'step'; step: ClockStep; agoMs: number }
  /** The system clock is known not to be NTP-synchronised yet. */
  | { kind: 'unsynchronised' }
  /** The history holds readings stamped after the current time: the clock was set back before this start. */
  | { kind: 'history-ahead' };

/** "3 s", "25 min", "1,5 h", "1 Tag", "2 Tage" */
function germanDuration(ms: number): string {
  const text = describeDuration(ms).replace('.', ',');
  return text.endsWith(' d') ? `${text.slice(0, -2)} ${text === '1 d' ? 'Tag' : 'Tage'}` : text;
}

/** The hold's English and German reason for `mm` of rain the history's windows do not show. */
export function clockDoubtReason(doubt: ClockDoubt, mm: number): Reason {
  const mmDe = String(mm).replace('.', ',');
  const tail = `so the history cannot place the ${mm} mm of rain the station reported in the last hour; it is counted by when it arrived`;
  const tailDe = `daher kann der Verlauf die ${mmDe} mm Regen, die die Station in der letzten Stunde meldete, nicht zuordnen; sie zählen nach ihrer Ankunft`;
  if (doubt.kind === 'step') {
    const size = Math.abs(doubt.step.deltaMs);
    const ago = Math.max(1, Math.round(doubt.agoMs / 60_000));
    return {
      en: `the system clock was set ${doubt.step.direction === 'forward' ? 'forward' : 'back'} by ${describeDuration(size)} ${ago} min ago, ${tail}`,
      de: `die Systemuhr wurde vor ${ago} min um ${germanDuration(size)} ${doubt.step.direction === 'forward' ? 'vorgestellt' : 'zurückgestellt'}, ${tailDe}`,
    };
  }
  if (doubt.kind === 'unsynchronised') {
    return {
      en: `the system clock is not synchronised yet (NTP), ${tail}`,
      de: `die Systemuhr ist noch nicht synchronisiert (NTP), ${tailDe}`,
    };
  }
  return {
    en: `the history holds readings stamped later than the current time (the clock was set back, e.g. restored after a power cut), ${tail}`,
    de: `der Verlauf enthält Meldungen mit einer späteren Zeit als der jetzigen (die Uhr wurde zurückgestellt, etwa nach einem Stromausfall), ${tailDe}`,
  };
}
