/* stencil.h - the numerical kernel of heat (libstencil.so). */
#ifndef HEAT_STENCIL_H
#define HEAT_STENCIL_H

#include "grid.h"

void jacobi_sweep(const struct block *b, const double *restrict u, double *restrict unew);
double compute_residual(const struct block *b, const double *u, const double *unew);

#endif
