/** Help texts. Exit codes and common options are the same for every command. */
const COMMON = `Common options:
  --config FILE      JSON configuration file (or MOWABILITY_CONFIG)
  --<setting> VALUE  any setting flag from "mowability config --help", e.g. --db-path, --http-port
  -h, --help         show help

Exit codes: 0 ok, 1 failure, 2 usage error, 78 configuration error.`;

export const HELP = {
  main: `Usage: mowability <command> [options]

Commands:
  serve              run the daemon (HTTP API; same as "npm start")
  addon              run the daemon as the Home Assistant add-on (the add-on image starts it)
  keys               manage API keys (add, list, disable, enable, allow-get, deny-get, remove, rotate, usage, quota, expire)
  registrations      review key requests of a public service (list, approve, reject, purge)
  ip                 block or unblock client addresses (block, unblock, list)
  maintenance        switch maintenance mode (on, off, status)
  mowed              record that a station's lawn was cut (lawn memory)
  mower              a station's mower control: today's and the last runs
  calc               calculate the mowability index locally, without a server
  config             print the effective configuration (secrets redacted)
  status             what the daemon sees: stations, last readings, mowable, history
  health             exit 0 if the running daemon and every part it needs are up (HEALTHCHECK)
  upload-secret      print a station's "upload" line for a PASSKEY or WU password
  --version          print the version

Run "mowability <command> --help" for details.

${COMMON}`,
  serve: `Usage: mowability serve [options]

Starts the daemon on the configured address (default 0.0.0.0:8080) with the
database at db.path (default ./data/mowability.db). SIGTERM or SIGINT stops it
gracefully (in-flight requests finish; forced exit after 5 seconds).

${COMMON}`,
  addon: `Usage: mowability addon

Runs the daemon inside the Home Assistant add-on (homeassistant-addon/mowability/DOCS.md): reads
the options from /data/options.json, asks the Supervisor (SUPERVISOR_TOKEN) for the MQTT broker
(/services/mqtt) and Home Assistant's home location, time zone and units (/core/api/config), and
serves the status page through ingress. For tests and development only: MOWABILITY_SUPERVISOR_URL
replaces http://supervisor and MOWABILITY_ADDON_DATA replaces /data.

Exit codes: 0 ok, 1 failure (the Supervisor unreachable), 78 configuration error (a bad option).`,
  keys: `Usage: mowability keys <subcommand> [options]

Subcommands:
  add OWNER [--allow-get] [--note TEXT] [--json]
                     create a key; it is printed once and only its SHA-256 is stored
  list [--json]      list keys (never shows the keys themselves)
  disable ID         refuse the key (403 "API key is disabled.")
  enable ID          accept the key again
  allow-get ID       allow GET /v1/calculate for the key
  deny-get ID        restrict the key to POST (the default)
  remove ID          delete the key
  rotate ID [--json] create a new key for the same owner; the old one works for
                     keys.rotationGraceDays more days, then gets "Invalid API key."
  usage ID [--days N] [--json]
                     requests per day (default: the last 30 days) and the last use
  quota ID N|default requests per day for this key (0: unlimited; default: keys.dailyQuota)
  expire ID DATE|never
                     the key stops working at DATE (ISO 8601)

A running daemon picks up changes within about a second. Usage counts reach the
database every keys.usageFlushSeconds.

${COMMON}`,
  registrations: `Usage: mowability registrations <subcommand> [options]

Subcommands:
  list [--pending] [--json]        list registrations (name, e-mail, intended use)
  approve ID [--allow-get] [--note TEXT]
                                   create the registrant's key; they collect it once
                                   with their claim token
  reject ID [--reason TEXT]        refuse; the registrant sees the reason when they claim
  purge --older-than DAYS          delete rejected, claimed and expired registrations
                                   created more than DAYS days ago

Registrations arrive at POST /v1/registrations when registration.enabled is on.

${COMMON}`,
  ip: `Usage: mowability ip <subcommand> [options]

Subcommands:
  block ADDR|CIDR [--note TEXT]   refuse requests from an address or range (IPv4 or IPv6)
  unblock ADDR|CIDR               remove a block
  list [--json]                   list blocked addresses and ranges

Blocked clients get 403 "Access denied." on every path. A running daemon picks
up changes within about a second.

${COMMON}`,
  maintenance: `Usage: mowability maintenance on|off|status [--json]

on      health answers 503 "maintenance", calculate answers 503
off     normal operation
status  print whether maintenance mode is active

${COMMON}`,
  mowed: `Usage: mowability mowed STATION [--lawn ID] [--at TIME] [--json]

Records that the lawn of STATION (with --lawn, its lawn ID of "lawns") was cut,
now or at TIME (ISO 8601 with an offset such as 2026-06-15T10:00:00+02:00, or
Unix seconds), in the daemon's database. Growth since the last cut and mow need start from there; a running
daemon picks it up within lawnMemory.pollSeconds (default 5 s). TIME may not
lie in the future or more than 14 days back.

${COMMON}`,
  mower: `Usage: mowability mower STATION [--lawn ID] [--json]

Prints the mower control's run ledger of STATION (docs/mower.md): whether the
control is on or a dry run, today's runs and the last ones, each with who
started it, its minutes mowing, its outcome and the reason, from the daemon's
database. --lawn ID: a further lawn of STATION with a mower of its own
(lawns[].mower.control); without it the station's first lawn.

${COMMON}`,
  calc: `Usage: mowability calc --temperature C --precipitation_rate MM_H [--<field> VALUE ...] [--season S]

Prints the calculation result as JSON, computed locally with the configured
time zone, hemisphere and lawn profile. Fields: temperature, precipitation_rate,
humidity, wind_speed, wind_gusts, dew_point, solar, soil_temperature,
soil_moisture, rain_1h, rain_12h, rain_24h, rain_14d, minutes_since_rain,
min_temp_3h, min_temp_3d, min_temp_14d. --season spring|summer|autumn|winter
forces the season (season_source "manual").

${COMMON}`,
  status: `Usage: mowability status [--json]

Prints what the daemon sees. It asks the running daemon first (GET
/v1/stations on http.host/http.port, over loopback for 0.0.0.0): index,
mowable and last reading as computed now. When the daemon does not answer it
reads the database (the same db.path, so pass the same --config /
MOWABILITY_DB_PATH) and says how old it is: the daemon writes it every
history.flushIntervalSeconds. Each station shows its latest values, the stored
mowable flag and how much history is kept. Without --config the stations are
the daemon's (or the database's). Without a database (the daemon never ran
with this path) it says so and exits 0.

${COMMON}`,
  health: `Usage: mowability health

Asks the running daemon's GET /health (on http.host/http.port, over loopback
for 0.0.0.0; pass the same --config / MOWABILITY_HTTP_PORT as the daemon) and
exits 0 when its status is ok or maintenance and checks.mqtt is neither "error"
nor "starting", else 1 with the failing checks on standard error. Unlike
/health, which answers 200 for the HTTP API, it also fails while the MQTT side
is down. The container image's HEALTHCHECK runs it.

${COMMON}`,
  'upload-secret': `Usage: mowability upload-secret ecowitt [--json]
       mowability upload-secret ambient [--json]
       mowability upload-secret wunderground STATION_ID [--json]

Reads the secret from standard input (or MOWABILITY_UPLOAD_SECRET), never
from the command line, and prints the station's "upload" line holding only
its SHA-256: the Ecowitt gateway's PASSKEY, the Ambient console's PASSKEY
(its MAC address, e.g. 00:0E:C6:AA:BB:CC, any spelling; the station's
format is "ecowitt-http"), or the Weather Underground station's PASSWORD.
Example:
  read -rs S; printf %s "$S" | mowability upload-secret wunderground KXXTEST1
A gateway with an unknown PASSKEY is logged with the line to paste.

${COMMON}`,
  config: `Usage: mowability config [options]

Prints the effective configuration as JSON (defaults, file, environment and
flags applied), with sensitive settings shown as "[Sensitive]". A home install's
view: the public service's settings (keys, registration, store, rate limit,
proxies; docs/configuration.md "Public service") are left out, and a line on
stderr says so.

  --public                      only the public service's settings
  --all                         every setting

Setting flags:
@SETTINGS@

${COMMON}`,
} satisfies Record<string, string>;
