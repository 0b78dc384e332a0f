import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileModuleMap, parseModuleRules } from './module-map';

describe('module map', () => {
  it('matches exact names, regexes on names, files and load modules; first match wins', () => {
    const map = compileModuleMap([
      { match: 'name', pattern: 'MPI_Init', module: 'Setup' },
      { match: 'name', pattern: '/^mpi_/i', module: 'MPI' },
      { match: 'file', pattern: '/\\/hypre\\/struct_mv\\//', module: 'Hypre-struct_mv' },
      { match: 'module', pattern: '/libc\\.so/', module: 'libc' },
    ]);
    assert.equal(map.moduleOf('MPI_Init', null, null), 'Setup');
    assert.equal(map.moduleOf('MPI_Allreduce', null, null), 'MPI');
    assert.equal(map.moduleOf('hypre_Matvec', '/src/hypre/struct_mv/matvec.c', null), 'Hypre-struct_mv');
    assert.equal(map.moduleOf('memcpy', null, '/lib/x86_64/libc.so.6'), 'libc');
    assert.equal(map.moduleOf('main', 'main.c', 'a.out'), null);
    assert.equal(map.moduleOf('MPI_Init_thread', null, null), 'MPI', 'exact patterns are not prefixes');
    assert.equal(map.usesFile, true);
  });

  it('ignores global and sticky flags, which would make matching depend on call order', () => {
    const map = compileModuleMap([{ match: 'name', pattern: '/^a/g', module: 'A' }]);
    assert.equal(map.moduleOf('abc', null, null), 'A');
    assert.equal(map.moduleOf('abc', null, null), 'A');
  });

  it('validates untyped rules, keeping the good ones and naming what is wrong', () => {
    const { rules, problems } = parseModuleRules([
      { match: 'name', pattern: '/^MPI_/', module: ' MPI ' },
      { match: 'path', pattern: 'x', module: 'X' },
      { match: 'name', pattern: '/(/', module: 'Y' },
      { match: 'file', pattern: '', module: 'Z' },
      'MPI',
    ]);
    assert.deepEqual(rules, [{ match: 'name', pattern: '/^MPI_/', module: 'MPI' }]);
    assert.equal(problems.length, 4);
    assert.match(problems[0]!, /rule 2: "match" must be one of name, file, module, not "path"/);
    assert.match(problems[1]!, /rule 3: invalid regular expression \/\(\//);
    assert.match(problems[2]!, /rule 4: "pattern" must be a non-empty string/);
    assert.match(problems[3]!, /rule 5 is not an object/);
    assert.deepEqual(parseModuleRules({ MPI: ['MPI_Send'] }).problems, [
      'the module map must be an array of {match, pattern, module} objects',
    ]);
    assert.deepEqual(parseModuleRules(undefined), { rules: [], problems: [] });
  });
});
