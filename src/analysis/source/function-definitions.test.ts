import assert from 'node:assert/strict';
import { it } from 'node:test';
import { bareFunctionName, findFunctionDefinition } from './function-definitions';

const c = `#include <stdio.h>
static double sweep(double *u, int n);   /* prototype */

static double
sweep(double *u, int n)
{
  return u[0] + sweep_helper(n);
}

int main(int argc, char **argv) {
  double r = sweep(0, 1);
  return 0;
}
void halo_exchange(struct grid *g,
                   int rank)
{
}
`;

it('finds C definitions, not prototypes or calls', () => {
  assert.equal(findFunctionDefinition(c, 'sweep'), 4);
  assert.equal(findFunctionDefinition(c, 'main'), 9);
  assert.equal(findFunctionDefinition(c, 'halo_exchange'), 13);
  assert.equal(findFunctionDefinition(c, 'sweep_helper'), -1);
  assert.equal(findFunctionDefinition(c, 'printf'), -1);
});

it('finds Python and Fortran definitions', () => {
  assert.equal(findFunctionDefinition('x = 1\ndef step(a):\n  pass\n', 'step'), 1);
  assert.equal(findFunctionDefinition('program p\nend\n  SUBROUTINE Jacobi(u)\n', 'jacobi'), 2);
});

it('prefers the definition enclosing a known line', () => {
  const two = 'int f(void) {\n}\nint f(int x) {\n  return x;\n}\n';
  assert.equal(findFunctionDefinition(two, 'f', 3), 2);
  assert.equal(findFunctionDefinition(two, 'f', 0), 0);
});

it('reduces decorated names to identifiers', () => {
  assert.equal(bareFunctionName('ns::Solver<double>::step(int) const'), 'step');
  assert.equal(bareFunctionName('void *alloc'), 'alloc');
  assert.equal(bareFunctionName('jacobi_sweep'), 'jacobi_sweep');
});

it('puts the lens on the line with the name past attributes, storage classes and return types', () => {
  const attrs = [
    '__attribute__((noinline)) static void mailbox_wait(struct mailbox *box, int state)',
    '{',
    '}',
    '__attribute__((noinline, hot)) static',
    'void barrier_wait(void)',
    '{',
    '}',
    '[[nodiscard]] static inline int',
    'count_cells(const grid *g) {',
    '}',
    '__attribute__((noinline)) static void prototype_only(void);',
  ].join('\n');
  assert.equal(findFunctionDefinition(attrs, 'mailbox_wait', 1), 0);
  assert.equal(findFunctionDefinition(attrs, 'barrier_wait', 5), 4);
  assert.equal(findFunctionDefinition(attrs, 'count_cells'), 8);
  assert.equal(findFunctionDefinition(attrs, 'prototype_only'), -1);
});

it('finds Rust and Go definitions', () => {
  const rust = 'use std::io;\n\npub(crate) async unsafe fn step<T>(x: T) {\n}\nfn main() {\n    step(1);\n}\n';
  assert.equal(findFunctionDefinition(rust, 'solver::step::h0123456789abcdef'), 2);
  assert.equal(findFunctionDefinition(rust, 'main'), 4);
  const go = 'package main\n\nfunc (s *Solver) Step(n int) {\n}\n\nfunc main() {\n\ts.Step(1)\n}\n';
  assert.equal(findFunctionDefinition(go, 'main.(*Solver).Step'), 2);
  assert.equal(findFunctionDefinition(go, 'main.main'), 5);
});

it('reads compiler clones and outlined regions as their function', () => {
  assert.equal(bareFunctionName('jacobi_sweep.cold'), 'jacobi_sweep');
  assert.equal(bareFunctionName('halo.isra.0'), 'halo');
  assert.equal(bareFunctionName('main._omp_fn.1'), 'main');
});
