/*
 * minimpi.c - the tiny MPI stand-in described in minimpi.h (libminimpi.so).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minimpi.h"

enum { EMPTY = 0, FULL = 1 };
enum { MAX_REDUCE = 8 };

/*
 * A one-message slot from one rank to another. The sender publishes a pointer to its own buffer (a
 * rendezvous: no intermediate copy) and must not touch the buffer again until the receiver has copied
 * it and set the slot EMPTY. Messages between two ranks are therefore received in the order sent.
 */
struct mailbox {
    atomic_int state;
    const void *buf;
    int count;
    int tag;
};

static int world_size;                     /* 0 until minimpi_run */
static struct mailbox *mailboxes;          /* [src * world_size + dst] */
static double (*reduce_slots)[MAX_REDUCE]; /* one row per rank, for MPI_Allreduce */
static atomic_int barrier_arrived;
static atomic_int barrier_phase;
static _Thread_local int my_rank = -1;
static _Thread_local int my_phase;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "minimpi: rank %d: ", my_rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void check_call(const char *fn, MPI_Comm comm, MPI_Datatype type)
{
    if (my_rank < 0)
        fail("%s called outside minimpi_run", fn);
    if (comm != MPI_COMM_WORLD || type != MPI_DOUBLE)
        fail("%s: only MPI_COMM_WORLD and MPI_DOUBLE are supported", fn);
}

static struct mailbox *mailbox(int src, int dst)
{
    if (src < 0 || src >= world_size || dst < 0 || dst >= world_size)
        fail("no rank %d", src < 0 || src >= world_size ? src : dst);
    return &mailboxes[src * world_size + dst];
}

/*
 * Spins until the slot reaches `state`, yielding the CPU between polls because the ranks may
 * outnumber the cores. This is where a rank waits for a slower neighbour; kept out of line so that
 * profiles show it.
 */
__attribute__((noinline)) static void mailbox_wait(struct mailbox *box, int state)
{
    while (atomic_load_explicit(&box->state, memory_order_acquire) != state)
        sched_yield();
}

/*
 * Sense-reversing central barrier: the last rank to arrive resets the count and flips the phase the
 * others spin on. Out of line for the same reason as mailbox_wait.
 */
__attribute__((noinline)) static void barrier_wait(void)
{
    const int phase = !my_phase;

    my_phase = phase;
    if (atomic_fetch_add(&barrier_arrived, 1) == world_size - 1) {
        atomic_store(&barrier_arrived, 0);
        atomic_store_explicit(&barrier_phase, phase, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&barrier_phase, memory_order_acquire) != phase)
        sched_yield();
}

int MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (my_rank < 0)
        fail("MPI_Init: call it from the body given to minimpi_run");
    return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
    barrier_wait();
    return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    check_call("MPI_Comm_rank", comm, MPI_DOUBLE);
    *rank = my_rank;
    return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    check_call("MPI_Comm_size", comm, MPI_DOUBLE);
    *size = world_size;
    return MPI_SUCCESS;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    struct mailbox *out = NULL;
    int received = 0;

    check_call("MPI_Sendrecv", comm, sendtype);
    check_call("MPI_Sendrecv", comm, recvtype);
    /* Post the send first, so that two ranks sending to each other cannot deadlock. */
    if (dest != MPI_PROC_NULL) {
        out = mailbox(my_rank, dest);
        out->buf = sendbuf;
        out->count = sendcount;
        out->tag = sendtag;
        atomic_store_explicit(&out->state, FULL, memory_order_release);
    }
    if (source != MPI_PROC_NULL) {
        struct mailbox *in = mailbox(source, my_rank);
        mailbox_wait(in, FULL);
        if (in->tag != recvtag)
            fail("MPI_Sendrecv: expected tag %d from rank %d, got %d", recvtag, source, in->tag);
        if (in->count > recvcount)
            fail("MPI_Sendrecv: %d values from rank %d do not fit in %d", in->count, source, recvcount);
        if (in->count > 0)
            memcpy(recvbuf, in->buf, (size_t)in->count * sizeof(double));
        received = in->count;
        atomic_store_explicit(&in->state, EMPTY, memory_order_release);
    }
    if (status != MPI_STATUS_IGNORE) {
        status->MPI_SOURCE = source;
        status->MPI_TAG = recvtag;
        status->minimpi_count = received;
    }
    /* The send buffer is the caller's again once the receiver has copied it. */
    if (out != NULL)
        mailbox_wait(out, EMPTY);
    return MPI_SUCCESS;
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    check_call("MPI_Get_count", MPI_COMM_WORLD, datatype);
    *count = status->minimpi_count;
    return MPI_SUCCESS;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    double *result = recvbuf;

    check_call("MPI_Allreduce", comm, datatype);
    if (count < 0 || count > MAX_REDUCE || (op != MPI_SUM && op != MPI_MAX))
        fail("MPI_Allreduce: only MPI_SUM and MPI_MAX of at most %d values", MAX_REDUCE);
    memcpy(reduce_slots[my_rank], sendbuf, (size_t)count * sizeof(double));
    barrier_wait(); /* every rank's contribution is in place */
    for (int k = 0; k < count; k++) {
        /* The same order on every rank, so that every rank gets bit-identical results. */
        double acc = reduce_slots[0][k];
        for (int r = 1; r < world_size; r++) {
            const double x = reduce_slots[r][k];
            acc = op == MPI_SUM ? acc + x : (x > acc ? x : acc);
        }
        result[k] = acc;
    }
    barrier_wait(); /* no rank overwrites its slot before every rank has read them all */
    return MPI_SUCCESS;
}

int MPI_Barrier(MPI_Comm comm)
{
    check_call("MPI_Barrier", comm, MPI_DOUBLE);
    barrier_wait();
    return MPI_SUCCESS;
}

double MPI_Wtime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct rank_start {
    int rank;
    int (*body)(void *arg);
    void *arg;
    int result;
};

static void *rank_thread(void *p)
{
    struct rank_start *start = p;

    my_rank = start->rank;
    start->result = start->body(start->arg);
    return NULL;
}

int minimpi_run(int nranks, int (*body)(void *arg), void *arg)
{
    if (nranks < 1 || world_size != 0)
        fail("minimpi_run: needs at least one rank, and runs once per process");
    world_size = nranks;
    mailboxes = calloc((size_t)nranks * nranks, sizeof *mailboxes);
    reduce_slots = calloc((size_t)nranks, sizeof *reduce_slots);
    struct rank_start *starts = calloc((size_t)nranks, sizeof *starts);
    pthread_t *threads = calloc((size_t)nranks, sizeof *threads);
    if (mailboxes == NULL || reduce_slots == NULL || starts == NULL || threads == NULL)
        fail("minimpi_run: out of memory");
    for (int k = 0; k < nranks * nranks; k++)
        atomic_init(&mailboxes[k].state, EMPTY);
    atomic_init(&barrier_arrived, 0);
    atomic_init(&barrier_phase, 0);

    for (int r = 1; r < nranks; r++) {
        starts[r] = (struct rank_start){ .rank = r, .body = body, .arg = arg };
        if (pthread_create(&threads[r], NULL, rank_thread, &starts[r]) != 0)
            fail("minimpi_run: cannot start rank %d", r);
    }
    /* Rank 0 runs on the calling thread, like the first process of an mpirun. */
    my_rank = 0;
    int result = body(arg);
    for (int r = 1; r < nranks; r++) {
        pthread_join(threads[r], NULL);
        if (starts[r].result > result)
            result = starts[r].result;
    }
    my_rank = -1;
    free(threads);
    free(starts);
    free(reduce_slots);
    free(mailboxes);
    return result;
}
