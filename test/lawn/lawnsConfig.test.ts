/** A station's `lawns` (the lawns module's key): every mistake names the station, the key and the fix; a config without it is unchanged. */
import { describe, expect, it } from 'vitest';
import { stationUnitConfigs } from '../../src/daemon.js';
import { unitStationKeys } from '../../src/config/unitSettings.js';
import { stationsProblems as problemsOf } from '../../src/ingest/stationConfig.js';
import { stationLawns } from '../../src/lawn/lawnsConfig.js';

const stationsProblems = (stations: unknown) => problemsOf(stations, unitStationKeys(stationUnitConfigs()));
const station = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };

describe('station lawns', () => {
  it("a station without lawns has one lawn named after it; with lawns, the first is the mower block's", () => {
    expect(stationsProblems([station])).toEqual([]);
    expect(stationLawns(station)).toEqual([{ id: 'garden', name: 'Garden', primary: true }]);
    const lawns = [
      { id: 'front', areaM2: 300, capacityM2PerHour: 100 },
      { id: 'back', name: 'Back lawn', targetHeightMm: 50, lawn: { soilType: 'clay' } },
    ];
    expect(stationsProblems([{ ...station, lawns }])).toEqual([]);
    expect(stationLawns({ ...station, lawns } as never)).toEqual([
      { id: 'front', name: 'front', areaM2: 300, capacityM2PerHour: 100, primary: true },
      { id: 'back', name: 'Back lawn', targetHeightMm: 50, lawn: { soilType: 'clay' }, primary: false },
    ]);
  });

  it.each([
    [
      'not a list',
      { id: 'x' },
      'stations[0] ("garden").lawns must be a list of 1 to 16 lawns [{"id": "front"}, {"id": "back", "areaM2": 300}]',
    ],
    ['an empty list', [], 'stations[0] ("garden").lawns must be a list of 1 to 16 lawns [{"id": "front"}, {"id": "back", "areaM2": 300}]'],
    [
      'an id with capitals',
      [{ id: 'Back' }],
      'stations[0] ("garden").lawns[0].id must be 1 to 32 lower-case letters, digits, "_" or "-", starting with a letter or digit (it becomes an MQTT topic level)',
    ],
    [
      'an unknown key',
      [{ id: 'back', pump: {} }],
      'stations[0] ("garden").lawns[0].pump is not allowed (only id, name, areaM2, capacityM2PerHour, targetHeightMm, lawn, mower)',
    ],
    [
      'an area of 0',
      [{ id: 'back', areaM2: 0 }],
      'stations[0] ("garden").lawns[0].areaM2 must be a number from 1 to 1000000 (the mown area in m², e.g. 600)',
    ],
    [
      'a height in cm',
      [{ id: 'back', targetHeightMm: 4 }],
      'stations[0] ("garden").lawns[0].targetHeightMm must be a number from 10 to 150 (the height the lawn is kept at in mm, e.g. 40)',
    ],
    ['a wrong soil', [{ id: 'back', lawn: { soilType: 'peat' } }], 'stations[0] ("garden").lawns[0].lawn.soilType must be one of'],
    [
      "a further lawn's mower without a topic or a control",
      [{ id: 'front' }, { id: 'back', mower: { key: 'state' } }],
      'stations[0] ("garden").lawns[1].mower.topic is required',
    ],
    [
      "a further lawn's mower control of an unknown kind",
      [{ id: 'front' }, { id: 'back', mower: { control: { enabled: true, kind: 'robot' } } }],
      'stations[0] ("garden").lawns[1].mower.control.kind must be one of homeassistant, openmower, mqtt',
    ],
    [
      "a further lawn's mower control naming another lawn",
      [{ id: 'front' }, { id: 'back', mower: { control: { kind: 'openmower', openmower: { prefix: 'om' }, lawn: 'front' } } }],
      'stations[0] ("garden").lawns[1].mower.control.lawn is not allowed in a lawn\'s own mower block',
    ],
    [
      'two ids that Home Assistant would spell alike',
      [{ id: 'back-lawn' }, { id: 'back_lawn' }],
      'stations[0] ("garden").lawns[1].id "back_lawn" and "back-lawn" give the same Home Assistant entity ids ("-" becomes "_"); rename one of them',
    ],
  ])('refuses %s with the key and the fix', (_name, lawns, message) => {
    const problems = stationsProblems([{ ...station, lawns }]);
    expect(
      problems.some((problem) => problem.startsWith(message)),
      problems.join('\n'),
    ).toBe(true);
  });

  it("refuses a first lawn with a mower block of its own besides the station's, naming the setting and the fix", () => {
    const mower = { topic: 'robbi/state' };
    expect(stationsProblems([{ ...station, mower, lawns: [{ id: 'front', mower }, { id: 'back' }] }])).toEqual([
      'stations[0] ("garden").lawns[0].mower is set, but the station\'s mower block already belongs to its first lawn: keep one of them (move the station\'s mower into lawns[0].mower, or remove lawns[0].mower)',
    ]);
    // Either alone is the first lawn's mower; a further lawn's own is its own.
    expect(stationsProblems([{ ...station, mower, lawns: [{ id: 'front' }, { id: 'back', mower: { topic: 'back/state' } }] }])).toEqual([]);
    expect(stationsProblems([{ ...station, lawns: [{ id: 'front', mower }, { id: 'back' }] }])).toEqual([]);
    const control = { enabled: true, kind: 'openmower', openmower: { prefix: 'om-back' } };
    expect(stationsProblems([{ ...station, mower, lawns: [{ id: 'front' }, { id: 'back', mower: { control } }] }])).toEqual([]);
  });

  it('refuses a lawn id another station or lawn uses (they share the topic level <base>/<id>/)', () => {
    expect(
      stationsProblems([
        { ...station, lawns: [{ id: 'front' }] },
        { ...station, id: 'front' },
      ]),
    ).toEqual([
      'stations[0] ("garden").lawns: the lawn id "front" is a station\'s id; lawns and stations share the topic level <base>/<id>/, choose another id',
    ]);
    expect(
      stationsProblems([
        { ...station, lawns: [{ id: 'back' }] },
        { ...station, id: 'b', lawns: [{ id: 'back' }] },
      ]),
    ).toEqual([
      'stations[1] ("b").lawns: the lawn id "back" is used by another lawn (stations[0] ("garden").lawns); lawn ids must be unique across all stations',
    ]);
    expect(stationsProblems([{ ...station, lawns: [{ id: 'garden' }, { id: 'back' }] }])).toEqual([]);
  });
});
