import { describe, expect, it } from 'vitest';
import { stationsProblems } from '../../src/ingest/stationConfig.js';
import { uploadRelayTopic, withUploadTopics } from '../../src/ingest/uploadStations.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';

const DIGEST = 'a'.repeat(64);
const ecowitt = { id: 'gw', name: 'Gateway', format: 'ecowitt-http', upload: { passkeySha256: DIGEST } };
const wu = { id: 'pws', name: 'PWS', format: 'wunderground', upload: { stationId: 'KXXTEST1', passwordSha256: 'b'.repeat(64) } };

describe('upload stations in the configuration', () => {
  it('accepts upload stations without an MQTT topic, and with one', () => {
    expect(
      stationsProblems([ecowitt, wu, { ...ecowitt, id: 'gw2', upload: { passkeySha256: 'c'.repeat(64) }, topic: 'relay/gw2' }]),
    ).toEqual([]);
  });

  it('gives them a relay topic outside mqtt.baseTopic and leaves a configured one alone', () => {
    const stations = withUploadTopics([
      ecowitt,
      { ...wu, topic: 'relay/pws' },
      { id: 'r', name: 'R', format: 'rtl_433', topic: 'rtl_433/events' },
    ] as StationConfig[]);
    expect(stations.map((station) => station.topic)).toEqual([uploadRelayTopic('gw'), 'relay/pws', 'rtl_433/events']);
    expect(uploadRelayTopic('gw')).toBe('mowability-upload/gw');
  });

  it('requires the upload block, naming the key and the command that prints it', () => {
    expect(stationsProblems([{ ...ecowitt, upload: undefined }])).toEqual([
      'stations[0] ("gw").upload is required for format "ecowitt-http": {"passkeySha256": "..."}; run "mowability upload-secret" and paste the line it prints',
    ]);
    expect(stationsProblems([{ ...wu, upload: { stationId: 'KXXTEST1' } }])).toEqual([
      'stations[0] ("pws").upload.passwordSha256 must be a SHA-256 digest (64 lowercase hex digits), not the secret itself; run "mowability upload-secret" and paste the line it prints',
    ]);
  });

  it('an upload block of the other protocol names the format it needs: an Ambient PASSKEY on a wunderground station, a WU password on an ecowitt-http one', () => {
    expect(stationsProblems([{ ...wu, id: 'amb', upload: { passkeySha256: DIGEST } }])).toEqual([
      'stations[0] ("amb").upload.passkeySha256 is not used by format "wunderground": a PASSKEY (an Ecowitt gateway, or an Ambient console\'s MAC) is matched by format "ecowitt-http": ' +
        'set this station\'s "format" to "ecowitt-http" and keep "upload": {"passkeySha256": "..."}; it takes the console\'s uploads on either path, http.ecowittUploadPath and ' +
        '/weatherstation/updateweatherstation.php ("mowability upload-secret ambient" prints the line for an Ambient MAC)',
    ]);
    expect(stationsProblems([{ ...ecowitt, upload: { stationId: 'KXXTEST1', passwordSha256: DIGEST } }])).toEqual([
      expect.stringMatching(
        /^stations\[0\] \("gw"\)\.upload\.passwordSha256 is not used by format "ecowitt-http": .*set this station's "format" to "wunderground"/,
      ),
    ]);
    // The fix it names works: the same upload block under format "ecowitt-http" is valid.
    expect(stationsProblems([{ ...wu, id: 'amb', format: 'ecowitt-http', upload: { passkeySha256: DIGEST } }])).toEqual([]);
  });

  it('refuses a plain secret, unknown keys, a bad station ID and an upload block on an MQTT station', () => {
    const problems = stationsProblems([
      { ...ecowitt, upload: { passkeySha256: '0123456789ABCDEF0123456789ABCDEF' } },
      { ...wu, upload: { stationId: 'has space', passwordSha256: 'b'.repeat(64), passkeySha256: DIGEST } },
      { id: 'r', name: 'R', format: 'rtl_433', topic: 't', upload: { passkeySha256: DIGEST } },
      { id: 'n', name: 'N', format: 'rtl_433' },
    ]);
    expect(problems).toContain(
      'stations[0] ("gw").upload.passkeySha256 must be a SHA-256 digest (64 lowercase hex digits), not the secret itself; run "mowability upload-secret" and paste the line it prints',
    );
    expect(problems).toContain(
      'stations[1] ("pws").upload.passkeySha256 is not allowed for format "wunderground" (only stationId, passwordSha256)',
    );
    expect(problems).toContain(
      'stations[1] ("pws").upload.stationId must be the station ID the station sends as "ID" (1 to 64 printable characters)',
    );
    expect(problems).toContain('stations[2] ("r").upload is only used by the formats "ecowitt-http" and "wunderground"');
    expect(problems).toContain('stations[3] ("n").topic must be an MQTT topic (wildcards + and # allowed)');
    expect(problems).toHaveLength(5);
  });

  it('refuses two stations that an upload could not tell apart', () => {
    expect(stationsProblems([ecowitt, { ...ecowitt, id: 'gw2' }, wu, { ...wu, id: 'pws2' }])).toEqual([
      "stations[1].upload.passkeySha256 is the same as stations[0]'s; each uploading station needs its own",
      "stations[3].upload.stationId is the same as stations[2]'s; each uploading station needs its own",
    ]);
  });

  it('checks http.ecowittUploadPath, naming the setting', () => {
    const load = (path: string) => () =>
      loadConfig({ env: { MOWABILITY_DB_PATH: '/tmp/unused.db', MOWABILITY_HTTP_ECOWITT_UPLOAD_PATH: path } });
    expect(load('/v1/report')).toThrow(ConfigError);
    expect(load('/v1/report')).toThrow(/"http\.ecowittUploadPath" = "\/v1\/report" is invalid: must not lie under the API's own paths/);
    expect(load('data/report')).toThrow(/"http\.ecowittUploadPath" = "data\/report" is invalid: must be "" or a path/);
    expect(load('/a//b')).toThrow(/http\.ecowittUploadPath/);
    expect(load('/gw/report').call(null).http.ecowittUploadPath).toBe('/gw/report');
  });
});
