/*
 * stencil.c - the numerical kernel of heat (libstencil.so): Jacobi iteration for the steady-state
 * heat equation (Laplace's equation) on this rank's block, and the local part of the residual.
 */
#include "stencil.h"

/*
 * One Jacobi sweep: every interior cell of unew becomes the mean of its four neighbours in u.
 * The ghost rows and columns of u must be current (see exchange_halos). This loop nest is where
 * heat spends nearly all of its compute time, in proportion to the number of rows a rank owns.
 */
void jacobi_sweep(const struct block *b, const double *restrict u, double *restrict unew)
{
    const int nx = b->nx;
    const int w = block_width(b);

    for (int i = 1; i <= b->rows; i++) {
        for (int j = 1; j <= nx; j++) {
            unew[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j]
                                      + u[i * w + j - 1] + u[i * w + j + 1]);
        }
    }
}

/*
 * Sum of the squared changes of one sweep over this rank's interior cells. The global residual is the
 * square root of the sum over all ranks (global_residual in halo.c).
 */
double compute_residual(const struct block *b, const double *u, const double *unew)
{
    const int nx = b->nx;
    const int w = block_width(b);
    double sum = 0.0;

    for (int i = 1; i <= b->rows; i++) {
        for (int j = 1; j <= nx; j++) {
            const double d = unew[i * w + j] - u[i * w + j];
            sum += d * d;
        }
    }
    return sum;
}
