// The first layer of a policy-value network on a sparse input, with the vector width the
// CPU has: the loader picks the AVX-512, AVX2 or baseline build of the function when the
// program starts (GCC and Clang `target_clones`), so the binary still runs everywhere.
// Products and sums are separate operations in a fixed order, so every build gives the
// same bits as the others and as the scalar definition.
#include "CKernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define OPLAB_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define OPLAB_CLONES
#endif

enum { TILE = 64 };

OPLAB_CLONES
void oplab_sparse_affine(const float *x, long batch, long fanIn, const float *weights, long fanOut, float *y, int *scratch) {
    const float *bias = weights + fanIn * fanOut;
    for (long i = 0; i < batch; i++) {
        const float *row = x + i * fanIn;
        float *out = y + i * fanOut;
        int count = 0;
        for (long k = 0; k < fanIn; k++) {
            if (row[k] != 0) scratch[count++] = (int)k;
        }
        long j0 = 0;
        // A tile of outputs stays in registers while every non-zero row is added to it.
        for (; j0 + TILE <= fanOut; j0 += TILE) {
            float acc[TILE];
            for (int j = 0; j < TILE; j++) acc[j] = bias[j0 + j];
            for (int n = 0; n < count; n++) {
                const long k = scratch[n];
                const float a = row[k];
                const float *w = weights + k * fanOut + j0;
                for (int j = 0; j < TILE; j++) {
                    const float product = a * w[j];
                    acc[j] = acc[j] + product;
                }
            }
            for (int j = 0; j < TILE; j++) out[j0 + j] = acc[j];
        }
        for (long j = j0; j < fanOut; j++) {
            float sum = bias[j];
            for (int n = 0; n < count; n++) {
                const long k = scratch[n];
                const float product = row[k] * weights[k * fanOut + j];
                sum = sum + product;
            }
            out[j] = sum;
        }
    }
}
