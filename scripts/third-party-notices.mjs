// Writes ThirdPartyNotices.txt: the licence of every package the extension bundles, from the
// packages' own licence files in node_modules. The bundled packages are package.json's
// `dependencies` (esbuild inlines them into dist/; the .vsix ships no node_modules) and,
// transitively, their own `dependencies`. `npm run package` runs this before vsce, and
// .vscodeignore ships the result. Usage: node scripts/third-party-notices.mjs [output path]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const output = resolve(root, process.argv[2] ?? 'ThirdPartyNotices.txt');
const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;
/** What a package's licence file does not say but a notice should. */
const EXTRA = {
  'sql.js':
    'sql.js is SQLite compiled to WebAssembly (dist/sql-wasm.wasm). SQLite is in the public domain: https://sqlite.org/copyright.html',
};

/** The directory of package `name` as Node resolves it from `from` (nested node_modules first). */
function packageDir(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed (run npm install)`);
  }
}

/** Every bundled package (name@version → directory), dependencies first found, sorted by name. */
function bundledPackages() {
  const top = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const found = new Map();
  const queue = Object.keys(top.dependencies ?? {}).map(name => [name, root]);
  while (queue.length) {
    const [name, from] = queue.shift();
    const dir = packageDir(name, from);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const key = `${pkg.name}@${pkg.version}`;
    if (found.has(key)) continue;
    found.set(key, { dir, pkg });
    for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push([dep, dir]);
  }
  return [...found.values()].sort(
    (a, b) => a.pkg.name.localeCompare(b.pkg.name) || a.pkg.version.localeCompare(b.pkg.version),
  );
}

function licenceText({ dir, pkg }) {
  const files = readdirSync(dir)
    .filter(f => LICENCE_FILE.test(f))
    .sort();
  if (files.length === 0) {
    const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
    return `(No licence file in the package. package.json says: licence ${pkg.license ?? 'unknown'}${author ? `, author ${author}` : ''}.)`;
  }
  return files.map(f => readFileSync(join(dir, f), 'utf8').replace(/\r\n/g, '\n').trimEnd()).join('\n\n');
}

const packages = bundledPackages();
const rule = '='.repeat(78);
const parts = [
  'HPC Lens: third-party notices',
  '',
  'HPC Lens bundles code from the open-source packages below into its JavaScript files (dist/):',
  'its production dependencies and theirs (a package the bundler leaves out, such as the command-line',
  'helpers of d3-dsv, is listed all the same). Each comes with its version, its licence as its',
  'package.json states it, and the licence text it ships.',
  '',
  ...packages.map(p => `  ${p.pkg.name} ${p.pkg.version} (${p.pkg.license ?? 'see below'})`),
];
for (const p of packages) {
  const home = p.pkg.homepage ?? (typeof p.pkg.repository === 'string' ? p.pkg.repository : p.pkg.repository?.url);
  parts.push('', rule, `${p.pkg.name} ${p.pkg.version}${home ? ` <${home}>` : ''}`, rule, '', licenceText(p));
  if (EXTRA[p.pkg.name]) parts.push('', EXTRA[p.pkg.name]);
}
writeFileSync(output, parts.join('\n') + '\n');
console.log(`${output}: ${packages.length} packages`);
