/**
 * Screenshots of the topology view outside VS Code, on real data: headless Chromium (Debian's, as in
 * screenshot-timeline.ts) renders the component through a test-only gallery page bundled as its own
 * esbuild entry (webview-ui/src/components/topology/testing/topology-gallery.tsx, never in the product
 * bundle), while this process plays the host: it computes the view data with topologyViewData and
 * answers drill-down requests with new data, as a panel would.
 *
 *   npx tsx scripts/screenshot-topology.ts [--theme=dark,light] [--out=/tmp/topology-screenshots] [--only=name,…]
 *
 * Cases: the LULESH machine (hardware.xml) with its samples' cycles; a 256-PU machine; the dragonfly
 * of the largest CODES run with its link stats as traffic and router busy time; a 1,056-router
 * dragonfly (collapsed, then a group drilled into); the resnet50 trace's devices on a generated
 * DGX-Station-like `nvidia-smi topo -m` with the trace's copies; a DGX-1 with synthetic traffic.
 * Fails when a view draws nothing, a label's rendered text overflows its box, labels overlap, or the
 * page logs errors.
 */
import type { Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DmvIndex } from '../src/analysis/dmv/dmv-index';
import { hardwareView } from '../src/analysis/dmv/hardware';
import { readProfile } from '../src/analysis/formats';
import { readMemoryDataset } from '../src/analysis/formats/memory/memory-dataset';
import { parseNvidiaSmiTopology } from '../src/analysis/formats/nvidia-smi-topo';
import { readPdesRun } from '../src/analysis/formats/ross/pdes-run-reader';
import { prepareMemoryAnalysis, topologyLoad } from '../src/analysis/memory/memory-analysis';
import {
  dragonflyLinkValues,
  dragonflyShapeFromConfig,
  dragonflyTopology,
  routerBusyTime,
  terminalBusyTime,
} from '../src/analysis/topology/dragonfly';
import { dgxTopologyText } from '../src/analysis/topology/testing/dgx-topology';
import {
  dgxViewData,
  DRAGONFLY_1056,
  dragonflyViewData,
  machineViewData,
} from '../src/analysis/topology/testing/topology-fixtures';
import { topologyViewData, type TopologyViewOptions } from '../src/analysis/topology/topology-view-data';
import { topologyDrawn, type TopologyDrawn } from '../src/shared/test-facts';
import type { TopologyViewData } from '../src/shared/topology-protocol';
import { boxesOverlap, type LabelBox } from '../src/analysis/layout/label-boxes';
import { buildWebviewBundle } from './webview-page';
import {
  drawnUntil,
  loggedPage,
  root,
  runScreenshots,
  scriptArgs,
  sharedData,
  showView,
  toPage,
} from './screenshot-support';

const { opt } = scriptArgs();
const themes = opt('theme', 'dark,light').split(',');
const outDir = resolve(opt('out', '/tmp/topology-screenshots'));
const only = opt('only', '').split(',').filter(Boolean);
const shared = sharedData;
/** Whether a case is wanted (reading the real files of the others is skipped). */
const want = (name: string) => !only.length || only.includes(name);

/** A case: its data for the current drill-down state, and what to do after the first screenshot. */
interface Case {
  name: string;
  title: string;
  data: (detail: { expand: string[]; collapse: string[] }) => TopologyViewData;
  /** Further states: act on the page, then the script takes `<name>-<state>.png`. */
  states?: { name: string; act: (page: Page) => Promise<void> }[];
}

async function cases(): Promise<Case[]> {
  const out: Case[] = [];
  const hover = (selector: string) => async (page: Page) => {
    await page.locator(selector).first().hover({ force: true });
    await page.waitForTimeout(150);
  };

  // The LULESH machine with the cycles of its 15,676 samples (MemAxes' sunburst).
  const lulesh = join(shared, 'pebs-memaxes/lulesh');
  if (want('memory-lulesh') && existsSync(lulesh)) {
    const ds = await readMemoryDataset(join(lulesh, 'data/samples.out'));
    const load = topologyLoad(prepareMemoryAnalysis(ds.samples, ds.machine), null);
    const t = ds.machine!.topology;
    const options = (d: { expand: string[]; collapse: string[] }): TopologyViewOptions => ({
      nodeMeasures: [load.cycles, load.samples],
      linkMeasures: [load.transactions],
      containmentLinks: true,
      ...d,
    });
    out.push({
      name: 'memory-lulesh',
      title: 'LULESH samples.out on hardware.xml · cycles',
      data: d => topologyViewData(t, options(d)),
      states: [
        { name: 'hover', act: hover('[data-kind="pu"]') },
        {
          name: 'icicle',
          act: async page => {
            await page.locator('[data-choice="icicle"]').click();
            await page.mouse.move(2, 2);
            await page.waitForTimeout(150);
          },
        },
      ],
    });
  }
  out.push({
    name: 'memory-256pu',
    title: 'Synthetic 2 × 64 cores × 2 threads · cycles',
    data: d => machineViewData(2, 64, 2, d),
  });

  // The dragonfly of the largest CODES run: link stats as traffic, router and terminal busy time.
  const codes = join(shared, 'pdes-ross-codes/codes-dragonfly-dally-72-nearest-neighbor');
  if (want('dragonfly-codes') && existsSync(codes)) {
    const run = await readPdesRun(codes);
    const shape = dragonflyShapeFromConfig(run.codesConfig!)!;
    const { topology: t, index } = dragonflyTopology(shape, 'dfdally_72.conf');
    const links = dragonflyLinkValues(t, index, run.links!);
    const busy = routerBusyTime(t, index, run.modelSamples!.routers!);
    const terminals = terminalBusyTime(t, index, run.modelSamples!.terminals!);
    terminals.node.forEach((v, i) => {
      if (t.nodes[i]!.kind === 'terminal') busy.node[i] = v;
    });
    busy.name = 'busy time';
    out.push({
      name: 'dragonfly-codes',
      title: 'CODES dragonfly-dally 72 · nearest neighbour',
      data: d =>
        topologyViewData(t, {
          nodeMeasures: [busy],
          linkMeasures: [links.traffic, { values: links.saturation, aggregate: 'max' }],
          ...d,
        }),
      states: [{ name: 'hover', act: hover(`[data-node="n${index.routerNode[5]}"]`) }],
    });
  }
  out.push({
    name: 'dragonfly-1056',
    title: '1,056-router dragonfly · 30 % of the packets to group 5',
    data: d => dragonflyViewData(DRAGONFLY_1056, { omitKinds: ['terminal'], hotGroup: 5, ...d }),
    states: [
      {
        name: 'expanded',
        act: async page => {
          // Group 6's routers: an aggregate id names the group's topology node (`a<node>:router`).
          await page.locator('[data-kind="router"][data-node^="a"]').nth(6).dblclick();
          await waitDrawn(page, 'drill-down', d => d.aggregates < 33);
          await page.mouse.move(2, 2);
          await page.waitForTimeout(200);
        },
      },
    ],
  });

  // Every router asked for (a panel that ignores the view's capacity): too small to draw, their links leave from their groups.
  out.push({
    name: 'dragonfly-1056-all',
    title: '1,056-router dragonfly · every router asked for',
    data: d => dragonflyViewData(DRAGONFLY_1056, { omitKinds: ['terminal'], hotGroup: 5, maxNodes: 1200, ...d }),
  });

  // The resnet50 trace's four V100s on a generated DGX Station topology, with the trace's copies.
  const resnet = join(shared, 'chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz');
  if (want('gpu-resnet50') && existsSync(resnet)) {
    const index = new DmvIndex(await readProfile(resnet));
    const topo = parseNvidiaSmiTopology(dgxTopologyText('dgx-station'), 'dgx-station-topo.txt');
    const hw = hardwareView(index, index.range, topo);
    const detail = (i: number) => {
      const g = hw.gpus.find(x => x.node === i);
      if (!g) return undefined;
      const mem = g.totalGlobalMem ? ` · ${Math.round(g.totalGlobalMem / 2 ** 30)} GiB` : '';
      return `${g.name ?? 'GPU'}${mem}`;
    };
    out.push({
      name: 'gpu-resnet50',
      title: 'resnet50 trace on a DGX Station · whole run',
      data: d =>
        topologyViewData(hw.topology, {
          nodeMeasures: [hw.utilisation],
          linkMeasures: [hw.traffic],
          colour: { domain: [0, 100] },
          detail,
          ...d,
        }),
      states: [{ name: 'hover', act: hover('[data-link-kind="host"]') }],
    });
  }
  out.push({
    name: 'gpu-dgx1',
    title: 'DGX-1 (generated topo -m) · ring all-reduce',
    data: d => dgxViewData('dgx-1', d).data,
  });
  return only.length ? out.filter(c => only.includes(c.name)) : out;
}

/** Rendered text wider than its label box, and label boxes that overlap, as messages. */
async function labelProblems(page: Page): Promise<string[]> {
  // The page's DOM, typed for what is used (this script compiles without the DOM library).
  interface SvgText {
    tagName: string;
    getAttribute(name: string): string | null;
    querySelector(selector: string): SvgText | null;
    getBBox(): { width: number };
  }
  const labels = await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<SvgText> } }).document;
    return Array.from(doc.querySelectorAll('[data-box]')).map(el => {
      const text = el.tagName === 'text' ? el : el.querySelector('text')!;
      return { of: el.getAttribute('data-label-of')!, box: el.getAttribute('data-box')!, width: text.getBBox().width };
    });
  });
  const boxes: { of: string; box: LabelBox }[] = labels.map(l => {
    const [cx, cy, w, h, angle] = l.box.split(' ').map(Number) as [number, number, number, number, number];
    return { of: l.of, box: { cx, cy, w, h, angle } };
  });
  const out: string[] = [];
  labels.forEach((l, i) => {
    if (l.width > boxes[i]!.box.w + 0.5)
      out.push(`label of ${l.of} renders ${l.width.toFixed(1)} px in a ${boxes[i]!.box.w} px box`);
  });
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      if (boxesOverlap(boxes[i]!.box, boxes[j]!.box)) out.push(`labels of ${boxes[i]!.of} and ${boxes[j]!.of} overlap`);
  return out;
}

function waitDrawn(page: Page, what: string, ok: (d: TopologyDrawn) => boolean = d => d.nodes > 0) {
  return drawnUntil(page, what, async q => (await topologyDrawn(q))[0], ok, {
    seconds: 15,
    everyMs: 50,
    last: () => 'nothing drawn',
  });
}

async function main(): Promise<void> {
  await runScreenshots(outDir, 'hpc-lens-topology-', async ({ browser, tmp, failures }) => {
    await buildWebviewBundle(root, {
      entryPoints: { gallery: join(root, 'webview-ui/src/components/topology/testing/topology-gallery.tsx') },
      outdir: tmp,
    });
    const bundle = { js: join(tmp, 'gallery.js'), css: join(tmp, 'gallery.css') };
    for (const c of await cases()) {
      for (const theme of themes) {
        const { page, log } = await loggedPage(browser, { width: 1200, height: 760 });
        const detail = { expand: [] as string[], collapse: [] as string[] };
        const send = () => toPage(page)({ type: 'gallery/show', title: c.title, data: c.data(detail) });
        const answer = async (m: { type: string; id?: string; level?: string; message?: string }) => {
          if (m.type === 'gallery/ready') await send();
          else if (m.type === 'gallery/expand') {
            detail.expand.push(m.id!);
            detail.collapse = detail.collapse.filter(x => x !== m.id);
            await send();
          } else if (m.type === 'gallery/collapse') {
            detail.collapse.push(m.id!);
            detail.expand = detail.expand.filter(x => x !== m.id);
            await send();
          } else if (m.type === 'log') log.push(`${m.level}: ${m.message}`);
        };
        await showView(page, answer, { file: join(tmp, `${c.name}-${theme}.html`), theme, view: 'callflow', bundle });
        const d = await waitDrawn(page, c.name).catch(async (e: Error) => {
          await page.screenshot({ path: join(outDir, `topology-${c.name}-failed-${theme}.png`) });
          throw new Error(`${e.message}\n${log.join('\n')}`);
        });
        console.log(
          `${c.name} ${theme}: ${d.layout}, ${d.nodes} marks, ${d.links} links, ${d.labels} labels, ${d.hidden} hidden, ${d.aggregates} aggregates, capacity ${d.capacity}`,
        );
        await page.waitForTimeout(150);
        const shot = async (suffix: string) => {
          for (const p of await labelProblems(page)) failures.push(`${c.name}${suffix} ${theme}: ${p}`);
          await page.screenshot({ path: join(outDir, `topology-${c.name}${suffix}-${theme}.png`) });
        };
        await shot('');
        for (const s of c.states ?? []) {
          await s.act(page);
          const after = await waitDrawn(page, `${c.name} ${s.name}`);
          console.log(
            `  ${s.name}: ${after.layout}, ${after.nodes} marks, ${after.links} links, ${after.labels} labels`,
          );
          await shot(`-${s.name}`);
        }
        if (log.length) failures.push(...log.map(l => `${c.name} ${theme}: ${l}`));
        await page.close();
      }
    }
  });
}

void main();
