#define _GNU_SOURCE
#include "CPUAffinity.h"

#include <errno.h>
#include <sched.h>
#include <unistd.h>

unsigned long long oplab_bench_thread_cpus(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    unsigned long long mask = 0;
    for (int cpu = 0; cpu < 64; cpu++) {
        if (CPU_ISSET(cpu, &set)) mask |= 1ULL << cpu;
    }
    return mask;
}

int oplab_bench_pin_thread(unsigned long long mask) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < 64; cpu++) {
        if (mask & (1ULL << cpu)) CPU_SET(cpu, &set);
    }
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}

int oplab_bench_cpu_count(void) {
    return (int)sysconf(_SC_NPROCESSORS_ONLN);
}
