/*
 * main.c - heat: steady-state temperature of a plate (Laplace's equation, Jacobi iteration) on an
 * nx x ny grid, split by rows across MPI ranks. The top edge is held at 1, the bottom edge at 0, and
 * the plate is periodic left to right. Each time step exchanges halos, sweeps, and every few steps
 * computes the global residual; every ckpt_every steps rank 0 writes a checkpoint.
 *
 * The row split is deliberately uneven (see partition_rows): that load imbalance is what the demo
 * profiles in ../profiles show.
 *
 * Usage: heat [-n ranks] [-x nx] [-y ny] [-i iterations] [-r resid_every] [-c ckpt_every] [-o file]
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "checkpoint.h"
#include "grid.h"
#include "halo.h"
#include "minimpi.h"
#include "stencil.h"

/*
 * The phases of the annotation profile (profiles/heat-stencil-regions-4ranks.json). They compile to
 * nothing unless HEAT_USE_CALIPER is defined (and Caliper is linked), so the sample needs no Caliper.
 */
#ifdef HEAT_USE_CALIPER
#include <caliper/cali.h>
#define REGION_BEGIN(name) CALI_MARK_BEGIN(name)
#define REGION_END(name) CALI_MARK_END(name)
#else
#define REGION_BEGIN(name) ((void)0)
#define REGION_END(name) ((void)0)
#endif

struct config {
    int nranks;
    int nx, ny;
    int iterations;
    int resid_every; /* steps between residual computations */
    int ckpt_every;  /* steps between checkpoints; 0 for none */
    const char *ckpt_path;
};

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [-n ranks] [-x nx] [-y ny] [-i iterations] [-r resid_every] [-c ckpt_every] [-o file]\n"
            "defaults: -n 4 -x 1024 -y 1024 -i 4000 -r 10 -c 1000 -o heat.ckpt\n",
            prog);
}

static int parse_count(const char *s, int *out)
{
    char *end;
    const long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 1000000)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_args(int argc, char **argv, struct config *cfg)
{
    *cfg = (struct config){ .nranks = 4, .nx = 1024, .ny = 1024, .iterations = 4000,
                            .resid_every = 10, .ckpt_every = 1000, .ckpt_path = "heat.ckpt" };
    int opt, bad = 0;
    while ((opt = getopt(argc, argv, "n:x:y:i:r:c:o:h")) != -1) {
        switch (opt) {
        case 'n': bad |= parse_count(optarg, &cfg->nranks); break;
        case 'x': bad |= parse_count(optarg, &cfg->nx); break;
        case 'y': bad |= parse_count(optarg, &cfg->ny); break;
        case 'i': bad |= parse_count(optarg, &cfg->iterations); break;
        case 'r': bad |= parse_count(optarg, &cfg->resid_every); break;
        case 'c': bad |= parse_count(optarg, &cfg->ckpt_every); break;
        case 'o': cfg->ckpt_path = optarg; break;
        default: bad = -1; break;
        }
    }
    if (bad || optind != argc || cfg->nranks < 1 || cfg->nx < 1 || cfg->ny < cfg->nranks + 1
        || cfg->iterations < 1 || cfg->resid_every < 1) {
        usage(argv[0]);
        return -1;
    }
    return 0;
}

/*
 * Which rows rank `rank` owns: *count rows starting at global row *first.
 *
 * THE DELIBERATE LOAD IMBALANCE of this sample: rank 0 gets a double share of the rows (weights
 * 2, 1, 1, ..., 1; on 4 ranks 40% / 20% / 20% / 20%), so it does twice the work of every other rank
 * per time step, and the others wait for it in MPI_Sendrecv and MPI_Allreduce. A balanced split
 * would give every rank the weight 1.
 */
void partition_rows(int ny, int nranks, int rank, int *first, int *count)
{
    const long total = nranks + 1;                 /* sum of all the weights */
    const long before = rank == 0 ? 0 : rank + 1;  /* sum of the weights of ranks < rank */
    const long through = rank + 2;                 /* sum of the weights of ranks <= rank */

    *first = (int)(ny * before / total);
    *count = (int)(ny * through / total) - *first;
}

/*
 * Initial temperature, ghost cells included: top edge 1, bottom edge 0, and in between a smooth
 * bump across the plate that the iteration has to smooth out.
 */
void init_field(const struct block *b, double *u)
{
    const double two_pi = 6.283185307179586;
    const int w = block_width(b);

    for (int i = 0; i <= b->rows + 1; i++) {
        const int g = b->first_row + i - 1; /* global row; -1 and ny are the plate's edges */
        for (int j = 0; j <= b->nx + 1; j++) {
            if (g < 0)
                u[i * w + j] = 1.0;
            else if (g >= b->ny)
                u[i * w + j] = 0.0;
            else
                u[i * w + j] = 0.5 + 0.25 * sin(two_pi * (j - 0.5) / b->nx)
                                          * sin(0.5 * two_pi * (g + 0.5) / b->ny);
        }
    }
}

/*
 * The time-step loop. Returns the last global residual; adds this rank's compute time (sweeps and
 * residual sums, without any waiting) to *compute.
 */
double run_timesteps(const struct config *cfg, const struct block *b, double *u, double *unew, double *compute)
{
    const int print_every = cfg->iterations >= 10 ? cfg->iterations / 10 : 1;
    double resid = 0.0;

    for (int step = 1; step <= cfg->iterations; step++) {
        REGION_BEGIN("timestep");

        REGION_BEGIN("halo_exchange");
        exchange_halos(b, u);
        REGION_END("halo_exchange");

        double t0 = MPI_Wtime();
        REGION_BEGIN("jacobi_sweep");
        jacobi_sweep(b, u, unew);
        REGION_END("jacobi_sweep");
        *compute += MPI_Wtime() - t0;

        const int report = step % print_every == 0 || step == cfg->iterations;
        if (step % cfg->resid_every == 0 || report) {
            REGION_BEGIN("global_residual");
            t0 = MPI_Wtime();
            const double local = compute_residual(b, u, unew);
            *compute += MPI_Wtime() - t0;
            resid = global_residual(local);
            REGION_END("global_residual");
            if (report && b->rank == 0)
                printf("step %6d  residual %.6e\n", step, resid);
        }

        double *swap = u;
        u = unew;
        unew = swap;

        if (cfg->ckpt_every > 0 && step % cfg->ckpt_every == 0) {
            REGION_BEGIN("checkpoint");
            write_checkpoint(b, u, step, cfg->ckpt_path);
            REGION_END("checkpoint");
        }

        REGION_END("timestep");
    }
    return resid;
}

/* What each rank runs: with real MPI this would be the body of main in every process. */
static int rank_main(void *arg)
{
    const struct config *cfg = arg;
    struct block b;

    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b.nranks);
    b.nx = cfg->nx;
    b.ny = cfg->ny;
    partition_rows(b.ny, b.nranks, b.rank, &b.first_row, &b.rows);
    b.up = b.rank > 0 ? b.rank - 1 : MPI_PROC_NULL;
    b.down = b.rank < b.nranks - 1 ? b.rank + 1 : MPI_PROC_NULL;

    REGION_BEGIN("main");
    REGION_BEGIN("setup");
    const size_t cells = (size_t)(b.rows + 2) * block_width(&b);
    double *u = malloc(cells * sizeof *u);
    double *unew = malloc(cells * sizeof *unew);
    if (u == NULL || unew == NULL) {
        fprintf(stderr, "heat: rank %d: out of memory\n", b.rank);
        exit(1);
    }
    init_field(&b, u);
    init_field(&b, unew); /* for the fixed edge rows, which the sweep never writes */
    REGION_END("setup");

    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    double compute = 0.0;
    const double resid = run_timesteps(cfg, &b, u, unew, &compute);
    const double elapsed = MPI_Wtime() - start;

    /* How uneven was the work? The largest compute time over the mean (1.00 = perfectly balanced). */
    double max_compute = 0.0, sum_compute = 0.0;
    MPI_Allreduce(&compute, &max_compute, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&compute, &sum_compute, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    for (int r = 0; r < b.nranks; r++) { /* one line per rank, in rank order */
        if (r == b.rank)
            printf("rank %d: rows %4d-%4d  compute %.3f s of %.3f s\n", b.rank, b.first_row,
                   b.first_row + b.rows - 1, compute, elapsed);
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (b.rank == 0)
        printf("final residual %.6e after %d steps; load imbalance (max/mean compute) %.2f\n", resid,
               cfg->iterations, max_compute / (sum_compute / b.nranks));
    REGION_END("main");

    free(u);
    free(unew);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    struct config cfg;

    if (parse_args(argc, argv, &cfg) != 0)
        return 2;
    /* With real MPI, mpirun would start the ranks; minimpi runs them as threads of this process. */
    return minimpi_run(cfg.nranks, rank_main, &cfg);
}
