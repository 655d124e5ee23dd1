/* dist.h - the distributed runtime's C API (docs/distributed.md): one grid
 * decomposed over the ranks of an MPI communicator, each rank running the
 * generated single-GPU NAME_run on its block plus a ghost band of width
 * radius x the steps between exchanges (the fused steps of a pass times the
 * passes an exchange serves, below), exchanged that often. The generated
 * header wraps these as NAME_dist_create, NAME_dist_local_extent,
 * NAME_dist_run, NAME_dist_scatter, NAME_dist_gather and NAME_dist_destroy
 * when it is compiled with STENCILC_DIST defined (stencilc_add_library(...
 * DIST)). */
#ifndef STENCILC_DIST_DIST_H
#define STENCILC_DIST_DIST_H

#include <stddef.h>

#include <cuda_runtime.h>
#include <mpi.h>

#include "stencilc/runtime/stencil_info.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum stencilc_dist_status {
  STENCILC_DIST_SUCCESS = 0,
  STENCILC_DIST_INVALID_ARGUMENT = 1, /* null pointer, bad sizes or grid, steps < 0 */
  STENCILC_DIST_CANNOT_SPLIT = 2,     /* the process grid cannot split the global sizes */
  STENCILC_DIST_MPI_ERROR = 3,
  STENCILC_DIST_CUDA_ERROR = 4,
  STENCILC_DIST_NCCL_ERROR = 5,
  STENCILC_DIST_NO_TRANSPORT = 6 /* the transport asked for is not available */
} stencilc_dist_status;

typedef struct stencilc_dist_plan_s *stencilc_dist_plan;

/* NAME_run with its sizes as an array (index order), as the generated
 * wrappers adapt it. */
typedef cudaError_t (*stencilc_dist_run_fn)(void *a, void *b, const int *sizes, int steps,
                                            cudaStream_t stream);

/* NAME_pass with its sizes as an array: `steps` steps in one pass from in
 * into out, in never written (the runtime calls it with the stencil's fused
 * steps only, which every NAME_pass takes). */
typedef cudaError_t (*stencilc_dist_pass_fn)(const void *in, void *out, const int *sizes, int steps,
                                             cudaStream_t stream);

/* NAME_pass_range with its sizes as an array: as NAME_pass, storing only
 * the outermost indices [first, first + count) of out. */
typedef cudaError_t (*stencilc_dist_pass_range_fn)(const void *in, void *out, const int *sizes,
                                                   int first, int count, int steps,
                                                   cudaStream_t stream);

typedef struct stencilc_dist_stencil {
  const stencilc_stencil_info *info; /* dims, radius, boundary, fused steps */
  stencilc_dist_run_fn run;
  size_t element_size;        /* bytes per grid point */
  stencilc_dist_pass_fn pass; /* or NULL: every pass through run */
  /* Or NULL (1D, tensor cores): every pass stores the whole local array. With
   * it (and pass), each pass stores only what the owned block needs, and the
   * overlap stores its interior and bands in place, with no copy back. */
  stencilc_dist_pass_range_fn pass_range;
} stencilc_dist_stencil;

/* Collective over `comm`. `global` holds the dims global sizes (index
 * order); `grid` the ranks along each axis, or NULL / all zeros for
 * MPI_Dims_create's choice (zeros in it are filled the same way). The
 * transport is chosen from the environment variable
 * STENCILC_DIST_TRANSPORT: nccl, cuda-ipc, cuda-mpi, host or auto (unset:
 * auto, NCCL where it loads and every rank has its own GPU, then CUDA IPC
 * where all ranks share one machine, then a CUDA-aware MPI, then MPI
 * through pinned host buffers). The ghosts are r x T x k wide, for one
 * exchange every k passes of the run's T fused steps: k is
 * STENCILC_DIST_PASSES_PER_EXCHANGE (1 to 64), by default 1 with nccl and 2
 * with the other transports (or 1 where the blocks are too thin for 2). */
stencilc_dist_status stencilc_dist_create(const stencilc_dist_stencil *stencil, MPI_Comm comm,
                                          const int *global, const int *grid,
                                          stencilc_dist_plan *plan);

/* Makes this rank's GPU the current device: the rank's index among the
 * ranks of its machine (MPI_COMM_TYPE_SHARED of `comm`) modulo the
 * machine's device count, so that on a machine of several GPUs each rank
 * has its own and the nccl, cuda-ipc and cuda-mpi transports run between
 * GPUs; ranks share the GPUs where there are fewer. Call it before
 * anything else that uses CUDA (the plan takes the current device).
 * Collective over `comm`. `device`, where not NULL, receives the device. */
stencilc_dist_status stencilc_dist_use_local_device(MPI_Comm comm, int *device);

/* This rank's local array (ghosts included: what a and b of
 * stencilc_dist_run hold), where its owned block lies in it, the owned
 * sizes, and the owned block's first point in the global grid. Any output
 * pointer may be NULL; each takes dims entries. */
stencilc_dist_status stencilc_dist_local_extent(stencilc_dist_plan plan, int *local,
                                                int *owned_offset, int *owned, int *global_start);

/* `steps` steps of the whole grid, each rank on its local arrays a and b
 * (device memory of the local extent; the result is left in a's owned
 * block; b is scratch). Blocks the host until the last exchange is posted
 * and returns with the work enqueued on `stream`. Collective. */
stencilc_dist_status stencilc_dist_run(stencilc_dist_plan plan, void *a, void *b, int steps,
                                       cudaStream_t stream);

/* From and to rank 0: `global` (host memory, the whole grid; used on rank
 * 0 only) and each rank's owned block of `local` (device memory of the
 * local extent). Collective; synchronous. */
stencilc_dist_status stencilc_dist_scatter(stencilc_dist_plan plan, const void *global,
                                           void *local);
stencilc_dist_status stencilc_dist_gather(stencilc_dist_plan plan, const void *local, void *global);

/* Whether stencilc_dist_run overlaps the interior with the exchange where
 * the decomposition allows it (slabs). By default it does where the
 * transport gains by it: every transport but cuda-ipc, whose exchange costs
 * less than the overlap's redundant work (docs/distributed.md, "Overlap"). */
void stencilc_dist_set_overlap(stencilc_dist_plan plan, int overlap);

/* 1 where stencilc_dist_run overlaps (the setting above, or the default,
 * and a decomposition that allows it), else 0. */
int stencilc_dist_overlaps(stencilc_dist_plan plan);

/* "nccl", "cuda-ipc", "cuda-mpi" or "host". */
const char *stencilc_dist_transport(stencilc_dist_plan plan);

/* Collective, like create: the cuda-ipc transport waits for every rank to
 * close the buffers it opened before freeing its own. */
void stencilc_dist_destroy(stencilc_dist_plan plan);

/* The status as a phrase, and the sentence of this thread's last failure
 * (what could not be split, which call failed and why). */
const char *stencilc_dist_status_string(stencilc_dist_status status);
const char *stencilc_dist_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STENCILC_DIST_DIST_H */
