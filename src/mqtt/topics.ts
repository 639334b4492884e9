/** Pure topic helpers: validation, wildcard matching, ids safe for HA. */

/** Convict format for topic prefixes we publish under: no wildcards, no empty levels. */
export function validateTopicPrefix(value: unknown): void {
  if (typeof value !== 'string' || value === '') throw new Error('must be a non-empty MQTT topic');
  if (/[+#\u0000]/.test(value)) throw new Error('must not contain the wildcards + or # (we publish under it)');
  if (value.startsWith('/') || value.endsWith('/') || value.includes('//')) throw new Error('must not start or end with "/" or contain empty levels');
  if (value.startsWith('$')) throw new Error('must not start with "$" (reserved for the broker)');
}

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

/** `[a-zA-Z0-9_-]` only, for unique ids and discovery object ids. */
export function safeId(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_');
}
