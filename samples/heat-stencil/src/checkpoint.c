/*
 * checkpoint.c - periodic checkpoints of heat (libckpt.so). Rank 0 gathers the whole plate and
 * writes it to one binary file, overwritten at every checkpoint:
 *
 *     char magic[8] = "HEATCKP1"; int32 nx, ny, step; double checksum (sum of all cells);
 *     then ny rows of nx doubles (no ghost cells), in native byte order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "minimpi.h"

enum { TAG_CKPT = 3 };

struct ckpt_header {
    char magic[8];
    int32_t nx, ny, step;
    double checksum;
};

/*
 * Collective: every rank must call it at the same step. Returns 0, or -1 on rank 0 if the file could
 * not be written (the other ranks cannot know and return 0).
 */
int write_checkpoint(const struct block *b, const double *u, int step, const char *path)
{
    const int nx = b->nx;
    const int w = block_width(b);
    /* Rank 0 packs straight into the whole plate; the others into a buffer they send to rank 0. */
    const size_t cells = (size_t)nx * (b->rank == 0 ? b->ny : b->rows);
    double *field = malloc(cells * sizeof *field);
    if (field == NULL) {
        fprintf(stderr, "heat: rank %d: out of memory for the checkpoint\n", b->rank);
        exit(1);
    }

    /* Interior rows only: drop the ghost columns. */
    for (int i = 0; i < b->rows; i++)
        memcpy(&field[(size_t)i * nx], &u[(i + 1) * w + 1], (size_t)nx * sizeof *field);

    if (b->rank != 0) {
        MPI_Sendrecv(field, b->rows * nx, MPI_DOUBLE, 0, TAG_CKPT,
                     NULL, 0, MPI_DOUBLE, MPI_PROC_NULL, TAG_CKPT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(field);
        return 0;
    }

    /* The ranks' blocks are consecutive in rank order, so each one goes right after the previous. */
    int filled = b->rows;
    for (int r = 1; r < b->nranks; r++) {
        MPI_Status status;
        int count = 0;
        MPI_Sendrecv(NULL, 0, MPI_DOUBLE, MPI_PROC_NULL, TAG_CKPT,
                     &field[(size_t)filled * nx], (b->ny - filled) * nx, MPI_DOUBLE, r, TAG_CKPT,
                     MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_DOUBLE, &count);
        filled += count / nx;
    }

    struct ckpt_header header = { .magic = "HEATCKP1", .nx = nx, .ny = b->ny, .step = step };
    for (size_t k = 0; k < cells; k++)
        header.checksum += field[k];

    int rc = 0;
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(&header, sizeof header, 1, f) != 1
        || fwrite(field, sizeof *field, cells, f) != cells) {
        perror(path);
        rc = -1;
    }
    if (f != NULL && fclose(f) != 0 && rc == 0) {
        perror(path);
        rc = -1;
    }
    free(field);
    return rc;
}
