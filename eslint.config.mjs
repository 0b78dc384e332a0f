import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import prettier from 'eslint-config-prettier';

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        {
          name: 'vscode',
          message: 'src/analysis and src/shared must stay free of VS Code: pass what you need in from src/extension.',
        },
      ],
    },
  ],
};

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
  // The architecture's one hard boundary: the analysis library and the shared protocol never see VS Code.
  { files: ['src/analysis/**', 'src/shared/**', 'src/cli/**'], rules: noVscode },
  { files: ['webview-ui/**'], languageOptions: { globals: { ...globals.browser } }, rules: noVscode },
  { files: ['test/integration/**/*.js'], languageOptions: { globals: { ...globals.mocha } } },
  // Layout is Prettier's (`npm run lint` checks it): no ESLint rule may disagree with it.
  prettier,
);
