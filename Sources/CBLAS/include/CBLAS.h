#ifndef OPLAB_CBLAS_H
#define OPLAB_CBLAS_H

/// The part of OpenBLAS's CBLAS interface the lab calls, declared as OpenBLAS declares it
/// (Debian's libopenblas0: 32-bit integers). The functions are the lab's own
/// (`Sources/CBLAS/loader.c`): each forwards to OpenBLAS, which the lab loads itself at
/// start-up with one thread, so that the library starts no pool of threads that spin
/// waiting for work the lab never gives them (its parallelism is across matches).
/// `OPLAB_OPENBLAS` names another build of the library to load (a path).

typedef enum CBLAS_ORDER {CblasRowMajor = 101, CblasColMajor = 102} CBLAS_ORDER;
typedef enum CBLAS_TRANSPOSE {CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113, CblasConjNoTrans = 114} CBLAS_TRANSPOSE;

void cblas_sgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA, const enum CBLAS_TRANSPOSE TransB,
                 const int M, const int N, const int K, const float alpha, const float *A, const int lda,
                 const float *B, const int ldb, const float beta, float *C, const int ldc);
void cblas_sgemv(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE trans, const int m, const int n,
                 const float alpha, const float *a, const int lda, const float *x, const int incx,
                 const float beta, float *y, const int incy);
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
char *openblas_get_config(void);
char *openblas_get_corename(void);

/// Why OpenBLAS could not be loaded, or NULL when it was. The functions above stop the
/// process with this reason when called without it; ask first to fail politely.
const char *oplab_openblas_error(void);

#endif
