import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CaliLine } from './cali-line';

function entries(text: string): [string, string[]][] {
  const line = new CaliLine();
  line.parse(text);
  return Array.from({ length: line.keyCount }, (_, k) => [
    line.key(k),
    Array.from({ length: line.count(k) }, (_, j) => line.value(k, j)),
  ]);
}

describe('.cali line', () => {
  it('splits entries and multi-valued keys', () => {
    assert.deepEqual(entries('__rec=ctx,ref=33=80,attr=66=69,data=0.3=1'), [
      ['__rec', ['ctx']],
      ['ref', ['33', '80']],
      ['attr', ['66', '69']],
      ['data', ['0.3', '1']],
    ]);
    assert.deepEqual(entries('__rec=globals,flag,empty='), [
      ['__rec', ['globals']],
      ['flag', []],
      ['empty', ['']],
    ]);
  });

  it('unescapes \\, \\= \\\\ and \\n the way Caliper does, in both parse paths', () => {
    assert.deepEqual(entries('data=a\\,b\\=c\\\\d\\ne=x,parent=3'), [
      ['data', ['a,b=c\\d\ne', 'x']],
      ['parent', ['3']],
    ]);
    assert.deepEqual(entries('k=\\,,x'), [
      ['k', [',']],
      ['x', []],
    ]);
    assert.deepEqual(entries('k=v\\'), [['k', ['v']]], 'a trailing backslash escapes nothing');
  });

  it('reads ids', () => {
    const line = new CaliLine();
    line.parse('ref=42=x=007');
    assert.deepEqual([line.id(0, 0), line.id(0, 1), line.id(0, 2)], [42, -1, 7]);
  });

  it('reuses its arrays from line to line', () => {
    const line = new CaliLine();
    line.parse('a=1=2=3,b=4');
    line.parse('c=5');
    assert.equal(line.keyCount, 1);
    assert.equal(line.single('c'), '5');
    assert.equal(line.single('a'), null);
  });
});
