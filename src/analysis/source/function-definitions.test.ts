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
