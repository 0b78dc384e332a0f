import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_TRACE_ANALYSIS_OPTIONS } from './model/options';
import { makeClassifier, nameMatcher, routineName, SemanticClass } from './semantic-class';

describe('semantic classes (Table 1)', () => {
  const c = makeClassifier(DEFAULT_TRACE_ANALYSIS_OPTIONS);

  it('read PMPI_ as MPI_, without load-module suffixes or Fortran underscores', () => {
    assert.equal(routineName('PMPI_Recv [libmpi.so.12.1.1]'), 'mpi_recv');
    assert.equal(routineName('mpi_allreduce_'), 'mpi_allreduce');
    assert.equal(c.classOf('PMPI_Recv [libmpi.so.12.1.1]'), SemanticClass.Wait);
    assert.equal(c.classOf('mpi_barrier_'), SemanticClass.Sync);
    assert.equal(c.classOf('MPI_Waitall'), SemanticClass.Wait, 'MPI_Wait* is a prefix');
    assert.equal(c.classOf('MPI_Reduce_scatter_block'), SemanticClass.Sync);
    assert.equal(c.classOf('__kmpc_barrier'), SemanticClass.Sync);
    assert.equal(c.classOf('compute_stencil'), SemanticClass.Computation);
    assert.equal(c.classOf('MPI_Init'), SemanticClass.Computation);
  });

  it('mark runtime frames (the outermost one is a leaf of the analysis)', () => {
    assert.ok(c.isRuntime('MPI_Init'));
    assert.ok(c.isRuntime('PMPI_Finalize [libmpi.so]'));
    assert.ok(c.isRuntime('GOMP_parallel'));
    assert.ok(c.isRuntime('cudaDeviceSynchronize'), 'a wait routine is a runtime frame');
    assert.ok(!c.isRuntime('mpich_helper'), 'MPI_ keeps its underscore as a prefix');
    assert.ok(!c.isRuntime('main'));
  });

  it('configurable lists', () => {
    const m = nameMatcher(['my_sync', 'lock_*']);
    assert.ok(m('MY_SYNC') && m('lock_acquire') && !m('unlock'));
    const k = makeClassifier({ syncNames: ['my_sync'], waitNames: [], runtimePrefixes: [] });
    assert.equal(k.classOf('my_sync'), SemanticClass.Sync);
    assert.equal(k.classOf('MPI_Recv'), SemanticClass.Computation);
  });
});
