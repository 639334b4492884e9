/*
 * restrict-address-families FAMILIES -- COMMAND [ARG...]
 *
 * Runs COMMAND the way systemd's RestrictAddressFamilies= runs a service:
 * socket(2) with an address family outside the comma-separated list of
 * numbers FAMILIES (e.g. "1,2,10" = AF_UNIX,AF_INET,AF_INET6) fails with
 * EAFNOSUPPORT; every other system call is untouched. Like systemd, only
 * socket(2) is filtered (see systemd.exec(5), RestrictAddressFamilies=).
 * The filter is a plain seccomp BPF program (linux/seccomp.h, linux/filter.h),
 * so no libseccomp is needed. Used by test/e2e/sandbox.test.ts.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "only x86_64 and aarch64 (the CI machine and a 64-bit Raspberry Pi OS)"
#endif

#define MAX_FAMILIES 16
/* The low 32 bits of the first argument (little-endian on both targets). */
#define ARG0_LOW offsetof(struct seccomp_data, args[0])

int main(int argc, char **argv) {
  if (argc < 4 || strcmp(argv[2], "--") != 0) {
    fprintf(stderr, "usage: %s FAMILY[,FAMILY...] -- COMMAND [ARG...]\n", argv[0]);
    return 2;
  }
  unsigned families[MAX_FAMILIES];
  unsigned n = 0;
  for (char *item = strtok(argv[1], ","); item != NULL; item = strtok(NULL, ",")) {
    if (n == MAX_FAMILIES) return fprintf(stderr, "too many families\n"), 2;
    families[n++] = (unsigned)strtoul(item, NULL, 10);
  }

  struct sock_filter program[8 + MAX_FAMILIES];
  unsigned i = 0;
  program[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
  program[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
  program[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  program[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  /* Not socket(2): jump over the argument load, the family checks and the refusal. */
  program[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, (unsigned char)(n + 2));
  program[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW);
  for (unsigned f = 0; f < n; f++) {
    /* An allowed family: jump over the remaining checks and the refusal. */
    program[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, families[f], (unsigned char)(n - f), 0);
  }
  program[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EAFNOSUPPORT & SECCOMP_RET_DATA));
  program[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  struct sock_fprog fprog = { .len = (unsigned short)i, .filter = program };
  /* Required to install a filter without CAP_SYS_ADMIN; systemd sets it too (NoNewPrivileges=yes). */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return perror("PR_SET_NO_NEW_PRIVS"), 1;
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) != 0) return perror("PR_SET_SECCOMP"), 1;
  execvp(argv[3], &argv[3]);
  perror(argv[3]);
  return 127;
}
