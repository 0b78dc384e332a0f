import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NodeKind } from '../../model/call-tree';
import { callpathParts, describeTimer, isCallpath, timerKey } from './timer-name';

describe('TAU timer names', () => {
  it('separates the name from source locations, language markers and sampling tags', () => {
    const cases: [string, Partial<ReturnType<typeof describeTimer>>][] = [
      ['MPI_Init()  ', { name: 'MPI_Init()', kind: NodeKind.Function, file: null, line: null, samplingTag: null }],
      ['.TAU application', { name: '.TAU application', file: null }],
      [
        'main [{/home/u/mm/matmult.c} {219,0}]',
        { name: 'main', file: '/home/u/mm/matmult.c', line: 219, endLine: null },
      ],
      [
        'void compute() C [{matmult.c} {60,1}-{75,1}]',
        { name: 'void compute()', file: 'matmult.c', line: 60, endLine: 75 },
      ],
      [
        'Loop: void compute() C [{matmult.c} {105,5}-{112,5}]',
        { name: 'Loop: void compute()', kind: NodeKind.Loop, line: 105 },
      ],
      [
        '[SAMPLE] __poll_nocancel [{/usr/src/io/syscall.S} {81}]',
        { name: '[SAMPLE] __poll_nocancel', kind: NodeKind.Statement, line: 81, samplingTag: 'SAMPLE' },
      ],
      [
        '[UNWIND] /usr/src/io/syscall.S.81 [@] poll_dispatch [{/src/poll.c} {165}]',
        { name: '[UNWIND] poll_dispatch', file: '/src/poll.c', line: 165, samplingTag: 'UNWIND' },
      ],
      ['[UNWIND] /a/b.c.12 [@] foo libfoo.so', { name: '[UNWIND] foo', module: 'libfoo.so', file: null }],
      [
        '[CONTEXT]  progress_engine [{opal_progress_threads.c} {0, 0}]',
        { name: '[CONTEXT] progress_engine', kind: NodeKind.Region, file: 'opal_progress_threads.c', line: null },
      ],
      ['[{only.c} {3}]', { name: '[{only.c} {3}]', file: 'only.c', line: 3 }],
      ['計算 [{/src/ü.c} {7,1}]', { name: '計算', file: '/src/ü.c', line: 7 }],
    ];
    for (const [timer, expected] of cases) {
      const d = describeTimer(timer);
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(d[k as keyof typeof d], v, `${timer}: ${k}`);
    }
  });

  it('splits call paths and normalises their padding', () => {
    const name = '.TAU application => MPI_Finalize()   => MPI_Info_create()';
    assert.ok(isCallpath(name));
    assert.deepEqual(callpathParts(name), ['.TAU application', 'MPI_Finalize()', 'MPI_Info_create()']);
    assert.equal(timerKey(name), '.TAU application => MPI_Finalize() => MPI_Info_create()');
    assert.equal(timerKey('MPI_Finalize()  '), 'MPI_Finalize()');
    assert.ok(!isCallpath('operator=>x'));
    assert.ok(!isCallpath('[SAMPLE] f [{a.c} {1}]'));
  });
});
