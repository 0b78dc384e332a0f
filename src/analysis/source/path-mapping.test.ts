import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyMappings,
  compileMappings,
  isPseudoPath,
  mappingForAnswer,
  normalizePath,
  rankSuffixMatches,
  withMapping,
} from './path-mapping';

const WS = { workspaceFolder: '/home/me/heat', 'workspaceFolder:heat': '/home/me/heat' };
const apply = (recorded: string, raw: unknown) => {
  const { mappings, errors } = compileMappings(raw, WS);
  assert.deepEqual(errors, []);
  return applyMappings(recorded, mappings);
};

describe('path mappings', () => {
  it('replaces a prefix only at a path-component boundary and substitutes ${workspaceFolder}', () => {
    const maps = [{ from: '/scratch/user/other', to: '${workspaceFolder}/src' }];
    assert.deepEqual(apply('/scratch/user/other/stencil.c', maps), ['/home/me/heat/src/stencil.c']);
    assert.deepEqual(apply('/scratch/user/otherwise/stencil.c', maps), []);
    assert.deepEqual(apply('/scratch/user/other', maps), ['/home/me/heat/src']);
    assert.deepEqual(
      apply('/scratch/user/other/x.c', [{ from: '/scratch/user/other/', to: '/w//src/' }]),
      ['/w/src/x.c'],
      'trailing and doubled slashes do not matter',
    );
    assert.deepEqual(apply('/a/b.c', [{ from: '/', to: '/mnt' }]), ['/mnt/a/b.c']);
    assert.deepEqual(apply('/x/y.c', [{ from: '/x', to: '${workspaceFolder:heat}/lib' }]), ['/home/me/heat/lib/y.c']);
  });

  it('applies /regex/ mappings with capture groups, and tries longer matches first', () => {
    const maps = [
      { from: '/scratch', to: '/short' },
      { from: '/^\\/scratch\\/[^/]+\\/run\\d+\\/(src|include)\\//', to: '${workspaceFolder}/$1/' },
    ];
    assert.deepEqual(apply('/scratch/user/run42/src/stencil.c', maps), [
      '/home/me/heat/src/stencil.c',
      '/short/user/run42/src/stencil.c',
    ]);
    assert.deepEqual(apply('/scratch/user/run42/include/grid.h', maps.slice(1)), ['/home/me/heat/include/grid.h']);
    assert.deepEqual(
      apply('/SCRATCH/u/run1/src/a.c', [{ from: '/^\\/scratch\\/[^/]+\\/run\\d+/i', to: '/w' }]),
      ['/w/src/a.c'],
      'the i flag',
    );
    assert.deepEqual(apply('/home/x/run1/src/a.c', maps), []);
  });

  it('keeps a $ in a substituted folder literal inside a regex replacement', () => {
    const { mappings } = compileMappings([{ from: '/^\\/s\\/(.*)$/', to: '${workspaceFolder}/$1' }], {
      workspaceFolder: '/w$1x',
    });
    assert.deepEqual(applyMappings('/s/a.c', mappings), ['/w$1x/a.c']);
  });

  it('treats /a/b/ without regex metacharacters, or an invalid regex, as a path prefix', () => {
    assert.deepEqual(apply('/opt/app/x.c', [{ from: '/opt/app/', to: '/w' }]), ['/w/x.c']);
    const { mappings, errors } = compileMappings([{ from: '/opt/c++/', to: '/w' }], WS);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /used as a path prefix/);
    assert.deepEqual(applyMappings('/opt/c++/x.cc', mappings), ['/w/x.cc']);
  });

  it('skips malformed entries and unknown variables with a message', () => {
    const { mappings, errors } = compileMappings(
      [{ from: '/a' }, 'x', null, { from: '', to: '/b' }, { from: '/c', to: '${nope}/d' }, { from: '/e', to: '/f' }],
      {},
    );
    assert.equal(mappings.length, 1);
    assert.equal(errors.length, 5);
    assert.match(errors[4]!, /unknown variable \$\{nope\}/);
    assert.deepEqual(compileMappings({ from: '/a', to: '/b' }, {}).mappings, []);
    assert.deepEqual(compileMappings(undefined, {}), { mappings: [], errors: [] });
    assert.match(
      compileMappings([{ from: '/a', to: '${workspaceFolder}' }], {}).errors[0]!,
      /workspaceFolder/,
      'no folder open',
    );
  });

  it('normalises Windows separators', () => {
    assert.equal(normalizePath('C:\\build\\src\\'), 'C:/build/src');
    assert.deepEqual(apply('C:\\build\\src\\a.c', [{ from: 'C:/build', to: '/w' }]), ['/w/src/a.c']);
  });
});

describe('suffix ranking', () => {
  it('picks the candidate sharing the longest trailing path', () => {
    const c = ['/ws/test/a.c', '/ws/src/a.c', '/ws/other/src/a.c.bak'];
    assert.deepEqual(rankSuffixMatches('/home/hpc/app/src/a.c', c), { kind: 'unique', path: '/ws/src/a.c', length: 2 });
    assert.deepEqual(rankSuffixMatches('/p/b.c', c), { kind: 'none' });
    assert.deepEqual(rankSuffixMatches('C:\\build\\src\\a.c', c), { kind: 'unique', path: '/ws/src/a.c', length: 2 });
  });

  it('reports a tie on the longest suffix as ambiguous instead of guessing', () => {
    const r = rankSuffixMatches('/scratch/run42/src/stencil.c', [
      '/ws/src/stencil.c',
      '/other/src/stencil.c',
      '/x/stencil.c',
    ]);
    assert.deepEqual(r, { kind: 'ambiguous', paths: ['/ws/src/stencil.c', '/other/src/stencil.c'], length: 2 });
    assert.equal(rankSuffixMatches('a.c', ['/x/y/a.c', '/x/a.c']).kind, 'ambiguous');
    assert.equal(
      rankSuffixMatches('/s/a.c', ['/w/a.c', '/w/a.c']).kind,
      'unique',
      'the same file found twice is one candidate',
    );
  });
});

describe('pseudo paths', () => {
  it('recognises names that are no source file', () => {
    for (const p of ['<unknown file>', '[vdso]', '??', ' ']) assert.equal(isPseudoPath(p), true, p);
    for (const p of ['/a/b.c', 'b.c', '/x/<y>.c']) assert.equal(isPseudoPath(p), false, p);
  });
});

describe('remembering an answer', () => {
  it('maps folder to folder when the names agree, file to file otherwise, relative to the workspace folder', () => {
    assert.deepEqual(mappingForAnswer('/scratch/run42/src/stencil.c', '/home/me/heat/src/stencil.c', '/home/me/heat'), {
      from: '/scratch/run42/src',
      to: '${workspaceFolder}/src',
    });
    assert.deepEqual(mappingForAnswer('/scratch/run42/stencil.c', '/home/me/heat/stencil.c', '/home/me/heat/'), {
      from: '/scratch/run42',
      to: '${workspaceFolder}',
    });
    assert.deepEqual(mappingForAnswer('/scratch/k.c', '/elsewhere/kernel.c', '/home/me/heat'), {
      from: '/scratch/k.c',
      to: '/elsewhere/kernel.c',
    });
    assert.deepEqual(mappingForAnswer('/scratch/a/k.c', '/home/me/heatwave/k.c', '/home/me/heat'), {
      from: '/scratch/a',
      to: '/home/me/heatwave',
    });
  });

  it('a remembered folder mapping places sibling files', () => {
    const m = mappingForAnswer('/scratch/run42/src/stencil.c', '/home/me/heat/src/stencil.c', '/home/me/heat');
    assert.deepEqual(apply('/scratch/run42/src/halo.c', [m]), ['/home/me/heat/src/halo.c']);
  });

  it('replaces an earlier mapping with the same from', () => {
    const list = withMapping(
      [
        { from: '/a', to: '/old' },
        { from: '/b', to: '/c' },
      ],
      { from: '/a', to: '/new' },
    );
    assert.deepEqual(list, [
      { from: '/a', to: '/new' },
      { from: '/b', to: '/c' },
    ]);
  });
});
