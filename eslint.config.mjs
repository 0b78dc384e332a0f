import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier';

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        {
          name: 'vscode',
          message:
            'src/analysis, src/service and src/shared must stay free of VS Code: pass what you need in from src/extension.',
        },
      ],
    },
  ],
};

/**
 * The architecture's layers (src/README.md has the picture). Inside src/analysis a layer imports
 * only layers below it: model (with each system's model/) → stats/source → graph/layout/timeline/topology → formats → the
 * systems built on them (ensemble, series, timeseries, pdes, memory, dmv). The service runs the
 * analysis; the extension is VS Code glue that reaches heavy work only through the service and
 * never imports a reader; the webviews see the shared protocol and pure drawing helpers.
 */
const elements = [
  // A system's own data model (pdes/model, memory/model) sits with the profile model: readers fill it.
  { type: 'model', pattern: ['src/analysis/model/**', 'src/analysis/*/model/**'] },
  { type: 'stats', pattern: ['src/analysis/stats/**', 'src/analysis/source/**'] },
  {
    type: 'graph',
    pattern: [
      'src/analysis/graph/**',
      'src/analysis/layout/**',
      'src/analysis/timeline/**',
      'src/analysis/topology/**',
    ],
  },
  { type: 'formats', pattern: 'src/analysis/formats/**' },
  {
    type: 'systems',
    pattern: [
      'src/analysis/ensemble/**',
      'src/analysis/series/**',
      'src/analysis/timeseries/**',
      'src/analysis/pdes/**',
      'src/analysis/memory/**',
      'src/analysis/dmv/**',
    ],
  },
  { type: 'shared', pattern: 'src/shared/**' },
  { type: 'service', pattern: 'src/service/**' },
  { type: 'extension', pattern: 'src/extension/**' },
  { type: 'cli', pattern: 'src/cli/**' },
  { type: 'webview', pattern: 'webview-ui/**' },
];

const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const analysis = ['model', 'stats', 'graph', 'formats', 'systems'];

export const layerPolicies = [
  { from: { element: { type: 'model' } }, allow: to('model') },
  { from: { element: { type: 'stats' } }, allow: to('model', 'stats', 'shared') },
  { from: { element: { type: 'graph' } }, allow: to('model', 'stats', 'graph', 'shared') },
  { from: { element: { type: 'formats' } }, allow: to('model', 'stats', 'graph', 'formats', 'shared') },
  { from: { element: { type: 'systems' } }, allow: to(...analysis, 'shared') },
  // The protocol files name the analysis types they carry; they import no code from it.
  { from: { element: { type: 'shared' } }, allow: to('shared') },
  {
    from: { element: { type: 'shared' } },
    allow: { ...to('model', 'stats', 'graph', 'systems'), dependency: { kind: 'type' } },
  },
  { from: { element: { type: 'service' } }, allow: to(...analysis, 'shared', 'service') },
  // The extension host: no reader (not even a type), and the heavy systems only as types.
  { from: { element: { type: 'extension' } }, allow: to('model', 'stats', 'graph', 'shared', 'service', 'extension') },
  { from: { element: { type: 'extension' } }, allow: { ...to('systems'), dependency: { kind: 'type' } } },
  {
    from: { element: { type: 'extension' } },
    disallow: { to: { file: { path: ['src/service/local-analysis-service.ts', 'src/service/analysis-worker.ts'] } } },
  },
  { from: { element: { type: 'cli' } }, allow: to(...analysis, 'shared', 'service', 'cli') },
  { from: { element: { type: 'webview' } }, allow: to('model', 'stats', 'graph', 'systems', 'shared', 'webview') },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'out/**', 'samples/**/build/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  // The architecture's one hard boundary: the analysis library, the service and the shared protocol never see VS Code.
  { files: ['src/analysis/**', 'src/shared/**', 'src/service/**', 'src/cli/**'], rules: noVscode },
  { files: ['webview-ui/**'], languageOptions: { globals: { ...globals.browser } }, rules: noVscode },
  { files: ['test/integration/**/*.js'], languageOptions: { globals: { ...globals.mocha } } },
  // Layers, machine-checked. Tests and test helpers may reach across layers (they check them).
  {
    files: ['src/**/*.ts', 'src/**/*.tsx', 'webview-ui/**/*.ts', 'webview-ui/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/test-*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/include': ['src/**/*', 'webview-ui/**/*'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies: layerPolicies }],
    },
  },
  // Layout is Prettier's (`npm run lint` checks it): no ESLint rule may disagree with it.
  prettier,
);
