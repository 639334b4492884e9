/** Public surface of the pure calculation core. */
export type * from './types.js';
export { FIELD_SPECS, FIELD_NAMES, REQUIRED_FIELDS } from './fields.js';
export type { FieldName, FieldSpec, CalculationInput } from './fields.js';
export { calculate, DEFAULT_LAWN } from './calculate.js';
export { MFI_VERSION } from './version.js';
export { SEASONS } from './vocabulary.js';
export { isSeason, seasonFor, formatCalculatedAt, formatLocalDateTime, localDateTime } from './season.js';
export type { LocalDateTime } from './season.js';
export {
  CHECK_NAMES,
  DATA_QUALITIES,
  HEMISPHERES,
  MOWER_CLASSES,
  SOIL_TYPES,
  STATE_DATA_QUALITIES,
  STATUSES,
  TURF_TYPES,
} from './vocabulary.js';
export { statusForScore } from './status.js';
export { parseFieldValue, parseInput } from './parse.js';
export { htmlReason, plainReason, reasonSegments, renderHtmlReason, renderPlainReason, renderSpecReason } from './reasonText.js';
export type { ReasonSegment } from './reasonText.js';
export type { ParsedInput } from './parse.js';
