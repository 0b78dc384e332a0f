import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProfileReadError } from '../reader';
import { codesLpTypes, looksLikeCodesConfig, numericParam, parseCodesConfig } from './codes-config';
import { parseCommandLine, parseRossCsv } from './ross-csv';

const HEADER =
  'total_pe,total_kp,total_lp,end_ts,mapping,events_processed,events_rb,eff,rb_total,rb_primary,rb_secondary,total_time';

describe('ross.csv', () => {
  it('reads the latest row by column name', () => {
    const s = parseRossCsv(
      'ross.csv',
      `${HEADER}\n2,8,32,2000.00,linear,1000,100,80.00,30,20,10,0.5\n2,8,32,2000.00,linear,79292,15172,76.34,2898,2365,533,0.06\n`,
    );
    assert.equal(s.rows, 2);
    assert.deepEqual(
      [s.totalPe, s.totalKp, s.totalLp, s.eventsProcessed, s.rollbacks, s.primaryRollbacks, s.secondaryRollbacks],
      [2, 8, 32, 79292, 2898, 2365, 533],
    );
    assert.equal(s.mapping, 'linear');
    assert.equal(s.efficiency, 76.34);
    assert.equal(s.values.total_time, 0.06);
  });

  it('names the analysis-LP columns ROSS prints without a header', () => {
    const s = parseRossCsv(
      'ross.csv',
      `${HEADER}\n4,64,180,4.3e14,model defined,132578,100193,-209.38,17224,6819,10405,17.6,130628,98627,32001,-208.20,1950,1566,384,-307.81\n`,
    );
    assert.equal(s.columns.length, 12 + 8);
    assert.equal(s.values.model_nevent_proc, 130628);
    assert.equal(s.values.alp_eff, -307.81);
  });

  it('names the column a header lacks or a row has no value for', () => {
    assert.throws(
      () => parseRossCsv('run/ross.csv', 'total_pe,total_kp,total_lp,mapping,events_processed\n1,1,1,linear,5\n'),
      (e: Error) =>
        e instanceof ProfileReadError && /^run\/ross\.csv: the header has no column "events_rb"/.test(e.message),
    );
    assert.throws(
      () => parseRossCsv('ross.csv', `${HEADER}\n2,8,32,2000.00,linear,79292,15172,76.34,2898\n`),
      /line 2: no value for column "rb_primary"/,
    );
    assert.throws(
      () => parseRossCsv('ross.csv', `${HEADER}\n2,8,32,2000.00,linear,x,15172,76.34,2898,2365,533,0.06\n`),
      /line 2: column "events_processed" is not a number \("x"\)/,
    );
    assert.throws(() => parseRossCsv('ross.csv', `${HEADER}\n`), /no data row/);
  });
});

describe('ROSS command line', () => {
  it('separates launcher, program, options and arguments', () => {
    const c = parseCommandLine(
      'mpirun -np 4 model-net-synthetic-dragonfly-all --synch=3 --traffic=1 --lp-io-dir=lp-io -- dfdally_72.conf\n',
    );
    assert.equal(c.program, 'model-net-synthetic-dragonfly-all');
    assert.deepEqual(c.options, { synch: '3', traffic: '1', 'lp-io-dir': 'lp-io' });
    assert.deepEqual(c.args, ['dfdally_72.conf']);
    assert.equal(c.ranks, 4);
    assert.equal(parseCommandLine('srun -n 16 ./phold --synch=3').ranks, 16);
    assert.equal(parseCommandLine('ross/build/models/phold/phold --synch=3 --quiet').program, 'phold');
    assert.equal(parseCommandLine('./phold --quiet').options.quiet, 'true');
    assert.equal(parseCommandLine('./phold --quiet').ranks, undefined);
  });
});

const DFDALLY = `LPGROUPS
{
   MODELNET_GRP
   {
      repetitions="36";
# name of this lp changes according to the model
      nw-lp="2";
      modelnet_dragonfly_dally="2";
      modelnet_dragonfly_dally_router="1";
   }
}
PARAMS
{
   packet_size="4096";
   modelnet_order=( "dragonfly_dally","dragonfly_dally_router" );
   num_routers="4";
   num_groups="9";
   intra-group-connections="codes/src/network-workloads/conf/dragonfly-dally/dfdally-72-intra";
}
`;

describe('CODES config', () => {
  it('parses sections, values and lists', () => {
    const c = parseCodesConfig('dfdally_72.conf', DFDALLY);
    assert.deepEqual(c.lpGroups, [
      {
        name: 'MODELNET_GRP',
        repetitions: 36,
        types: [
          { name: 'nw-lp', count: 2 },
          { name: 'modelnet_dragonfly_dally', count: 2 },
          { name: 'modelnet_dragonfly_dally_router', count: 1 },
        ],
      },
    ]);
    assert.deepEqual(c.params.get('modelnet_order'), ['dragonfly_dally', 'dragonfly_dally_router']);
    assert.equal(numericParam(c, 'num_groups'), 9);
    assert.ok(Number.isNaN(numericParam(c, 'missing')));
    assert.ok(looksLikeCodesConfig(DFDALLY));
    assert.ok(!looksLikeCodesConfig('# LPGROUPS {\nfoo'));
  });

  it('numbers LPs group by group, repetition by repetition, type by type', () => {
    const { names, typeOfLp } = codesLpTypes(parseCodesConfig('x.conf', DFDALLY));
    assert.equal(typeOfLp.length, 180);
    const name = (gid: number) => names[typeOfLp[gid]!];
    assert.deepEqual([0, 1, 2, 3, 4, 5, 9, 179].map(name), [
      'nw-lp',
      'nw-lp',
      'modelnet_dragonfly_dally',
      'modelnet_dragonfly_dally',
      'modelnet_dragonfly_dally_router',
      'nw-lp',
      'modelnet_dragonfly_dally_router',
      'modelnet_dragonfly_dally_router',
    ]);
  });

  it('names the line of a syntax error', () => {
    assert.throws(
      () => parseCodesConfig('a.conf', 'PARAMS\n{\n  x="1";\n  y\n}\n'),
      /a\.conf: line 4: expected "\{" or "=" after y/,
    );
    assert.throws(() => parseCodesConfig('a.conf', 'PARAMS\n{\n  x="1;\n}\n'), /line 3: unterminated string/);
    assert.throws(
      () => parseCodesConfig('a.conf', 'LPGROUPS { G { repetitions="two"; } }'),
      /repetitions is not a count/,
    );
  });
});
