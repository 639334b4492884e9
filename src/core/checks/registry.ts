import { humidityCheck } from './humidity.js';
import { rainCheck } from './rain.js';
import { soiltempCheck } from './soiltemp.js';
import { temperatureCheck } from './temperature.js';
import type { CheckDefinition } from './types.js';
import { windCheck } from './wind.js';

/** All checks in the order of the result's `checks` object; this order also breaks ties for limiting_check. */
export const CHECK_REGISTRY: readonly CheckDefinition[] = [temperatureCheck, soiltempCheck, rainCheck, windCheck, humidityCheck];
