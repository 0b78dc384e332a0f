import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DotParser, DotSyntaxError } from './dot-parser';

function parse(text: string): {
  nodes: [string, Record<string, string>][];
  edges: [string, string, Record<string, string>][];
  directed: boolean;
} {
  const nodes: [string, Record<string, string>][] = [];
  const edges: [string, string, Record<string, string>][] = [];
  const p = new DotParser({
    node: (id, attrs) => nodes.push([id, Object.fromEntries(attrs)]),
    edge: (from, to, attrs) => edges.push([from, to, Object.fromEntries(attrs)]),
  });
  for (const line of text.split('\n')) p.feedLine(line);
  p.end();
  return { nodes, edges, directed: p.directed };
}

describe('DOT parser', () => {
  it('reads node and edge statements with attributes, with or without semicolons', () => {
    const g = parse('digraph G {\n  a [label="A\\n1.00%", shape=box]\n  a -> b [label="5×"] b -> "c d"; c\n}');
    assert.equal(g.directed, true);
    assert.deepEqual(
      g.nodes.filter(([, a]) => Object.keys(a).length),
      [['a', { label: 'A\\n1.00%', shape: 'box' }]],
    );
    assert.deepEqual(g.edges, [
      ['a', 'b', { label: '5×' }],
      ['b', 'c d', {}],
    ]);
    assert.deepEqual(
      g.nodes.map(([id]) => id),
      ['a', 'a', 'b', 'b', 'c d', 'c'],
    );
  });

  it('applies node and edge defaults, reads edge chains, ports, graph attributes and subgraphs', () => {
    const g = parse(
      [
        'strict digraph {',
        '  rankdir = LR; graph [fontname=Arial]',
        '  node [color=red]; edge [weight=2]',
        '  x:p1:n -> y -> z [style=bold]',
        '  subgraph cluster_0 { node [color=blue]; w }',
        '  v',
        '}',
      ].join('\n'),
    );
    assert.deepEqual(g.edges, [
      ['x', 'y', { weight: '2', style: 'bold' }],
      ['y', 'z', { weight: '2', style: 'bold' }],
    ]);
    assert.deepEqual(
      g.nodes.filter(([id]) => id === 'w' || id === 'v'),
      [
        ['w', { color: 'blue' }],
        ['v', { color: 'red' }],
      ],
    );
  });

  it('handles escapes, continuations, concatenation, HTML strings, numerals, non-ASCII and comments', () => {
    const g = parse(
      [
        '/* a comment',
        'over lines */ digraph { // a line comment',
        '# a preprocessor line',
        '  "say \\"hi\\"" [label="line one\\',
        'continued" + " and more"]',
        '  -1.5 [label=<<b>bold <i>x</i></b>>]',
        '  größe [label="Größe\\n2.50%"]',
        '}',
      ].join('\n'),
    );
    assert.deepEqual(g.nodes, [
      ['say "hi"', { label: 'line onecontinued and more' }],
      ['-1.5', { label: '<b>bold <i>x</i></b>' }],
      ['größe', { label: 'Größe\\n2.50%' }],
    ]);
  });

  it('keeps newlines inside quoted strings', () => {
    assert.deepEqual(parse('digraph { a [label="x\ny"] }').nodes, [['a', { label: 'x\ny' }]]);
  });

  it('rejects broken graphs with the line', () => {
    const cases: [string, RegExp][] = [
      ['digraph { a -> }', /line 1: an edge without a target/],
      ['digraph {\n a [label="x]\n}', /the file ends inside a quoted string/],
      ['digraph {\n a -> b', /the file ends before the graph's closing "}"/],
      ['node a { }', /not a DOT graph/],
      ['', /no graph/],
      ['digraph { a [label=] }', /attribute "label" has no value/],
      ['digraph { a } b', /text after the end of the graph/],
      ['digraph { a @ b }', /unexpected character "@"/],
      ['digraph { = b }', /unexpected "="/],
      ['digraph { a -> { b } }', /edges to subgraphs are not supported/],
    ];
    for (const [text, reason] of cases)
      assert.throws(
        () => parse(text),
        (e: Error) => e instanceof DotSyntaxError && reason.test(e.message),
        text,
      );
  });
});
