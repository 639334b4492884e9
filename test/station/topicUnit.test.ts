/** The helper for units fed by a topic: pure parsing and the size cap, counting and refusals, the station key's problems. */
import { describe, expect, it } from 'vitest';
import { parseTopicPayload, readTopicMessage, topicStationKey, TopicSubscriptions, type TopicFeed } from '../../src/station/topicUnit.js';
import type { UnitSubscriber } from '../../src/station/unit.js';
import type { LogThrottle } from '../../src/util/logThrottle.js';

const FEED: TopicFeed<number> = {
  name: 'level',
  maxPayloadBytes: 16,
  defaultKey: 'state',
  fromValue: (value) => (typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined),
  expected: (key) => `a whole number or a JSON object with "${key}" holding one`,
};

function recordingThrottle(): LogThrottle & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (_key: string, _fields: object, message: string) => void lines.push(message) } as unknown as LogThrottle & {
    lines: string[];
  };
}

describe('parseTopicPayload / readTopicMessage', () => {
  it('reads a bare value or the JSON key, and nothing else', () => {
    expect(parseTopicPayload(FEED, ' 12 ', 'state')).toBe(12);
    expect(parseTopicPayload(FEED, '{"state": 7}', 'state')).toBe(7);
    expect(parseTopicPayload(FEED, '{"level": 7}', 'level')).toBe(7);
    expect(parseTopicPayload(FEED, '{"other": 7}', 'state')).toBeUndefined();
    expect(parseTopicPayload(FEED, '{"state": 7', 'state')).toBeUndefined();
    expect(parseTopicPayload(FEED, '[7]', 'state')).toBeUndefined();
    expect(parseTopicPayload(FEED, 'high', 'state')).toBeUndefined();
  });

  it('refuses a payload over the cap unread', () => {
    expect(readTopicMessage(FEED, Buffer.from('1'.repeat(16)), 'state')).toBe(Number('1'.repeat(16)));
    expect(readTopicMessage(FEED, Buffer.from('1'.repeat(17)), 'state')).toBeUndefined();
  });
});

describe('TopicSubscriptions', () => {
  it("subscribes each station, counts, logs a refusal with the feed's words, and asks a recompute only when the unit says so", () => {
    const throttle = recordingThrottle();
    const reports: string[] = [];
    const topics = new TopicSubscriptions(
      FEED,
      [
        { id: 'a', name: 'A', settings: { topic: 'a/level' } },
        { id: 'b', name: 'B', settings: { topic: 'b/level', key: 'v' } },
      ],
      throttle,
      (station, topic, report, retained) => {
        reports.push(`${station} ${topic} ${report} ${retained}`);
        return report > 5;
      },
    );
    const handlers = new Map<string, (topic: string, payload: Buffer, retained: boolean) => void>();
    const connection: UnitSubscriber = { subscribe: (filter, handler) => void handlers.set(filter, handler) };
    const recomputed: string[] = [];
    topics.subscribe(connection, (station) => recomputed.push(station));
    expect([...handlers.keys()]).toEqual(['a/level', 'b/level']);
    handlers.get('a/level')!('a/level', Buffer.from('9'), false);
    handlers.get('a/level')!('a/level', Buffer.from('3'), true);
    handlers.get('b/level')!('b/level', Buffer.from('{"v": 8}'), false);
    handlers.get('b/level')!('b/level', Buffer.from('{"state": 8}'), false);
    expect(reports).toEqual(['a a/level 9 false', 'a a/level 3 true', 'b b/level 8 false']);
    expect(recomputed).toEqual(['a', 'b']);
    expect(topics.counters).toEqual({ levelReceived: 4, levelAccepted: 3, levelRejected: 1 });
    expect(throttle.lines).toEqual(['level payload ignored: expected a whole number or a JSON object with "v" holding one']);
    expect(topics.handle('unknown', 'x', Buffer.from('1'), false)).toBe(false);
    expect(topics.counters.levelReceived).toBe(4);
  });
});

describe('topicStationKey', () => {
  const problemsOf = (value: unknown, wildcards: boolean) => {
    const found: string[] = [];
    topicStationKey({
      key: 'level',
      exampleKey: 'state',
      topicDoes: 'reports the level',
      topicRequired: 'the MQTT topic reporting the level',
      keyHolds: 'the level',
      wildcards,
    }).problems(value, (key, message) => found.push(`${key} ${message}`), {});
    return found;
  };

  it('names each problem with the full key and the fix', () => {
    expect(problemsOf({ topic: 'garden/level' }, false)).toEqual([]);
    expect(problemsOf('garden/level', false)).toEqual([
      'level must be an object {"topic": "...", "key": "state"} naming the MQTT topic that reports the level',
    ]);
    expect(problemsOf({ topic: 'garden/+', extra: 1, key: '' }, false)).toEqual([
      'level.extra is not allowed (only topic and key)',
      'level.topic must be a concrete topic (no wildcards): one station, one level value',
      'level.key must be a non-empty JSON key (the payload key holding the level in JSON payloads)',
    ]);
    expect(problemsOf({ topic: 'garden/+' }, true)).toEqual([]);
    expect(problemsOf({}, true)).toEqual(['level.topic is required: the MQTT topic reporting the level']);
  });
});
