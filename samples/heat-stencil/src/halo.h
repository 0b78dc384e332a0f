/* halo.h - communication between the ranks of heat (libhalo.so). */
#ifndef HEAT_HALO_H
#define HEAT_HALO_H

#include "grid.h"

void exchange_halos(const struct block *b, double *u);
double global_residual(double local_sum);

#endif
