/**
 * Tiny profiles of the hot readers, read at start-up by warm-up.ts so V8 compiles each reader (and the
 * model build behind it) before the code cache is saved: a process started with that cache then meets
 * every hot reader already compiled, whichever file the run that wrote the cache happened to read.
 * Hand-made in the shapes the real tools write (Caliper json-split and .cali, Hatchet's literal JSON,
 * callgrind, folded stacks, TAU profile.* files with call paths, gprof2dot DOT, HPCToolkit's
 * experiment.xml); each is a few hundred bytes.
 */

/** A file's text, or a folder: relative path → text. */
export type WarmProfile = string | Readonly<Record<string, string>>;

/** One TAU profile file of rank `rank`, as TAU 2.2x writes it with TAU_CALLPATH. */
function tauFile(rank: number): string {
  const t = (name: string, calls: number, subrs: number, excl: number, incl: number, group: string) =>
    `"${name}" ${calls} ${subrs} ${excl + rank} ${incl + rank} 0 GROUP="${group}" `;
  return [
    '5 templated_functions_MULTI_TIME',
    '# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>TIME</value>' +
      `</attribute><attribute><name>Node Name</name><value>n${rank}</value></attribute></metadata>`,
    t('.TAU application', 1, 1, 40, 100, 'TAU_DEFAULT'),
    t('solve [{/src/a.c} {10,1}-{20,1}]', 2, 0, 59, 59, 'TAU_USER'),
    t('.TAU application => solve [{/src/a.c} {10,1}-{20,1}]', 2, 0, 59, 59, 'TAU_CALLPATH|TAU_USER'),
    t('MPI_Send()', 4, 0, 1, 1, 'MPI'),
    t('.TAU application => MPI_Send()', 4, 0, 1, 1, 'TAU_CALLPATH|MPI'),
    '0 aggregates',
    '1 userevents',
    '# eventname numevents max min mean sumsqr',
    '"Message size for send" 4 8 8 8 256 ',
    '',
  ].join('\n');
}

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
  'warm-hpctoolkit': {
    'experiment.xml': [
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
      '</SecCallPathProfileData>',
      '</SecCallPathProfile>',
      '</HPCToolkitExperiment>',
      '',
    ].join('\n'),
  },
};
