#ifndef OPLAB_BENCH_CPU_AFFINITY_H
#define OPLAB_BENCH_CPU_AFFINITY_H

/* The calling thread's CPU affinity, for the protocol benchmarks: sched_setaffinity(2)
 * and sched_getaffinity(2) are GNU extensions that Swift's Glibc module does not show.
 * A process started by the thread inherits its affinity. */

/* The CPUs this thread may run on, as a bit mask of CPUs 0-63 (0 on failure). */
unsigned long long oplab_bench_thread_cpus(void);

/* Lets this thread run only on the CPUs of `mask` (CPUs 0-63): 0, or an errno value. */
int oplab_bench_pin_thread(unsigned long long mask);

/* The CPUs online. */
int oplab_bench_cpu_count(void);

#endif
