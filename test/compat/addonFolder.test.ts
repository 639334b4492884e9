/**
 * The Home Assistant add-on folder's static facts, in seconds on every test run (building and
 * running it is scripts/container-test.sh's step 5): config.yaml has the keys the add-on needs, its
 * version is the package's, its options are exactly the ones the add-on start reads with the same
 * defaults, every option has a schema entry and an English and German translation, build.yaml names
 * a base per architecture and selects the Dockerfile's add-on stage, and the icon and logo are PNGs
 * of the sizes Home Assistant asks for.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ADDON_HTTP_PORT, ADDON_OPTION_DEFAULTS } from '../../src/cli/addon/addonOptions.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADDON = `${ROOT}homeassistant-addon/mowability/`;
const yaml = (path: string) => parse(readFileSync(path, 'utf8'), { strict: true }) as Record<string, unknown>;
const config = yaml(`${ADDON}config.yaml`);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(path: string): [number, number] {
  const bytes = readFileSync(path);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('the Home Assistant add-on folder', () => {
  it('declares the MQTT service, the Home Assistant API, ingress on the port the add-on listens on and the watchdog on /health', () => {
    expect(yaml(`${ROOT}homeassistant-addon/repository.yaml`).name).toEqual(expect.any(String));
    expect(config).toMatchObject({
      slug: 'mowability',
      version: (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string }).version,
      arch: ['amd64', 'aarch64', 'armv7'],
      services: ['mqtt:need'],
      homeassistant_api: true,
      ingress: true,
      ingress_port: ADDON_HTTP_PORT,
      panel_icon: expect.stringMatching(/^mdi:/),
      watchdog: `http://[HOST]:[PORT:${ADDON_HTTP_PORT}]/health`,
      ports: { [`${ADDON_HTTP_PORT}/tcp`]: null },
    });
  });

  it('has exactly the options the add-on start reads, with its defaults, each in the schema and translated', () => {
    expect(config.options).toEqual(ADDON_OPTION_DEFAULTS);
    expect(Object.keys(config.schema as object).sort()).toEqual(Object.keys(ADDON_OPTION_DEFAULTS).sort());
    for (const language of ['en', 'de']) {
      const translated = yaml(`${ADDON}translations/${language}.yaml`).configuration as Record<
        string,
        { name: string; description: string }
      >;
      expect(Object.keys(translated).sort(), language).toEqual(Object.keys(ADDON_OPTION_DEFAULTS).sort());
      for (const [key, text] of Object.entries(translated)) expect(text.name && text.description, `${language} ${key}`).toBeTruthy();
    }
  });

  it("build.yaml names a base for every architecture and the Dockerfile's add-on stage", () => {
    const build = yaml(`${ADDON}build.yaml`) as { build_from: Record<string, string>; args: Record<string, string> };
    expect(Object.keys(build.build_from).sort()).toEqual([...(config.arch as string[])].sort());
    const dockerfile = readFileSync(`${ROOT}Dockerfile`, 'utf8');
    const nodeBase = /^ARG BUILD_FROM=node:(\S+)$/m.exec(dockerfile)![1];
    for (const base of Object.values(build.build_from)) expect(base.endsWith(`/node:${nodeBase}`), base).toBe(true);
    expect(dockerfile).toContain(`AS ${build.args.IMAGE_KIND}\n`);
    expect(dockerfile).toMatch(/^FROM \$\{IMAGE_KIND:-container\}$/m);
  });

  it('has an icon of 128×128 and a logo of about 250×100', () => {
    expect(pngSize(`${ADDON}icon.png`)).toEqual([128, 128]);
    expect(pngSize(`${ADDON}logo.png`)).toEqual([250, 100]);
  });
});
