/* The keep steps' loops of the build's turn kernel, in C, for bench_kernel_bound.py --c-loops.
 *
 * The same loops as kernels.vec_expect_keeps and kernels.vec_best_subkeeps (rows of a tile of
 * 64 float64 columns, read through the keep tables), and the bound's streaming loops of the same
 * operation mix (rows at constant offsets), compiled by the machine's C compiler with
 * -O3 -march=native.  They tell whether the kernel's distance from its bound is numba's code or
 * the loops' access pattern.  Not part of the package.
 */
#define W 64
#define MX(x, y) ((x) > (y) ? (x) : (y))

/* Rows 0..209 = the mean of six rows, through the child table (the kernel's loop). */
void expect_table(double *X, long reps, const long *child)
{
    for (long r = 0; r < reps; r++)
        for (long k = 209; k >= 0; k--) {
            const double *e0 = X + child[6 * k] * W, *e1 = X + child[6 * k + 1] * W, *e2 = X + child[6 * k + 2] * W;
            const double *e3 = X + child[6 * k + 3] * W, *e4 = X + child[6 * k + 4] * W, *e5 = X + child[6 * k + 5] * W;
            double *ek = X + k * W;
            for (long t = 0; t < W; t++)
                ek[t] = (e0[t] + e1[t] + e2[t] + e3[t] + e4[t] + e5[t]) / 6.0;
        }
}

/* The same mix over the next six rows (the bound's loop). */
void expect_stream(double *X, long reps)
{
    for (long r = 0; r < reps; r++)
        for (long k = 0; k < 210; k++) {
            const double *e0 = X + (210 + k) * W;
            double *ek = X + k * W;
            for (long t = 0; t < W; t++)
                ek[t] = (e0[t] + e0[W + t] + e0[2 * W + t] + e0[3 * W + t] + e0[4 * W + t] + e0[5 * W + t]) / 6.0;
        }
}

/* The best keep inside each keep, size by size, from the sub-keeps' rows of the other buffer
 * (the kernel's loop: sizes 1, 3, 5 into B, 0, 2, 4 into S). */
void best_table(const double *E, double *B, double *S, long reps, const long *subs, const long *nsubs,
                const long *level)
{
    for (long r = 0; r < reps; r++) {
        for (long t = 0; t < W; t++)
            S[t] = E[t];
        for (long m = 1; m < 6; m++) {
            const double *src = (m % 2 == 0) ? B : S;
            double *dst = (m % 2 == 0) ? S : B;
            for (long k = level[m]; k < level[m + 1]; k++) {
                long ns = nsubs[k];
                const long *sb = subs + 6 * k;
                const double *ek = E + W * k;
                double *bk = dst + W * k;
                const double *s0 = src + W * sb[0], *s1 = src + W * sb[ns > 1 ? 1 : ns - 1];
                const double *s2 = src + W * sb[ns > 2 ? 2 : ns - 1];
                if (ns <= 3) {
                    for (long t = 0; t < W; t++) {
                        double y = ek[t];
                        y = MX(s0[t], y); y = MX(s1[t], y);
                        bk[t] = MX(s2[t], y);
                    }
                } else {
                    const double *s3 = src + W * sb[3], *s4 = src + W * sb[ns - 1];
                    for (long t = 0; t < W; t++) {
                        double y = ek[t];
                        y = MX(s0[t], y); y = MX(s1[t], y); y = MX(s2[t], y); y = MX(s3[t], y);
                        bk[t] = MX(s4[t], y);
                    }
                }
            }
        }
    }
}

/* The same mix over the rows just before each keep's (the bound's loop). */
void best_stream(const double *E, double *B, long reps, const long *nsubs)
{
    for (long r = 0; r < reps; r++)
        for (long k = 5; k < 462; k++) {
            const double *ek = E + W * k;
            double *bk = B + W * k;
            if (nsubs[k] <= 3) {
                for (long t = 0; t < W; t++) {
                    double y = ek[t];
                    y = MX(ek[t - W], y); y = MX(ek[t - 2 * W], y);
                    bk[t] = MX(ek[t - 3 * W], y);
                }
            } else {
                for (long t = 0; t < W; t++) {
                    double y = ek[t];
                    y = MX(ek[t - W], y); y = MX(ek[t - 2 * W], y); y = MX(ek[t - 3 * W], y); y = MX(ek[t - 4 * W], y);
                    bk[t] = MX(ek[t - 5 * W], y);
                }
            }
        }
}
