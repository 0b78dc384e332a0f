import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = resolve(__dirname, '..', '..');

/** Lints `code` as if it were the file at `path` (it need not exist) and returns the boundary errors. */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  return result!.messages.filter(m => m.ruleId === 'boundaries/dependencies').map(m => m.message);
}

describe('layer boundaries (eslint-plugin-boundaries in eslint.config.mjs)', () => {
  it('refuses a wrong-way import inside the analysis library', async () => {
    const errors = await boundaryErrors(
      'src/analysis/model/wrong-way.ts',
      "import { readProfile } from '../formats';\nexport const read = readProfile;\n",
    );
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /"model" to elements of type "formats"/);
  });

  it('refuses any import of a reader, or of the in-thread service, from the extension host', async () => {
    const errors = await boundaryErrors(
      'src/extension/wrong-way.ts',
      [
        "import { readProfile } from '../analysis/formats';",
        "import type { ReadOptions } from '../analysis/formats/reader';",
        "import { LocalAnalysisService } from '../service/local-analysis-service';",
        'export const x: [unknown, ReadOptions | undefined, unknown] = [readProfile, undefined, LocalAnalysisService];',
      ].join('\n'),
    );
    assert.equal(errors.length, 3, errors.join('\n'));
  });

  it('lets each layer import the layers below it, and the extension the service and shared types', async () => {
    assert.deepEqual(
      await boundaryErrors(
        'src/analysis/formats/right-way.ts',
        "import { Profile } from '../model/profile';\nimport { formatValue } from '../stats/format';\nexport const x = [Profile, formatValue];\n",
      ),
      [],
    );
    assert.deepEqual(
      await boundaryErrors(
        'src/extension/right-way.ts',
        [
          "import { WorkerPool } from '../service/worker-pool';",
          "import type { RunLoadError } from '../analysis/ensemble/ensemble-runs';",
          "import { Profile } from '../analysis/model/profile';",
          'export const x: [unknown, unknown, RunLoadError | undefined] = [WorkerPool, Profile, undefined];',
        ].join('\n'),
      ),
      [],
    );
  });

  it('keeps the systems out of the extension except as types', async () => {
    const errors = await boundaryErrors(
      'src/extension/wrong-way.ts',
      "import { EnsembleProfile } from '../analysis/ensemble/ensemble-profile';\nexport const x = EnsembleProfile;\n",
    );
    assert.equal(errors.length, 1, errors.join('\n'));
  });

  it("lets the protocol files name the systems' result types, never import their code", async () => {
    assert.deepEqual(
      await boundaryErrors(
        'src/shared/right-way.ts',
        "import type { PdesViews } from '../analysis/pdes/panel-views';\nexport type X = PdesViews;\n",
      ),
      [],
    );
    const errors = await boundaryErrors(
      'src/shared/wrong-way.ts',
      "import { pdesViews } from '../analysis/pdes/panel-views';\nexport const x = pdesViews;\n",
    );
    assert.equal(errors.length, 1, errors.join('\n'));
  });
});
