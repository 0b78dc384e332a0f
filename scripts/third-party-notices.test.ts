import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Source files of the product (what esbuild bundles), tests left out. */
function productSources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) productSources(p, out);
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !/^test-/.test(e.name)) out.push(p);
  }
  return out;
}

describe('supply chain', () => {
  it('every package the product imports is a pinned dependency (so npm audit --omit=dev audits it)', () => {
    const imported = new Set<string>();
    for (const file of [...productSources(join(ROOT, 'src')), ...productSources(join(ROOT, 'webview-ui/src'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^'.][^']*)'/gm)) {
        const spec = m[1]!;
        if (spec.startsWith('node:') || builtinModules.includes(spec) || spec === 'vscode') continue;
        imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
    // Type-only packages never reach a bundle.
    const runtime = [...imported].filter(p => !p.startsWith('@types/')).sort();
    assert.ok(runtime.includes('d3') && runtime.includes('sql.js'), runtime.join(', '));
    for (const p of runtime) {
      assert.ok(pkg.dependencies[p], `${p} is bundled but not in "dependencies"`);
      assert.match(pkg.dependencies[p]!, /^\d+\.\d+\.\d+$/, `${p} is pinned`);
    }
    for (const p of Object.keys(pkg.dependencies)) assert.ok(!pkg.devDependencies[p], `${p} is listed twice`);
  });

  it('ThirdPartyNotices.txt holds the licence text of every bundled package', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'notices-')), 'ThirdPartyNotices.txt');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/third-party-notices.mjs'), out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const text = readFileSync(out, 'utf8');
    for (const [name, version] of Object.entries(pkg.dependencies))
      assert.ok(text.includes(`\n${name} ${version} `), `${name} ${version} has a section`);
    // Transitive dependencies too, and their licence texts.
    assert.match(text, /\nd3-array \d/);
    assert.match(text, /\nscheduler \d/);
    assert.match(text, /Permission to use, copy, modify, and\/or distribute this software/); // ISC (d3)
    assert.match(text, /Copyright \(c\) Meta Platforms, Inc\. and affiliates\./); // react
    assert.match(text, /SQLite is in the public domain/);
    assert.ok(!text.includes('No licence file'), 'every package ships its licence');
  });
});
