/**
 * Version of the calculation logic (semver). Bump it whenever any output of
 * `calculate()` changes for the same input and context.
 */
export const MFI_VERSION = '1.3.0';
