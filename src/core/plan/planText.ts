/**
 * The plan's sentences in English and German (slot reasons, change reasons, status), pure. Times are local
 * to the station's time zone, written as "Tue 14:05" / „Di 14:05“.
 */
import { localDateTime } from '../season.js';
import type { StepBar } from './steps.js';
import type { PlanText } from './types.js';

const WEEKDAYS_EN = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const WEEKDAYS_DE = ['So', 'Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa'];

function two(value: number): string {
  return String(value).padStart(2, '0');
}

/** "Tue 3 Dec 14:05" and „Di 3.12. 14:05“ in `timeZone`. */
export function localWhen(ms: number, timeZone: string): PlanText {
  const t = localDateTime(ms, timeZone);
  const weekday = new Date(Date.UTC(t.year, t.month - 1, t.day)).getUTCDay();
  const clock = `${two(t.hour)}:${two(t.minute)}`;
  const monthEn = new Date(Date.UTC(t.year, t.month - 1, 1)).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  return { en: `${WEEKDAYS_EN[weekday]} ${t.day} ${monthEn} ${clock}`, de: `${WEEKDAYS_DE[weekday]} ${t.day}.${t.month}. ${clock}` };
}

/** Why a step cannot be mown. */
export const BAR_TEXT: Readonly<Record<StepBar, PlanText>> = {
  rain: { en: 'rain is expected then', de: 'dann ist Regen zu erwarten' },
  quiet: { en: 'it falls in quiet hours', de: 'es liegt in der Ruhezeit' },
  frost: { en: 'frost is on the blades then (not yet thawed)', de: 'dann liegt Frost auf den Halmen (noch nicht aufgetaut)' },
  block: { en: 'the index is BLOCK then', de: 'der Index steht dann auf BLOCK' },
  warning: { en: 'the index is only WARNING then', de: 'der Index steht dann nur auf WARNING' },
  wet_blades: { en: 'the blades are wet then', de: 'die Halme sind dann nass' },
  unrated: { en: 'the forecast cannot rate those hours', de: 'die Vorhersage kann diese Stunden nicht bewerten' },
  horizon: { en: 'it lies past the end of the forecast', de: 'es liegt hinter dem Ende der Vorhersage' },
};

/** What bars a step, as a noun for the status's list ("rain 12 h, quiet hours 8 h"). */
export const BAR_NOUN: Readonly<Record<StepBar, PlanText>> = {
  rain: { en: 'rain', de: 'Regen' },
  quiet: { en: 'quiet hours', de: 'Ruhezeit' },
  frost: { en: 'frost on the blades', de: 'Frost auf den Halmen' },
  block: { en: 'BLOCK', de: 'BLOCK' },
  warning: { en: 'WARNING (taken only past the debt threshold)', de: 'WARNING (erst ab der Rückstandsschwelle genommen)' },
  wet_blades: { en: 'wet blades', de: 'nasse Halme' },
  unrated: { en: 'unrated hours', de: 'nicht bewertbare Stunden' },
  horizon: { en: 'past the forecast', de: 'hinter der Vorhersage' },
};

export function joinText(...parts: PlanText[]): PlanText {
  return { en: parts.map((part) => part.en).join(' '), de: parts.map((part) => part.de).join(' ') };
}

/** Why this slot was chosen. */
export function slotReason(kind: 'driest' | 'debt' | 'relaxed', minIndex: number, rainNearMm: number): PlanText {
  const rainEn =
    rainNearMm > 0 ? `${round1(rainNearMm)} mm of rain expected within 3 h around it` : 'no rain expected within 3 h around it';
  const rainDe =
    rainNearMm > 0
      ? `${round1(rainNearMm).replace('.', ',')} mm Regen in 3 h davor und danach erwartet`
      : 'kein Regen in 3 h davor und danach erwartet';
  if (kind === 'relaxed') {
    return {
      en: `Mowing debt: a WARNING slot (index ${minIndex}) with dry blades, rather than another day without cutting; ${rainEn}.`,
      de: `Mährückstand: ein WARNING-Zeitfenster (Index ${minIndex}) mit trockenen Halmen statt eines weiteren Tages ohne Schnitt; ${rainDe}.`,
    };
  }
  if (kind === 'debt') {
    return {
      en: `Mowing debt: the first safe slot within a day (index ${minIndex}); ${rainEn}.`,
      de: `Mährückstand: das erste sichere Zeitfenster innerhalb eines Tages (Index ${minIndex}); ${rainDe}.`,
    };
  }
  return {
    en: `The driest, safest time left (index at least ${minIndex}); ${rainEn}.`,
    de: `Die trockenste, sicherste verbleibende Zeit (Index mindestens ${minIndex}); ${rainDe}.`,
  };
}

function round1(value: number): string {
  return (Math.round(value * 10) / 10).toFixed(1);
}
