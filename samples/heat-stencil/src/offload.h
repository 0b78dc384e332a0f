/* offload.h - the data movement of a GPU port of heat's time-step loop (liboffload.so). */
#ifndef HEAT_OFFLOAD_H
#define HEAT_OFFLOAD_H

#include <stddef.h>

#include "grid.h"

/* The device copies of a rank's field arrays, (rows + 2) x (nx + 2) doubles each. */
struct device_field {
    double *u, *unew;
    size_t cells;
};

int offload_stage_in(const struct block *b, const double *u, struct device_field *d);
void offload_halos_to_host(const struct block *b, const struct device_field *d, double *u);
void offload_halos_to_device(const struct block *b, const struct device_field *d, const double *u);
void offload_stage_out(const struct block *b, struct device_field *d, double *u);
int offload_timesteps(const struct block *b, double *u, int iterations);

#endif
