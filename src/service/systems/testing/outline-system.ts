/**
 * A system for the service's own tests: it claims `*.outline` files (an indented call-tree outline,
 * see profileFromOutline), keeps their text as its state, answers `lines` and `crash`, and on
 * `tick` pushes events. Tests add it to SYSTEMS at run time (registerOutlineSystem); it never ships.
 */
import { readFile } from 'node:fs/promises';
import { profileFromOutline } from '../../../analysis/model/test-profiles';
import type { AnalysisSystem, SystemShape } from '../analysis-system';
import { SYSTEMS, type SystemEntry } from '..';

export interface OutlineShape extends SystemShape {
  open: { text: string };
  opened: { lines: number };
  request: { kind: 'lines' } | { kind: 'crash' } | { kind: 'tick'; count: number } | { kind: 'threadId' };
  results: { lines: string[]; crash: never; tick: number; threadId: number };
  event: { tick: number };
}

interface OutlineState {
  text: string;
  closed: boolean;
}

const opening = (text: string) => ({
  state: { text, closed: false },
  opened: { lines: text.split('\n').filter(l => l.trim()).length },
  profile: profileFromOutline(text),
});

export const outlineSystem: AnalysisSystem<OutlineShape, OutlineState> = {
  openPath: async path => opening(await readFile(path, 'utf8')),
  open: async args => opening(args.text),
  answer(state, request, ctx) {
    switch (request.kind) {
      case 'lines':
        return state.text.split('\n').filter(l => l.trim());
      case 'crash':
        // Exits the thread the dataset lives in, as a reader running out of memory would.
        process.exit(3);
        break;
      case 'tick':
        for (let i = 0; i < request.count; i++) ctx.emit({ tick: i });
        return request.count;
      case 'threadId':
        return (require('node:worker_threads') as typeof import('node:worker_threads')).threadId;
    }
  },
  close: state => {
    state.closed = true;
  },
};

/** Adds the outline system to the registry of this thread (tests only). */
export function registerOutlineSystem(): void {
  const entry: SystemEntry<OutlineShape> = {
    sniff: sample => (!sample.isDirectory && sample.path.endsWith('.outline') ? 1 : 0),
    load: async () => outlineSystem as AnalysisSystem<OutlineShape, never>,
  };
  (SYSTEMS as unknown as Record<string, unknown>).outline = entry;
}
