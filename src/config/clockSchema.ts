/** Settings of the clock handling (src/util/clockWatch.ts, docs/mqtt.md "Clock steps"). */
export const clockSchema = {
  clock: {
    syncMarkerPath: {
      doc: 'File whose presence says the system clock is NTP-synchronised (systemd-timesyncd writes it); when its directory exists but the file does not, the clock counts as unsynchronised (shown in /health checks.clock and the bridge stats, and the history prune waits). Empty: not checked.',
      format: String,
      default: '/run/systemd/timesync/synchronized',
      env: 'MOWABILITY_CLOCK_SYNC_MARKER_PATH',
    },
  },
};
