/** Pure topic helpers: validation, wildcard matching, our bridge's and stations' command topics. */

import { STATION_COMMANDS } from '../config/mqttValues.js';

export function hasWildcard(topic: string): boolean {
  return topic.includes('+') || topic.includes('#');
}

/** MQTT topic filter matching (+ one level, # the rest). `$` topics never match a leading wildcard. */
export function topicMatches(filter: string, topic: string): boolean {
  if (topic.startsWith('$') && (filter.startsWith('+') || filter.startsWith('#'))) return false;
  const filterLevels = filter.split('/');
  const topicLevels = topic.split('/');
  for (let i = 0; i < filterLevels.length; i++) {
    const level = filterLevels[i];
    if (level === '#') return true;
    if (i >= topicLevels.length) return false;
    if (level !== '+' && level !== topicLevels[i]) return false;
  }
  return filterLevels.length === topicLevels.length;
}

/**
 * Why a topic name or filter is unacceptable as text, else undefined. MQTT 3.1.1 §1.5.3 requires
 * well-formed UTF-8 without U+0000 and lets a receiver refuse control characters and
 * noncharacters; Mosquitto's client library refuses all of these on receipt, so a retained
 * message on such a topic would make `mosquitto_sub` disconnect and reconnect forever. mqtt-packet
 * decodes ill-formed bytes to U+FFFD, so that character stands for invalid UTF-8 (a literally
 * encoded U+FFFD is refused too: the two cannot be told apart after decoding).
 */
export function topicTextProblem(topic: string): string | undefined {
  if (topic.includes('\uFFFD')) return 'topic is not valid UTF-8';
  if (topic.includes('\u0000')) return 'topic contains U+0000';
  if (/\p{Cc}/u.test(topic)) return 'topic contains a control character';
  if (/\p{Noncharacter_Code_Point}/u.test(topic)) return 'topic contains a Unicode noncharacter';
  return undefined;
}

/** Whether `topic` has the shape of a station command topic (three levels, the last a command). */
export function isStationCommandTopic(topic: string): boolean {
  const levels = topic.split('/');
  return levels.length === 3 && levels[1] !== '' && STATION_COMMANDS.includes(levels[2]!);
}
