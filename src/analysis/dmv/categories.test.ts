import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileCategoryRules, defaultCategory, DmvCategory, eventCategories } from './categories';
import { KinetoTraceWriter } from './testing/kineto-writer';
import { readGenerated } from './testing/read-trace';

describe('DMV categories', () => {
  it('classes Kineto, older Kineto and Nsight categories by cat, case-insensitively', () => {
    const expect: [string, DmvCategory][] = [
      ['gpu_memcpy', DmvCategory.DataMovement],
      ['gpu_memset', DmvCategory.DataMovement],
      ['Memcpy', DmvCategory.DataMovement],
      ['Memset', DmvCategory.DataMovement],
      ['Unified Memory', DmvCategory.DataMovement],
      ['kernel', DmvCategory.GpuCompute],
      ['Kernel', DmvCategory.GpuCompute],
      ['cuda_runtime', DmvCategory.Runtime],
      ['cuda_driver', DmvCategory.Runtime],
      ['Runtime', DmvCategory.Runtime],
      ['CUDA API', DmvCategory.Runtime],
      ['cpu_op', DmvCategory.CpuCompute],
      ['Operator', DmvCategory.CpuCompute],
      ['python_function', DmvCategory.CpuCompute],
      ['user_annotation', DmvCategory.CpuCompute],
      ['Trace', DmvCategory.Ignored],
      ['gpu_user_annotation', DmvCategory.Other],
      ['NVTX', DmvCategory.Other],
    ];
    for (const [cat, c] of expect) assert.equal(defaultCategory(cat), c, cat);
  });

  it('applies user rules first, in order, on cat and/or name, exact or /regex/', async () => {
    const w = new KinetoTraceWriter();
    w.op('ncclAllReduce', 0, 10, 'NVTX');
    w.op('step 3', 10, 10, 'NVTX');
    w.op('Step 4', 20, 10, 'NVTX');
    w.op('aten::mm', 30, 10, 'cpu_op');
    w.launch('cudaLaunchKernel', 40, 5, { kind: 'kernel', ts: 50, dur: 10, name: 'ncclKernel_AllReduce' });
    const p = await readGenerated(w);
    const rules = compileCategoryRules([
      { name: '/^nccl/i', category: 'dataMovement' },
      { cat: 'NVTX', name: '/^step /', category: 'cpuCompute' },
      { cat: 'cpu_op', category: 'ignore' },
    ]);
    assert.deepEqual(rules.errors, []);
    const cats = eventCategories(p.trace!, p.tree.strings, rules);
    const byName = new Map<string, number>();
    p.trace!.events.name.forEach((n, k) => byName.set(p.tree.strings.get(n), cats[k]!));
    assert.equal(byName.get('ncclAllReduce'), DmvCategory.DataMovement);
    assert.equal(byName.get('ncclKernel_AllReduce'), DmvCategory.DataMovement);
    assert.equal(byName.get('step 3'), DmvCategory.CpuCompute);
    assert.equal(byName.get('Step 4'), DmvCategory.Other, 'the regex is case-sensitive without the i flag');
    assert.equal(byName.get('aten::mm'), DmvCategory.Ignored);
    assert.equal(byName.get('cudaLaunchKernel'), DmvCategory.Runtime);
  });

  it('reports unusable rules and keeps the others', () => {
    const r = compileCategoryRules([
      { name: '/([/', category: 'runtime' },
      { category: 'runtime' },
      { cat: 'x', category: 'sometimes' },
      'no',
      { cat: 7, category: 'runtime' },
      { cat: 'ok', category: 'gpuCompute' },
    ]);
    assert.equal(r.rules.length, 1);
    assert.equal(r.errors.length, 5);
    assert.match(r.errors[0]!, /^rule 1: "name" \/\(\[\/ is not a valid regular expression/);
    assert.match(r.errors[1]!, /^rule 2: needs "cat" or "name"/);
    assert.match(
      r.errors[2]!,
      /^rule 3: "category" must be one of dataMovement, gpuCompute, runtime, cpuCompute, ignore/,
    );
    assert.match(compileCategoryRules({}).errors[0]!, /must be an array/);
    assert.deepEqual(compileCategoryRules(undefined), { rules: [], errors: [] });
  });

  it('runs patterns on RE2: a look-ahead is refused with the reason, a nested quantifier matches in linear time', () => {
    const r = compileCategoryRules([
      { name: '/^(?=nccl)/', category: 'dataMovement' },
      { name: '/^(a+)+$/', category: 'runtime' },
    ]);
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0]!, /^rule 1: "name" .* is not a valid regular expression \(.*look/i);
    // 40 a's and a mismatch: JavaScript's backtracking RegExp would take minutes here.
    assert.equal(r.rules[0]!.name!(`${'a'.repeat(40)}!`), false);
  });
});
