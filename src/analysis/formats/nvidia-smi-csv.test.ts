import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseTimestamp, readNvidiaSmiCsv } from './nvidia-smi-csv';
import { ProfileReadError } from './reader';

const dir = mkdtempSync(join(tmpdir(), 'nvidia-smi-csv-'));
let seq = 0;
const write = (text: string) => {
  const p = join(dir, `m${seq++}.csv`);
  writeFileSync(p, text);
  return p;
};

describe('nvidia-smi --format=csv', () => {
  it('reads one series per GPU and numeric column, with units, skipping text and N/A', async () => {
    const path = write(
      [
        'timestamp, index, name, utilization.gpu [%], memory.used [MiB], power.draw [W], pstate',
        '2024/01/15 10:00:00.500, 0, NVIDIA A100-SXM4-40GB, 45 %, 1234 MiB, [N/A], P0',
        '2024/01/15 10:00:00.500, 1, NVIDIA A100-SXM4-40GB, 5 %, 10 MiB, 61.2 W, P0',
        '2024/01/15 10:00:00.000, 0, NVIDIA A100-SXM4-40GB, 40 %, 1200 MiB, 60.5 W, P0',
        'garbage, 0, x, 1 %, 1 MiB, 1 W, P0',
      ].join('\n'),
    );
    const s = await readNvidiaSmiCsv(path);
    assert.equal(s.badRows, 1);
    assert.deepEqual(
      s.series.map(x => `${x.gpu}:${x.metric}:${x.unit}:${x.value.join('/')}`),
      [
        '0:utilization.gpu:%:40/45',
        '0:memory.used:MiB:1200/1234',
        '0:power.draw:W:60.5',
        '1:utilization.gpu:%:5',
        '1:memory.used:MiB:10',
        '1:power.draw:W:61.2',
      ],
    );
    const t0 = Date.UTC(2024, 0, 15, 10, 0, 0);
    assert.deepEqual(Array.from(s.series[0]!.epochMs), [t0, t0 + 500]);
    const local = await readNvidiaSmiCsv(path, { utcOffsetMinutes: 60 });
    assert.equal(local.series[0]!.epochMs[0], t0 - 3_600_000);
  });

  it('reads DMVis’ files: ns timestamps and underscore names', async () => {
    const s = await readNvidiaSmiCsv(
      write('timestamp, temperature_gpu, utilization_gpu\n1665130859384764000, 41, 87\n1665130859884764000, 42, 90\n'),
    );
    assert.deepEqual(
      s.series.map(x => x.metric),
      ['temperature_gpu', 'utilization_gpu'],
    );
    assert.equal(s.series[0]!.epochMs[1]! - s.series[0]!.epochMs[0]!, 500);
  });

  it('a file without a timestamp column is an error naming the file', async () => {
    const noHeader = write('0, 45 %, 1234 MiB\n1, 5 %, 10 MiB\n');
    await assert.rejects(
      readNvidiaSmiCsv(noHeader),
      (e: unknown) => e instanceof ProfileReadError && e.path === noHeader && /no "timestamp" column/.test(e.reason),
    );
    await assert.rejects(
      readNvidiaSmiCsv(join(dir, 'absent.csv')),
      (e: unknown) => e instanceof ProfileReadError && /absent\.csv: no such file or directory$/.test(e.message),
    );
    const empty = write('\n\n');
    await assert.rejects(readNvidiaSmiCsv(empty), (e: unknown) => e instanceof ProfileReadError && e.path === empty);
  });

  it('parses timestamps in every unit', () => {
    const ms = Date.UTC(2022, 9, 7, 8, 20, 59, 384);
    assert.equal(parseTimestamp('2022/10/07 08:20:59.384'), ms);
    assert.equal(parseTimestamp('2022-10-07T08:20:59.384Z'), ms);
    assert.equal(parseTimestamp(String(ms * 1e6)), ms);
    assert.equal(parseTimestamp(String(ms * 1e3)), ms);
    assert.equal(parseTimestamp(String(ms)), ms);
    assert.equal(parseTimestamp(String(ms / 1e3)), ms);
    assert.ok(Number.isNaN(parseTimestamp('soon')));
  });
});
