// OpenBLAS, loaded by the lab rather than linked (include/CBLAS.h).
//
// Linked, the library's constructor runs before anything of the lab's and, on a machine
// of n cores, starts n - 1 threads that spin in sched_yield for about a tenth of a second
// after start-up and after every call: in a short run a tenth of the time went to the
// kernel's scheduler. The lab never uses them (one OpenBLAS thread per worker,
// BLASThreads.pinToOne). So the library is opened here, in a constructor (before main,
// while the process has one thread), with OPENBLAS_NUM_THREADS=1 set for its constructor
// only: the environment is put back, so bots the lab starts see the user's. Its other
// settings (OPENBLAS_CORETYPE) are read as before. A machine without OpenBLAS runs
// everything but the learned players, which refuse with the reason (oplab_openblas_error).

#include "CBLAS.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sgemm_fn)(const enum CBLAS_ORDER, const enum CBLAS_TRANSPOSE, const enum CBLAS_TRANSPOSE, const int, const int,
                         const int, const float, const float *, const int, const float *, const int, const float, float *,
                         const int);
typedef void (*sgemv_fn)(const enum CBLAS_ORDER, const enum CBLAS_TRANSPOSE, const int, const int, const float, const float *,
                         const int, const float *, const int, const float, float *, const int);

static struct {
    sgemm_fn sgemm;
    sgemv_fn sgemv;
    void (*set_num_threads)(int);
    int (*get_num_threads)(void);
    char *(*get_config)(void);
    char *(*get_corename)(void);
    char error[512];
} blas;

__attribute__((constructor)) static void oplab_load_openblas(void) {
    const char *override = getenv("OPLAB_OPENBLAS");
    const char *path = override && *override ? override : "libopenblas.so.0";
    const char *name = "OPENBLAS_NUM_THREADS";
    const char *was = getenv(name);
    char *saved = was ? strdup(was) : NULL;
    setenv(name, "1", 1);
    // Lazily bound, as a linked library is (binding every function at once cost about 3
    // million more instructions a start).
    void *library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (saved) {
        setenv(name, saved, 1);
        free(saved);
    } else {
        unsetenv(name);
    }
    if (!library) {
        const char *reason = dlerror();
        snprintf(blas.error, sizeof blas.error, "%s", reason ? reason : path);
        return;
    }
    blas.sgemm = (sgemm_fn)dlsym(library, "cblas_sgemm");
    blas.sgemv = (sgemv_fn)dlsym(library, "cblas_sgemv");
    blas.set_num_threads = (void (*)(int))dlsym(library, "openblas_set_num_threads");
    blas.get_num_threads = (int (*)(void))dlsym(library, "openblas_get_num_threads");
    blas.get_config = (char *(*)(void))dlsym(library, "openblas_get_config");
    blas.get_corename = (char *(*)(void))dlsym(library, "openblas_get_corename");
    if (!blas.sgemm || !blas.sgemv || !blas.set_num_threads || !blas.get_num_threads || !blas.get_config || !blas.get_corename) {
        snprintf(blas.error, sizeof blas.error, "%s lacks a CBLAS or OpenBLAS function the lab calls", path);
        blas.sgemm = NULL;
    }
}

const char *oplab_openblas_error(void) { return blas.sgemm ? NULL : blas.error; }

static void oplab_require_openblas(void) {
    if (blas.sgemm) return;
    fprintf(stderr,
            "oplab: the learned players need OpenBLAS, which could not be loaded (%s); install it with scripts/setup.sh "
            "(Debian: apt-get install libopenblas0), or name a build in OPLAB_OPENBLAS\n",
            blas.error);
    exit(1);
}

void cblas_sgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA, const enum CBLAS_TRANSPOSE TransB,
                 const int M, const int N, const int K, const float alpha, const float *A, const int lda,
                 const float *B, const int ldb, const float beta, float *C, const int ldc) {
    if (__builtin_expect(!blas.sgemm, 0)) oplab_require_openblas();
    blas.sgemm(Order, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_sgemv(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE trans, const int m, const int n,
                 const float alpha, const float *a, const int lda, const float *x, const int incx,
                 const float beta, float *y, const int incy) {
    if (__builtin_expect(!blas.sgemm, 0)) oplab_require_openblas();
    blas.sgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void openblas_set_num_threads(int num_threads) {
    oplab_require_openblas();
    blas.set_num_threads(num_threads);
}

int openblas_get_num_threads(void) {
    oplab_require_openblas();
    return blas.get_num_threads();
}

char *openblas_get_config(void) {
    oplab_require_openblas();
    return blas.get_config();
}

char *openblas_get_corename(void) {
    oplab_require_openblas();
    return blas.get_corename();
}
