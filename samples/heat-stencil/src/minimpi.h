/*
 * minimpi.h - a tiny stand-in for MPI, so that this sample builds and runs anywhere. It exists only
 * because no MPI installation is assumed; it is not an MPI implementation and not part of what the
 * sample demonstrates.
 *
 * The ranks are POSIX threads of one process (minimpi_run plays the part of mpirun). Point-to-point
 * messages go through shared-memory mailboxes, one per ordered pair of ranks; collectives through a
 * spinning barrier. Only what heat uses is provided, with MPI's names and argument lists, so main.c
 * and the libraries read like (and compile against) real MPI for these calls. Limits: one
 * communicator (MPI_COMM_WORLD), MPI_DOUBLE only, blocking calls only, MPI_Allreduce of at most 8
 * values with MPI_SUM or MPI_MAX. Misuse aborts with a message.
 */
#ifndef MINIMPI_H
#define MINIMPI_H

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;

typedef struct {
    int MPI_SOURCE;
    int MPI_TAG;
    int minimpi_count; /* elements received; read it with MPI_Get_count */
} MPI_Status;

#define MPI_COMM_WORLD 0
#define MPI_DOUBLE 1
#define MPI_SUM 1
#define MPI_MAX 2
#define MPI_PROC_NULL (-1)
#define MPI_SUCCESS 0
#define MPI_STATUS_IGNORE ((MPI_Status *)0)

int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm);
int MPI_Barrier(MPI_Comm comm);
double MPI_Wtime(void);

/*
 * Not MPI: what mpirun does. Runs body(arg) as ranks 0 .. nranks-1, rank 0 on the calling thread and
 * the others on new threads, and returns when all have returned: the largest of their return values.
 * The body calls MPI_Init first and MPI_Finalize last, like a real MPI main.
 */
int minimpi_run(int nranks, int (*body)(void *arg), void *arg);

#endif
