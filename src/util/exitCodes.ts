/** Process exit codes shared by layers that may not import each other (sysexits.h, FreeBSD/BSD convention). */

/** sysexits.h EX_CONFIG: a configuration error; systemd/mowability.service's RestartPreventExitStatus names it too. */
export const EXIT_CONFIG = 78;
