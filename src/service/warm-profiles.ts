/**
 * Tiny profiles of the hot readers, read at start-up by warm-up.ts so V8 compiles each reader (and the
 * model build behind it) before the code cache is saved: a process started with that cache then meets
 * every hot reader already compiled, whichever file the run that wrote the cache happened to read.
 * Hand-made in the shapes the real tools write (Caliper json-split and .cali, Hatchet's literal JSON,
 * callgrind, folded stacks, TAU profile.* files with and without call paths, gprof2dot DOT, CUBE3,
 * HPCToolkit's experiment.xml with inline values and with metric-db files, a v4 database with its
 * metric taxonomy); each is a few hundred bytes. A path that real files take and no profile here
 * reaches is compiled afresh in every process that takes it (TAU's nesting inference, hpcprof's
 * taxonomy YAML: 0.5-0.6 ms of a 3-6 ms first read). The binary ones (a Score-P .cubex, an HPCToolkit
 * v4 database with a trace, metric-db files) were written by the test writers (cube/test-cubex.ts,
 * hpctoolkit-metadb/test-db-writer.ts, hpctoolkit-xml/test-database.ts) and are kept gzipped, as
 * base64 (the .cubex is mostly tar padding: 11 KB of base64 before, 0.9 KB gzipped).
 */

/** A binary file's bytes, kept in the bundle gzipped as base64 text and decoded only when written. */
export class WarmBytes {
  constructor(readonly gzipBase64: string) {}
}

/** A file's text or bytes. */
export type WarmFile = string | WarmBytes;

/** A file, or a folder: relative path → file. */
export type WarmProfile = WarmFile | Readonly<Record<string, WarmFile>>;

/**
 * One TAU profile file of rank `rank`, as TAU 2.2x writes it with TAU_CALLPATH, or without it
 * (`callpaths` false: flat timers only, whose nesting the reader infers, tau/flat-nesting.ts).
 */
function tauFile(rank: number, callpaths = true): string {
  const t = (name: string, calls: number, subrs: number, excl: number, incl: number, group: string) =>
    `"${name}" ${calls} ${subrs} ${excl + rank} ${incl + rank} 0 GROUP="${group}" `;
  const timers = [
    t('.TAU application', 1, 6, 40, 100, 'TAU_DEFAULT'),
    t('solve [{/src/a.c} {10,1}-{20,1}]', 2, 0, 59, 59, 'TAU_USER'),
    t('.TAU application => solve [{/src/a.c} {10,1}-{20,1}]', 2, 0, 59, 59, 'TAU_CALLPATH|TAU_USER'),
    t('MPI_Send()', 4, 0, 1, 1, 'MPI'),
    t('.TAU application => MPI_Send()', 4, 0, 1, 1, 'TAU_CALLPATH|MPI'),
  ].filter(line => callpaths || !line.includes(' => '));
  return [
    `${timers.length} templated_functions_MULTI_TIME`,
    '# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>TIME</value>' +
      `</attribute><attribute><name>Node Name</name><value>n${rank}</value></attribute></metadata>`,
    ...timers,
    '0 aggregates',
    '1 userevents',
    '# eventname numevents max min mean sumsqr',
    '"Message size for send" 4 8 8 8 256 ',
    '',
  ].join('\n');
}

/** The start of the two warm experiment.xml files, up to the metric table, and their end (as hpcprof writes them). */
const HPCTOOLKIT_XML_START = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE HPCToolkitExperiment [',
  '<!ELEMENT HPCToolkitExperiment (Header, (SecCallPathProfile|SecFlatProfile)*)>',
  '<!ATTLIST HPCToolkitExperiment version CDATA #REQUIRED>',
  ']>',
  '<HPCToolkitExperiment version="2.1">',
  '<Header n="warm">',
  '  <Info><NV n="launch" v="srun -n 2"/></Info>',
  '</Header>',
  '<SecCallPathProfile i="0" n="warm">',
  '<SecHeader>',
  '  <MetricTable>',
  '    <Metric i="2" n="CPUTIME (usec):Sum (I)" v="derived-incr" t="inclusive" partner="3" show="1" show-percent="1"><Info><NV n="units" v="events"/></Info></Metric>',
  '    <Metric i="3" n="CPUTIME (usec):Sum (E)" v="derived-incr" t="exclusive" partner="2" show="1" show-percent="1"/>',
  '  </MetricTable>',
];
const HPCTOOLKIT_XML_END = ['</SecCallPathProfileData>', '</SecCallPathProfile>', '</HPCToolkitExperiment>', ''];

export const WARM_PROFILES: Readonly<Record<string, WarmProfile>> = {
  'warm.json': JSON.stringify({
    data: [
      [1.5, 0, 0, 2],
      [0.5, 1, 0, 3],
      [2.0, 0, 1, 2],
      [0.25, 1, 1, 3],
    ],
    columns: ['sum#time.duration', 'mpi.rank', 'path', 'sourceloc#cali.sampler.pc'],
    column_metadata: [{ is_value: true }, { is_value: false }, { is_value: false }, { is_value: false }],
    nodes: [
      { label: 'main', column: 'path' },
      { label: 'solve', column: 'path', parent: 0 },
      { label: '/src/a.c:10', column: 'sourceloc#cali.sampler.pc' },
      { label: '/src/a.c:12', column: 'sourceloc#cali.sampler.pc' },
    ],
    'mpi.world.size': 2,
  }),
  'warm-literal.json': JSON.stringify([
    {
      frame: { name: 'main', type: 'function' },
      metrics: { 'time (inc)': 3, time: 1 },
      children: [{ frame: { name: 'solve', type: 'function' }, metrics: { 'time (inc)': 2, time: 2 } }],
    },
  ]),
  'warm.callgrind':
    '# callgrind format\nversion: 1\ncreator: callgrind-3.22.0\npositions: line\nevents: Ir\n' +
    'fl=/src/a.c\nfn=main\n10 5\ncfn=solve\ncalls=1 12\n12 7\nfn=solve\n20 7\ntotals: 19\n',
  'warm.folded': 'main;solve;kernel 10\nmain;io 3\n',
  'warm.cali': [
    '__rec=node,id=24,attr=10,data=588,parent=3',
    '__rec=node,id=27,attr=8,data=cali.channel,parent=24',
    '__rec=node,id=28,attr=27,data=default',
    '__rec=node,id=96,attr=10,data=21,parent=5',
    '__rec=node,id=97,attr=8,data=min#time.duration,parent=96',
    '__rec=node,id=111,attr=8,data=sum#time.duration,parent=96',
    '__rec=node,id=147,attr=10,data=21,parent=1',
    '__rec=node,id=148,attr=8,data=count,parent=147',
    '__rec=node,id=19,attr=10,data=268,parent=3',
    '__rec=node,id=20,attr=8,data=function,parent=19',
    '__rec=node,id=155,attr=20,data=main,parent=28',
    '__rec=ctx,ref=155,attr=97=111=148,data=0.000285=0.025121=2',
    '__rec=node,id=21,attr=8,data=loop,parent=19',
    '__rec=node,id=165,attr=21,data=main.loop,parent=155',
    '__rec=ctx,ref=165,attr=97=111=148,data=0.000004=0.000206=41',
    '__rec=node,id=166,attr=20,data=solve,parent=165',
    '__rec=ctx,ref=166,attr=97=111=148,data=0.000008=0.000102=10',
    '__rec=globals,ref=28',
    '',
  ].join('\n'),
  'warm-tau': { 'profile.0.0.0': tauFile(0), 'profile.1.0.0': tauFile(1) },
  'warm-tau-flat': { 'profile.0.0.0': tauFile(0, false) },
  'warm.dot': [
    'digraph {',
    '\tgraph [fontname=Arial, nodesep=0.125, ranksep=0.25];',
    '\tnode [fontcolor=white, fontname=Arial, height=0, shape=box, style=filled, width=0];',
    '\t1 [color="#ff0000", fontcolor="#ffffff", fontsize="10.00", label="main\\n100.00%\\n(20.00%)\\n1×"];',
    '\t1 -> 2 [arrowsize="1.00", color="#ff0000", fontcolor="#ff0000", fontsize="10.00", label="80.00%\\n3×", penwidth="4.00"];',
    '\t2 [color="#0d0d73", fontcolor="#ffffff", fontsize="10.00", label="a.out\\nsolve(int)\\n80.00%\\n(80.00%)\\n3×"];',
    '}',
    '',
  ].join('\n'),
  // CUBE3 (Score-P's and Scalasca's XML with inline values): the CUBE reader's anchor handler and
  // its build; .cubex archives share both.
  'warm.cube': [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<cube version="3.0">',
    '<metrics>',
    '<metric id="0"><disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>FLOAT</dtype><uom>sec</uom><url></url><descr>time</descr></metric>',
    '<metric id="1"><disp_name>Visits</disp_name><uniq_name>visits</uniq_name><dtype>INTEGER</dtype><uom>occ</uom><url></url><descr>visits</descr></metric>',
    '</metrics>',
    '<program>',
    '<region id="0" mod="/src/a.c" begin="1" end="30"><name>main</name><mangled_name>main</mangled_name><paradigm>user</paradigm><role>function</role><url></url><descr></descr></region>',
    '<region id="1" mod="MPI" begin="-1" end="-1"><name>MPI_Send</name><mangled_name>MPI_Send</mangled_name><paradigm>mpi</paradigm><role>function</role><url></url><descr></descr></region>',
    '<cnode id="0" line="1" calleeId="0">',
    '<cnode id="1" line="12" calleeId="1">',
    '</cnode>',
    '</cnode>',
    '</program>',
    '<system>',
    '<machine Id="0"><name>warm</name><node Id="0"><name>node0</name>',
    '<process Id="0"><name>Process 0</name><rank>0</rank>',
    '<thread Id="0"><name>Thread 0</name><rank>0</rank></thread>',
    '<thread Id="1"><name>Thread 1</name><rank>1</rank></thread>',
    '</process>',
    '</node></machine>',
    '</system>',
    '<severity>',
    '<matrix metricId="0">',
    '<row cnodeId="0">',
    '0.5',
    '0.25',
    '</row>',
    '<row cnodeId="1">',
    '1.5',
    '2',
    '</row>',
    '</matrix>',
    '<matrix metricId="1">',
    '<row cnodeId="1">',
    '3',
    '3',
    '</row>',
    '</matrix>',
    '</severity>',
    '</cube>',
    '',
  ].join('\n'),
  // A Score-P .cubex (tar of anchor.xml and per-metric index and data files, as cubew writes them):
  // the archive reader and the binary values, which warm.cube (CUBE3, values inline) does not reach.
  'warm.cubex': new WarmBytes(
    'H4sIAAAAAAACA+1WXW/aMBSl057yK6K8EzsQYA8mrGuZhNR2aIWqb5Xr3IHVxM7spKL/do/7GVO+gdJVnVRasZyHXPv4cnOu' +
      'zcFg26cxbb0qMMa477pZxBhvR4x7nZbj9jruYIDdlHdwr9dtmbi1ByQ6pqqF8TJiz+SB0q2Dw8n8y/jaPj2eHR8VTBk/bsUG' +
      'hwhsc+HD6m393+1v+3/Q+H+f/p9cnI6vc+Mffdj6HWhwyHDe6/3vNv7f7/1fEJ+LW7+Iv0Z5/D1qvHKY/n+n93/j/+b+b/Dq' +
      'oIItpbJXYfBm/u9iZ7Dlf6fXdxr/7wNktAoD8x6U5lIMLcfGlgmCSZ+LxdCaz762P1kjzzAIS26hznNt1/IMQuNYmXfwMLRO' +
      'FNBYKsu8p0ECQ+uSSQXtqTmwHQt5BgkhVpzpamRyf2hhy4wfIhha4+uTs/nl5GqcFvW5jm4EDcG74prHmqCaMUgi+M98fF+s' +
      '1oxB/LSeN59czPouQfnMIIkMPckYQenAIIkKPILSp0F80Ex5MejYzIURlFMGQTmxKdkpJU8udkqe8RCeEhxna4/lnn6bfzkb' +
      'b8rV8O9yUb3ZkZILRdMqChZcinLbQ+kPLaQVQ9RmlnkLCy6y5kD4Q6uL06YyjSHlgqBCbkjFIgD/Zm1lgzJIRBX1+SL0mAwj' +
      'HoAiqKIMomQA3o9EsJhLQVA23dXfWlO57E39TqH/fDqppLdL7W2n0n4+ndxcgvB3669Xn+ohjPhj+ZHkIu5kzxd2wIT0oTyA' +
      'gAvIOmE0CAAmGbuR5FRJnfWsrD2UpW0M6pPWDzqGehArgKxo9Y7i+NiSCzDPuEhW1Q6xgGpdrhGUT3dWqrc5pbYK5FT56UAy' +
      'mp74Qskk2pJxPp2Y36m4M3FVQlFx52GCsmiQzBSRkgy0JqiwSFlyq1q8VED9Z2rlSVUpVNZaH2dSd0p3Hkt3Nl/nvEC683rS' +
      '0eah/Y3JvkjJLXhG84eoQYMGDf4T/AFmugNhAB4AAA==',
  ),
  // An HPCToolkit v4 database (hpcprof ≥ 2022): meta.db, profile.db, cct.db, a trace.db of two threads
  // and the metric taxonomy hpcprof writes beside them (its YAML reader, which real databases reach).
  'warm-hpctoolkit-v4': {
    'metrics/default.yaml': [
      'version: 0',
      'inputs:',
      '  - &CPUTIME-execution',
      '    metric: CPUTIME (sec)',
      '    scope: execution',
      '    formula: $$',
      '    combine: sum',
      '  - &CPUTIME-function',
      '    metric: CPUTIME (sec)',
      '    scope: function',
      '    formula: $$',
      '    combine: sum',
      'roots:',
      '  - name: CPUTIME (sec)',
      '    description: Time on the CPU',
      '    variants:',
      '      Sum:',
      '        render: [number, percent]',
      '        formula:',
      '          inclusive:',
      '            standard: *CPUTIME-execution',
      '          exclusive:',
      '            standard: *CPUTIME-function',
      '',
    ].join('\n'),
    'meta.db': new WarmBytes(
      'H4sIAAAAAAACA4WUv2vbQBTHn84aSsngIUPGGzKoHeIshdBNyKI2ji2jyKEZSnKWr1gQy0G61Ol/ECgtDWTIGAqFju1W6D/Q' +
        'uVMhS6eSsWO3Fp2+J/8gpYfN577v3X3f0+nsVt+LgmC3044mUgmbmlSOt+Br8Dv4zCo5Bj8iflUr+RD6KyvJoX+v6A2sP4Le' +
        'gb6Gfg/ORDYhl4+EEkORSz7LEqVkyocvuRpL3up7fFemOVcyVzopM73vFvvvgQ763QYfgY9BF+yA++ARuDfodt3wgHpB06fQ' +
        '7XUoaoW+26Qn/UHT3297fjHzgl7kP42K6V4U+m6XvCD09XnApwCvb9A5tE11zXc4H+tPyQ/QOBb6BE3If4Fm0JfQt/B1mPG3' +
        'NU09M64W+tH1MDFlPlvL9c3+c3a3z6sqbi35vanibMn3ooqXFTY35x+vP4jaXZ87uYwf0Mk0SRU9P01jlUxTOpZnh2ImMkny' +
        'TManOkZEjWGSNvRlaeRZ3BBbMU1EklI+PX4h9ZSrcSbFyNyL2rzb+sLzmHvr/CP/DflWbf5UDhHdsGVfM4zPfegf/1m3bt5H' +
        'Vb/8xTimv4W+iu9P+G0j/2uhL8uqXm/Vr/Hh9vz0GTFmrfSxRncPe8X3BOsPi7+PrdHwL3PlVUlQBAAA',
    ),
    'profile.db': new WarmBytes(
      'H4sIAAAAAAACA/MIcA7x9/fx9gwpKMpPY2FYwAABBlA6AEpfgNIOUJoZqoYbyldghNCsUP4EKB8GYFyY+gto6h2YUO1hQFPf' +
        'wISq/gOU/wNNPRMazYDkXlzqGJHcx4xDn4oDggWT43BghLOY4CxMHTJwHTJwHTJwHTJY1CHCjBHJnUxIbmKDslkYGBjYsbhX' +
        'wAHBgsl9sGeEs5jgLEwdHET6kIOK7pVwQLDgknDb4cmDgcEBUwfChwJwHQJwHdhCgjz3xoOyiF5KEgD80jZMNAMAAA==',
    ),
    // The same values node by node, as hpcprof writes them beside profile.db (the reader's usual source).
    'cct.db': new WarmBytes(
      'H4sIAAAAAAACA/MIcA7x9/fx9gxJLqkoYWHYwAABClDaAEqzQsWYoPwLUJoRSr+A0jD5H2jyAlAGB8x8KJ8Fym9gRNW/ghFV' +
        '/wE0/RfQ9BswoapnYBBwYIKzJRyYGVAB6eo+2CPUMTiQL45qH7JNTPAwhPmKmYENwx0cSPoF8LgXVR21xIl1b3x8ckmFXkoS' +
        'AIr2clVgAgAA',
    ),
    'trace.db': new WarmBytes(
      'H4sIAAAAAAACA/MIcA7x9/fx9gwpKUpOZWEIYIAABSjtAKWZGBgYJBgYGF4wQ/hreCE0I1S+AEpPQVIPAjOg9B4oDdMPkr/A' +
        'DmGzMDAw7OBG1XeHFSF3hJMBDmD2gtSVFCUmp+qlJAEAcnbYDsQAAAA=',
    ),
  },
  'warm-hpctoolkit': {
    'experiment.xml': [
      ...HPCTOOLKIT_XML_START,
      '  <LoadModuleTable>',
      '    <LoadModule i="102" n="/bin/warm"/>',
      '  </LoadModuleTable>',
      '  <FileTable>',
      '    <File i="101" n="/src/a.c"/>',
      '    <File i="104" n="/src/b.c"/>',
      '  </FileTable>',
      '  <ProcedureTable>',
      '    <Procedure i="100" n="main"/>',
      '    <Procedure i="103" n="solve"/>',
      '  </ProcedureTable>',
      '</SecHeader>',
      '<SecCallPathProfileData>',
      '<PF i="2" s="1002" l="10" lm="102" f="101" n="100"><M n="2" v="14"/><M n="3" v="3"/>',
      '<S i="3" s="1003" l="11"><M n="2" v="3"/><M n="3" v="3"/>',
      '</S>',
      '<L i="4" s="1004" l="12" f="101"><M n="2" v="11"/>',
      '<C i="5" s="1005" l="13"><M n="2" v="11"/>',
      '<PF i="6" s="1006" l="3" lm="102" f="104" n="103"><M n="2" v="11"/><M n="3" v="11"/>',
      '<S i="7" s="1007" l="4"><M n="2" v="11"/><M n="3" v="11"/>',
      '</S>',
      '</PF>',
      '</C>',
      '</L>',
      '</PF>',
      ...HPCTOOLKIT_XML_END,
    ].join('\n'),
  },
  // HPCToolkit's classic database as hpcprof-mpi writes it: values in one metric-db file per rank and
  // thread (hpctoolkit-xml/metric-db.ts), and entities in names (`&lt;program root&gt;`); written by
  // hpctoolkit-xml/test-database.ts. warm-hpctoolkit above has its values inline.
  'warm-hpctoolkit-metric-db': {
    'experiment.xml': [
      ...HPCTOOLKIT_XML_START,
      '  <MetricDBTable>',
      '    <MetricDB i="0" n="CPUTIME (usec) (I)" t="inclusive" partner="1" db-glob="*.metric-db" db-id="0" db-num-metrics="2" db-header-sz="24"/>',
      '    <MetricDB i="1" n="CPUTIME (usec) (E)" t="exclusive" partner="0" db-glob="*.metric-db" db-id="1" db-num-metrics="2" db-header-sz="24"/>',
      '  </MetricDBTable>',
      '  <LoadModuleTable>',
      '    <LoadModule i="102" n="/bin/warm"/>',
      '  </LoadModuleTable>',
      '  <FileTable>',
      '    <File i="101" n="&lt;unknown file&gt;"/>',
      '    <File i="104" n="/src/a.c"/>',
      '    <File i="106" n="/src/b.c"/>',
      '  </FileTable>',
      '  <ProcedureTable>',
      '    <Procedure i="100" n="&lt;program root&gt;"/>',
      '    <Procedure i="103" n="main"/>',
      '    <Procedure i="105" n="solve"/>',
      '  </ProcedureTable>',
      '</SecHeader>',
      '<SecCallPathProfileData>',
      '<PF i="2" s="1002" l="0" lm="102" f="101" n="100">',
      '<PF i="3" s="1003" l="10" lm="102" f="104" n="103">',
      '<S i="4" s="1004" l="11"/>',
      '<L i="5" s="1005" l="12" f="104">',
      '<C i="6" s="1006" l="13">',
      '<PF i="7" s="1007" l="3" lm="102" f="106" n="105">',
      '<S i="8" s="1008" l="4"/>',
      '</PF>',
      '</C>',
      '</L>',
      '</PF>',
      '</PF>',
      ...HPCTOOLKIT_XML_END,
    ].join('\n'),
    '1.warm-000000-000-a8c00471-152577-0.metric-db': new WarmBytes(
      'H4sIAAAAAAACA/MIcA4I8nfTzU0tKcpMTkmKjzcw0DM0SGJgYOBgYGBgctBhQAG4+A4cOGg1NPU4+LhoAD4hU7KgAAAA',
    ),
    '1.warm-000001-000-a8c00471-152578-0.metric-db': new WarmBytes(
      'H4sIAAAAAAACA/MIcA4I8nfTzU0tKcpMTkmKjzcw0DM0SGJgYOBgYGBgclBjQAG4+A4MOGglNPU4+LhoAPJ531OgAAAA',
    ),
  },
};
