/**
 * A CLI run without the service's secrets (by hand, as a user who cannot read the service's
 * credentials or environment file; the admin wrapper passes them on). A broker on all interfaces
 * needs accounts, yet key management needs no secret: it must still work. `serve` and `config`
 * keep checking the whole configuration.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_CONFIG } from '../../src/util/exitCodes.js';
import { useCliTempDir } from '../helpers/httpCli.js';
// The commands' modules load here, at collection: `runCli` imports a command lazily, and the first
// import transforms the CLI's whole module graph (configuration, store, sqlite3): 5-15 s at load 13,
// which the first test's 20 s used to pay. Each command itself runs in < 0.1 s.
import '../../src/cli/commands/keys.js';
import '../../src/cli/commands/maintenance.js';
import '../../src/cli/commands/status.js';
import '../../src/cli/commands/config.js';
import '../../src/cli/commands/serve.js';

describe("admin commands without the service's secrets", () => {
  // The README's unit: a broker for the LAN, its accounts in a credential this process cannot read.
  const { cli } = useCliTempDir(() => ({ MOWABILITY_BROKER_ENABLED: 'true', MOWABILITY_BROKER_HOST: '0.0.0.0' }));

  it('keys add, keys list, maintenance and status work', async () => {
    const added = await cli('keys', 'add', 'alice');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Created API key 1 for alice.');
    expect((await cli('keys', 'list')).stdout).toContain('alice');
    expect((await cli('maintenance', 'on')).code).toBe(0);
    expect((await cli('status')).code).toBe(0);
  });

  it('config and serve still refuse the configuration, naming broker.users', async () => {
    for (const command of ['config', 'serve']) {
      const result = await cli(command);
      expect(result.code, command).toBe(EXIT_CONFIG);
      expect(result.stderr).toContain('"broker.users" must list at least one username/password');
    }
  });
});
