/*
 * grid.h - the one data structure the heat modules share: a rank's block of rows.
 */
#ifndef HEAT_GRID_H
#define HEAT_GRID_H

/*
 * A rank owns `rows` consecutive rows of the global nx x ny plate, starting at global row `first_row`.
 * Its field arrays hold (rows + 2) x (nx + 2) doubles, row-major: one ghost row above and below (the
 * neighbours' edge rows, or the fixed temperature of the plate's top and bottom edge) and one ghost
 * column left and right (copies of the opposite edge: the plate is periodic in x).
 * Interior cell (i, j), 1 <= i <= rows, 1 <= j <= nx, is at u[i * (nx + 2) + j].
 */
struct block {
    int nx, ny;     /* global plate size in cells, without ghosts */
    int first_row;  /* global index of this rank's first row */
    int rows;       /* number of rows this rank owns */
    int rank, nranks;
    int up, down;   /* neighbour ranks, or MPI_PROC_NULL at the plate's top and bottom edge */
};

/* Row length of the field arrays, ghost columns included. */
static inline int block_width(const struct block *b)
{
    return b->nx + 2;
}

#endif
