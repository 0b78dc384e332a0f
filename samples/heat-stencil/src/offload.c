/*
 * offload.c - how heat's time-step loop moves data in a GPU port: the field lives on the device,
 * the host holds only what MPI needs.
 *
 *   before the loop   the whole block goes to the device (H2D), and unew is cleared there (memset);
 *   every step        the two edge rows come back to the host (D2H) for exchange_halos, and the
 *                     ghost rows received from the neighbours go to the device (H2D);
 *                     the sweep runs on the device;
 *   after the loop    the block comes back (D2H).
 *
 * This file is a host-only mock so that the sample builds and runs anywhere: the "device" is a
 * second host allocation, dev_memcpy_async and dev_memset_async are memcpy and memset, and the
 * "kernel" is jacobi_sweep. In the CUDA port they are cudaMemcpyAsync, cudaMemsetAsync and a
 * kernel launch on one stream; profiles/heat-offload-kineto.json models that port's trace.
 */
#include <stdlib.h>
#include <string.h>

#include "halo.h"
#include "offload.h"
#include "stencil.h"

enum copy_kind { COPY_HOST_TO_DEVICE, COPY_DEVICE_TO_HOST };

/* cudaMemcpyAsync(dst, src, bytes, kind, stream) in the CUDA port. */
static void dev_memcpy_async(void *dst, const void *src, size_t bytes, enum copy_kind kind)
{
    (void)kind;
    memcpy(dst, src, bytes);
}

/* cudaMemsetAsync(dst, value, bytes, stream) in the CUDA port. */
static void dev_memset_async(void *dst, int value, size_t bytes)
{
    memset(dst, value, bytes);
}

/* Allocates the device field and copies the block to it. Returns -1 when out of memory. */
int offload_stage_in(const struct block *b, const double *u, struct device_field *d)
{
    d->cells = (size_t)(b->rows + 2) * block_width(b);
    d->u = malloc(d->cells * sizeof *d->u);
    d->unew = malloc(d->cells * sizeof *d->unew);
    if (d->u == NULL || d->unew == NULL) {
        free(d->u);
        free(d->unew);
        return -1;
    }
    dev_memcpy_async(d->u, u, d->cells * sizeof *u, COPY_HOST_TO_DEVICE);
    dev_memset_async(d->unew, 0, d->cells * sizeof *d->unew);
    return 0;
}

/* The first and last owned rows, which the neighbours need, back to the host. */
void offload_halos_to_host(const struct block *b, const struct device_field *d, double *u)
{
    const int w = block_width(b);
    const size_t row = (size_t)w * sizeof *u;

    dev_memcpy_async(u + w, d->u + w, row, COPY_DEVICE_TO_HOST);
    dev_memcpy_async(u + (size_t)b->rows * w, d->u + (size_t)b->rows * w, row, COPY_DEVICE_TO_HOST);
}

/* The ghost rows exchange_halos received, to the device. */
void offload_halos_to_device(const struct block *b, const struct device_field *d, const double *u)
{
    const int w = block_width(b);
    const size_t row = (size_t)w * sizeof *u;

    dev_memcpy_async(d->u, u, row, COPY_HOST_TO_DEVICE);
    dev_memcpy_async(d->u + (size_t)(b->rows + 1) * w, u + (size_t)(b->rows + 1) * w, row, COPY_HOST_TO_DEVICE);
}

/* The block back to the host, and the device field freed. */
void offload_stage_out(const struct block *b, struct device_field *d, double *u)
{
    (void)b;
    dev_memcpy_async(u, d->u, d->cells * sizeof *u, COPY_DEVICE_TO_HOST);
    free(d->u);
    free(d->unew);
}

/* run_timesteps with the field on the device: halos through the host, sweeps on the device. */
int offload_timesteps(const struct block *b, double *u, int iterations)
{
    struct device_field d;

    if (offload_stage_in(b, u, &d) != 0)
        return -1;
    for (int step = 1; step <= iterations; step++) {
        offload_halos_to_host(b, &d, u);
        exchange_halos(b, u);
        offload_halos_to_device(b, &d, u);
        jacobi_sweep(b, d.u, d.unew);
        double *swap = d.u;
        d.u = d.unew;
        d.unew = swap;
    }
    offload_stage_out(b, &d, u);
    return 0;
}
