/**
 * Dependency rules (dependency-cruiser, https://github.com/sverweij/dependency-cruiser).
 * test/architecture/dependencies.test.ts runs them; `npx depcruise src bench` shows the same.
 *
 * Layers, lowest first. A module may import its own layer and any layer below it, never one
 * above: the pure core knows nothing of the daemon, the adapters nothing of the composition root.
 * `import type` counts (tsPreCompilationDeps), so a type-only cycle or upward import fails too.
 */
const LAYERS = [
  { name: 'core', paths: ['src/core/'] },
  { name: 'util', paths: ['src/util/'] },
  // Readings, their history, the tables, and the weather model's client (Open-Meteo): facts the
  // units share live here, never in one unit that the others import.
  { name: 'data', paths: ['src/ingest/', 'src/history/', 'src/store/', 'src/openmeteo/'] },
  // Home Assistant naming as data (entities, ids, discovery messages): the config's id-collision
  // rule needs it, the MQTT side publishes it.
  { name: 'homeassistant', paths: ['src/homeassistant/'] },
  { name: 'config', paths: ['src/config/'] },
  // The station side: readings → history → units → state, whatever transport brought them.
  // Its unit contract (unit.ts) and its facade for HTTP (facade.ts) are here.
  { name: 'station', paths: ['src/station/'] },
  // Station units: features that plug into the station side through its unit contract.
  { name: 'units', paths: ['src/forecast/', 'src/lawn/', 'src/modelled/', 'src/mower/', 'src/units/'] },
  // Transports and views: they feed the station side and show its results, never each other.
  { name: 'adapters', paths: ['src/http/', 'src/mqtt/'] },
  // The public service (keys for strangers: registration, quotas, PostgreSQL, Redis): its routes join
  // HTTP's /v1 scope, so it sits above http/; only the composition root and the CLI plug it in
  // (public-service-apart below), so a home install's path reads without it.
  { name: 'public service', paths: ['src/publicService/'] },
  // Prometheus metrics read the transports' and the station side's counters at scrape time; HTTP
  // serves them through the shape its /metrics plugin declares (src/http/metricsRoute.ts).
  { name: 'metrics', paths: ['src/metrics/'] },
  { name: 'composition root', paths: ['src/daemon[A-Za-z]*\\.ts$'] },
  // The process entry: parses argv and runs a command, one of which (serve) starts the daemon.
  { name: 'cli', paths: ['src/cli/'] },
];

/** The folders of station units: each plugs into the station side alone. */
const UNIT_FOLDERS = ['forecast', 'lawn', 'modelled', 'mower', 'units'];

/** Regex alternatives matching every path of the given layers. */
function pathsOf(layers) {
  return `^(${layers.flatMap((layer) => layer.paths).join('|')})`;
}

const upwardRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `no-upward-from-${layer.name.replace(/ /g, '-')}`,
  severity: 'error',
  comment: `${layer.name} (${layer.paths.join(', ')}) must not import a higher layer: ${LAYERS.slice(index + 1)
    .map((above) => above.name)
    .join(', ')}.`,
  from: { path: pathsOf([layer]) },
  to: { path: pathsOf(LAYERS.slice(index + 1)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle (type-only ones included) means two modules are one; move the shared part down.',
      from: { path: '^(src|bench)/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Two folders that import each other are one idea split in two; move the shared fact to the lower one (or pass it in).',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upwardRules,
    {
      name: 'units-apart',
      severity: 'error',
      comment:
        'A station unit imports no other unit: what two units share lives in a lower layer (src/openmeteo/, src/store/), ' +
        'and what one unit gives another is passed in by the composition root (src/daemon.ts).',
      from: { path: `^src/(${UNIT_FOLDERS.join('|')})/` },
      to: { path: `^src/(${UNIT_FOLDERS.join('|')})/`, pathNot: '^src/$1/' },
    },
    {
      name: 'transports-apart',
      severity: 'error',
      comment: 'HTTP and MQTT are two transports over the station side; what both need lives in a lower layer.',
      from: { path: '^src/(http|mqtt)/' },
      to: { path: '^src/(http|mqtt)/', pathNot: '^src/$1/' },
    },
    {
      name: 'public-service-apart',
      severity: 'error',
      comment:
        'Only the composition root (src/daemon*.ts) plugs in the public service (src/publicService/), for the daemon and the command line, ' +
        'so it can be deleted as one folder and a home install reads without it; it uses http/, store/, config/ and util/ only.',
      from: { path: '^src/', pathNot: '^src/(publicService/|daemon[A-Za-z]*\\.ts$)' },
      to: { path: '^src/publicService/' },
    },
    {
      name: 'public-service-scope',
      severity: 'error',
      comment:
        'The public service adds keys for strangers to HTTP: it imports http/, store/, config/ and util/, never the station side, a unit or MQTT.',
      from: { path: '^src/publicService/' },
      to: { path: '^src/', pathNot: '^src/(publicService|http|store|config|util|core)/' },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'src/core is pure: no Node built-ins, no npm packages (clock, I/O and config are parameters).',
      from: { path: '^src/core/' },
      to: { dependencyTypesNot: ['local', 'type-only'], pathNot: '^src/core/' },
    },
    {
      name: 'no-test-code-in-product',
      severity: 'error',
      comment: 'The product and the benchmarks stand without the test suite.',
      from: { path: '^(src|bench)/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-bench-code-in-product',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^bench/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve (a typo, a missing .js specifier target) is a broken build.',
      from: { path: '^(src|bench)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|dist-bench|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
