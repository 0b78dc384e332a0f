import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MetadataValue } from '../../model/profile';
import { MetadataMerger, parseTauMetadata } from './tau-metadata';

describe('TAU metadata', () => {
  it('reads the attributes of the <metadata> block, unescaping XML', () => {
    const line =
      '# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Command Line</name><value>./a &lt;in &amp;&amp; x&#233;</value></attribute>' +
      '<attribute><name>TAU_CALLPATH</name><value>on</value></attribute><attribute><name>Empty</name><value></value></attribute></metadata>';
    assert.deepEqual(parseTauMetadata(line), [
      ['Command Line', './a <in && xé'],
      ['TAU_CALLPATH', 'on'],
      ['Empty', ''],
    ]);
    assert.deepEqual(parseTauMetadata('# Name Calls Subrs Excl Incl ProfileCalls #'), []);
    assert.equal(parseTauMetadata('# Name Calls # <metadata><attribute><name>a</name>'), null);
  });

  it('keeps values shared by every file and lists the others per context, briefly', () => {
    const m = new MetadataMerger();
    for (let r = 0; r < 20; r++)
      m.add(`rank ${r}`, [
        ['Hostname', `n${r % 2}`],
        ['OS Name', 'Linux'],
        ...(r === 0 ? [['only0', 'x'] as [string, string]] : []),
      ]);
    const out: Record<string, MetadataValue> = {};
    m.into(out);
    assert.equal(out['OS Name'], 'Linux');
    const hosts = out['Hostname'] as Record<string, MetadataValue>;
    assert.equal(Object.keys(hosts).length, 17);
    assert.equal(hosts['rank 1'], 'n1');
    assert.equal(hosts['…'], '4 more contexts');
    assert.deepEqual(out['only0'], { 'rank 0': 'x' });
  });
});
