#ifndef OPLAB_CKERNELS_H
#define OPLAB_CKERNELS_H

/// y = x · W + b for a `batch × fanIn` block `x` of mostly-zero rows, with W (fanIn rows
/// of fanOut) then b (fanOut) at `weights`: each row of y is b plus x[k] times weight row k
/// for the non-zero x[k], added in k order, each product rounded before its sum (no fused
/// multiply-add), so the result is the same bits on every instruction set.
/// `scratch` holds at least `fanIn` ints.
void oplab_sparse_affine(const float *x, long batch, long fanIn, const float *weights, long fanOut, float *y, int *scratch);

#endif
