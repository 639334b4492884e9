/** Turf facts shared by several checks; each number is documented in docs/model.md. */

/** Cool-season shoot growth slows above ~27–29 °C air (K-State RE 2012; NC State Turf Council). */
export const HEAT_STRESS_FROM_C = 27;
