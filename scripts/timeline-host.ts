/**
 * The timeline panel's side of its messages for the screenshot scripts: TimelinePanel without VS
 * Code, answering the view with the worker's own code (timeline-requests.ts) over a profile in this
 * process. `extra` lets a script add to it: a message after the init (the trace analysis of
 * screenshot-trace-analysis.ts) and fields of the tiles (a loop's iteration bands).
 */
import type { Profile } from '../src/analysis/model/profile';
import {
  timelineRequest,
  type TimelineInitResult,
  type TimelineResults,
  type TimelineTilesResult,
} from '../src/service/timeline-requests';
import type { TimelineHostToView, TimelineViewToHost } from '../src/shared/timeline-protocol';

type TilesRequest = Extract<TimelineViewToHost, { type: 'timeline/requestTiles' }>;
type TilesMessage = Extract<TimelineHostToView, { type: 'timeline/tiles' }>;

export function timelineHost(
  profile: Profile,
  title: string,
  send: (m: TimelineHostToView) => Promise<void>,
  log: string[],
  extra: { afterInit?: () => Promise<void>; tiles?: (m: TilesRequest) => Partial<TilesMessage> } = {},
) {
  return async (m: TimelineViewToHost | { type: 'test/result' }): Promise<void> => {
    switch (m.type) {
      case 'ready': {
        const r = timelineRequest(profile, { kind: 'init', minimapWidth: 1024 }).result as TimelineInitResult;
        await send({ type: 'timeline/init', title, ...r, overlayWindow: null });
        await extra.afterInit?.();
        return;
      }
      case 'timeline/requestTiles': {
        const r = timelineRequest(profile, {
          kind: 'tiles',
          window: m.window,
          tracks: m.tracks,
          width: m.width,
          depth: m.depth,
          colourBy: m.colourBy,
          depthViews: m.depthViews,
        }).result as TimelineTilesResult;
        return send({ type: 'timeline/tiles', requestId: m.requestId, ...r, ...extra.tiles?.(m) });
      }
      case 'timeline/hover':
        return send({
          type: 'timeline/eventDetails',
          requestId: m.requestId,
          details: timelineRequest(profile, { kind: 'hover', track: m.track, time: m.time, depth: m.depth })
            .result as never,
        });
      case 'timeline/selectWindow':
        return send({
          type: 'timeline/windowStats',
          ...(timelineRequest(profile, { kind: 'windowStats', window: m.window, tracks: m.tracks })
            .result as TimelineResults['windowStats']),
        });
      case 'timeline/lanes':
        return send({
          type: 'timeline/rows',
          rows: timelineRequest(profile, { kind: 'rows', filter: m.filter, sort: m.sort, collapsed: m.collapsed })
            .result as TimelineResults['rows'],
        });
      case 'log':
        log.push(`${m.level}: ${m.message}`);
        return;
      default:
        return;
    }
  };
}
