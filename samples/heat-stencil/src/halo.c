/*
 * halo.c - communication between the ranks of heat (libhalo.so): the halo exchange before every
 * sweep and the global residual.
 */
#include <math.h>

#include "halo.h"
#include "minimpi.h"

enum { TAG_TO_UP = 1, TAG_TO_DOWN = 2 };

/*
 * Brings the ghost cells of u up to date. Each rank sends its first row up and its last row down and
 * receives its neighbours' edge rows into its ghost rows. At the plate's top and bottom edge the
 * neighbour is MPI_PROC_NULL and the ghost row keeps the fixed boundary temperature.
 * MPI_Sendrecv returns only when the neighbour has arrived too, so a rank with less work waits here
 * for a slower neighbour.
 */
void exchange_halos(const struct block *b, double *u)
{
    const int nx = b->nx;
    const int w = block_width(b);

    MPI_Sendrecv(&u[1 * w + 1], nx, MPI_DOUBLE, b->up, TAG_TO_UP,
                 &u[(b->rows + 1) * w + 1], nx, MPI_DOUBLE, b->down, TAG_TO_UP,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[b->rows * w + 1], nx, MPI_DOUBLE, b->down, TAG_TO_DOWN,
                 &u[0 * w + 1], nx, MPI_DOUBLE, b->up, TAG_TO_DOWN,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    /* Periodic in x: the ghost columns are copies of the opposite edge column (local, no messages). */
    for (int i = 1; i <= b->rows; i++) {
        u[i * w] = u[i * w + nx];
        u[i * w + nx + 1] = u[i * w + 1];
    }
}

/* The residual of the whole plate from every rank's sum of squared changes (compute_residual). */
double global_residual(double local_sum)
{
    double sum = 0.0;

    MPI_Allreduce(&local_sum, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sqrt(sum);
}
