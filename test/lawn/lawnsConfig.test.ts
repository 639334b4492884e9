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
      [{ id: 'back', mower: {} }],
      'stations[0] ("garden").lawns[0].mower is not allowed (only id, name, areaM2, capacityM2PerHour, targetHeightMm, lawn)',
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
