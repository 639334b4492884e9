/** Types shared by the station history and its window scan (own module, so neither imports the other's). */

export interface BucketRow {
  minute: number;
  rainMm: number;
  /** A reading in this minute told us how much it rained (coverage of rain windows). */
  rainObserved: boolean;
  /** Lowest temperature in this minute; null when no temperature arrived. */
  tempMinC: number | null;
}
