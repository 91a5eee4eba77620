/* A Minesweeper player in C that speaks the contest's process protocol directly, as a
 * player built on the contest's C++ library does: it clears `done` right after reading an
 * answer and wakes the server's futex whenever `sleeping` is set. It clicks every cell with
 * skip_when_reopen and checks each answer's shape. Written for ply's tests from the spec. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define REGION (256 * 1024)
#define FIELD(base, off, type) (*(volatile type *)((base) + (off)))

static int env_int(const char *name) {
    const char *v = getenv(name);
    if (!v) { fprintf(stderr, "c_player: %s missing\n", name); exit(2); }
    return atoi(v);
}

int main(void) {
    int to = env_int("MINESWEEPER_FD_PL_TO_GS"), from = env_int("MINESWEEPER_FD_PL_FROM_GS");
    int fd = shm_open(getenv("MINESWEEPER_SHM_NAME"), O_RDWR, 0);
    if (fd < 0) { perror("shm_open"); return 2; }
    char *shm = mmap(NULL, 1024L * REGION, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (shm == MAP_FAILED) { perror("mmap"); return 2; }
    char buf[64] = {0};
    long n, k;
    if (read(from, buf, sizeof buf - 1) <= 0 || sscanf(buf, "%ld %ld", &n, &k) != 2) return 3;
    if (write(to, "C", 1) != 1) return 3;
    memset(buf, 0, sizeof buf);
    if (read(from, buf, sizeof buf - 1) <= 0) return 3;
    char *region = shm + (long)atoi(buf) * REGION;
    long opened = 0, skipped = 0, mines = 0;
    for (long r = 0; r < n; r++) {
        for (long c = 0; c < n; c++) {
            FIELD(region, 20, uint16_t) = (uint16_t)r;
            FIELD(region, 22, uint16_t) = (uint16_t)c;
            FIELD(region, 12, uint32_t) = 1;
            FIELD(region, 16, uint32_t) = 0;
            __atomic_store_n((uint32_t *)region, 1, __ATOMIC_SEQ_CST);
            while (!__atomic_load_n((uint32_t *)(region + 8), __ATOMIC_ACQUIRE)) {
                if (FIELD(region, 4, uint32_t))
                    syscall(SYS_futex, (uint32_t *)region, FUTEX_WAKE, 1, NULL, NULL, 0);
            }
            int count = FIELD(region, 24, int32_t);
            if (count == -1) mines++;
            else if (count == -2 || count == -3) skipped++;
            else if (count < 1 || FIELD(region, 28, uint16_t) != r || FIELD(region, 30, uint16_t) != c) {
                fprintf(stderr, "c_player: bad answer %d at (%ld, %ld)\n", count, r, c);
                return 4;
            } else opened += count;
            FIELD(region, 8, uint32_t) = 0;
        }
    }
    fprintf(stderr, "c_player: %ld entries, %ld skipped, %ld mines\n", opened, skipped, mines);
    return 0;
}
