import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunLedger } from '../../src/mower/runLedger.js';
import { Database } from '../../src/store/database.js';
import { calendarDay } from '../../src/util/calendarDay.js';
import { useCliTempDir } from '../helpers/httpCli.js';
import { MowerRunStore } from '../../src/store/mowerRunStore.js';

const control = { enabled: true, kind: 'openmower', openmower: { prefix: 'openmower' } };
const station = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate' },
  mower: { control },
};

describe('mowability mower STATION', () => {
  const fixture = useCliTempDir((temp) => {
    const file = join(temp.dir, 'config.json');
    const lawns = [
      { id: 'garden' },
      { id: 'back', mower: { control: { ...control, openmower: { prefix: 'om-back' } } } },
      { id: 'orchard' },
    ];
    writeFileSync(
      file,
      JSON.stringify({
        stations: [
          { ...station, lawns },
          { ...station, id: 'front', mower: undefined },
        ],
      }),
    );
    return { MOWABILITY_CONFIG: file };
  });

  it("prints today's and the last runs from the ledger, or says there are none", async () => {
    const database = await Database.open(fixture.temp.dbPath);
    const nowMs = Date.now();
    const ledger = new RunLedger({ store: new MowerRunStore(database), lawn: 'garden', station: 'garden', timeZone: 'UTC' });
    await ledger.load(nowMs);
    await ledger.openRun('daemon', nowMs - 3 * 3_600_000);
    await ledger.closeRun(nowMs - 2 * 3_600_000, 58, 'completed', { en: 'the run is done', de: 'Der Lauf ist fertig' });
    await ledger.openRun('user', nowMs - 10 * 60_000);
    await database.close();

    const text = await fixture.cli('mower', 'garden');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Mower control of "garden" (lawn "garden", openmower): dry run (sends nothing)');
    expect(text.stdout).toMatch(/58 min mowing, started by daemon, completed: the run is done/);
    expect(text.stdout).toMatch(/still running, 0 min mowing, started by user, open/);
    // Today's runs counted by the configured zone's day (UTC here): the open one, and the finished one unless it began yesterday.
    const today = calendarDay(Date.now(), 'UTC');
    const todays = [nowMs - 3 * 3_600_000, nowMs - 10 * 60_000].filter((startMs) => calendarDay(startMs, 'UTC') === today).length;
    expect(text.stdout).toContain(`Today (${today}): ${todays} run(s)`);
    const json = await fixture.cli('mower', 'garden', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      station: 'garden',
      dry_run: true,
      runs: [
        { started_by: 'user', outcome: null },
        { started_by: 'daemon', outcome: 'completed', mowing_minutes: 58 },
      ],
    });
    expect(JSON.parse(json.stdout).today).toHaveLength(todays);
  });

  it("--lawn: a further lawn's own mower, its own ledger rows; a lawn without one or no lawn of the station is named", async () => {
    const database = await Database.open(fixture.temp.dbPath);
    const nowMs = Date.now();
    const ledger = new RunLedger({ store: new MowerRunStore(database), lawn: 'back', station: 'garden', timeZone: 'UTC' });
    await ledger.load(nowMs);
    await ledger.openRun('daemon', nowMs - 3 * 3_600_000);
    await ledger.closeRun(nowMs - 2 * 3_600_000, 47, 'docked_for_rain', { en: 'docking: it is raining', de: 'Parken: es regnet' });
    await database.close();
    const back = await fixture.cli('mower', 'garden', '--lawn', 'back');
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('Mower control of "garden" (lawn "back", openmower): dry run (sends nothing)');
    expect(back.stdout).toMatch(/47 min mowing, started by daemon, docked_for_rain: docking: it is raining/);
    const first = await fixture.cli('mower', 'garden', '--json');
    expect(JSON.parse(first.stdout)).toMatchObject({ lawn: 'garden', runs: [] });
    expect((await fixture.cli('mower', 'garden', '--lawn', 'orchard')).stderr).toContain(
      'the lawn "orchard" of "garden" has no mower.control block (lawns[].mower.control, docs/mower.md)',
    );
    expect((await fixture.cli('mower', 'garden', '--lawn', 'pond')).stderr).toContain(
      '--lawn: "pond" is not a lawn of "garden" (its lawns: garden, back, orchard)',
    );
  });

  it('names the problem for a station without control and an unknown one', async () => {
    await Database.open(fixture.temp.dbPath).then((db) => db.close());
    expect((await fixture.cli('mower', 'front')).stderr).toContain('station "front" has no mower.control block (docs/mower.md)');
    expect((await fixture.cli('mower', 'nowhere')).stderr).toContain('unknown station "nowhere"');
  });
});
