import type { ExecutionContext } from '../../model/context';
import type { ProfileBuilder } from '../../model/profile-builder';
import type { IdentifierEntry, ProfileInfo } from './profile-db';

export type ContextCoordinates = Partial<Omit<ExecutionContext, 'label'>>;

/**
 * The execution context of a profile from its identifier tuple, by the kind names meta.db gives
 * (FORMATS.md advises against hard-coding kind numbers): RANK → rank, THREAD → thread, GPUDEVICE
 * (or else GPUCONTEXT) → GPU device, GPUSTREAM → stream, all by logical id (dense from 0). NODE and
 * CORE identify hardware and only appear in the description.
 */
export function contextOfIdTuple(
  tuple: readonly IdentifierEntry[],
  idNames: readonly string[],
): { coordinates: ContextCoordinates; description: string } {
  const coordinates: ContextCoordinates = {};
  const parts: string[] = [];
  let gpuDeviceFromContext = -1;
  for (const id of tuple) {
    const kind = idNames[id.kind] ?? `KIND${id.kind}`;
    parts.push(`${kind} ${id.isPhysical ? id.physicalId.toString() : id.logicalId}`);
    switch (kind.toUpperCase()) {
      case 'RANK':
        coordinates.rank = id.logicalId;
        break;
      case 'THREAD':
        coordinates.thread = id.logicalId;
        break;
      case 'GPUDEVICE':
        coordinates.gpuDevice = id.logicalId;
        break;
      case 'GPUCONTEXT':
        gpuDeviceFromContext = id.logicalId;
        break;
      case 'GPUSTREAM':
        coordinates.gpuStream = id.logicalId;
        break;
    }
  }
  if (coordinates.gpuDevice === undefined && gpuDeviceFromContext >= 0) coordinates.gpuDevice = gpuDeviceFromContext;
  return { coordinates, description: parts.join(' ') };
}

/** Orders contexts by rank, then CPU threads before GPU streams (absent coordinates first). */
export function compareCoordinates(a: ContextCoordinates, b: ContextCoordinates): number {
  return (
    (a.rank ?? -1) - (b.rank ?? -1) ||
    (a.gpuDevice ?? -1) - (b.gpuDevice ?? -1) ||
    (a.gpuStream ?? -1) - (b.gpuStream ?? -1) ||
    (a.thread ?? -1) - (b.thread ?? -1)
  );
}

/**
 * One execution context per application profile (summary profiles are statistics, not contexts),
 * created in rank/thread order. Returns the context of each profile index (-1 for summaries) and
 * the application profiles in context order. Profiles with the same coordinates share a context.
 */
export function addExecutionContexts(
  b: ProfileBuilder,
  profiles: readonly ProfileInfo[],
  idNames: readonly string[],
): { contextOfProfile: Int32Array; applicationProfiles: ProfileInfo[] } {
  const app = profiles.filter(p => !p.isSummary).map(p => ({ p, ...contextOfIdTuple(p.idTuple, idNames) }));
  app.sort((x, y) => compareCoordinates(x.coordinates, y.coordinates) || x.p.index - y.p.index);
  const contextOfProfile = new Int32Array(profiles.length).fill(-1);
  const described = new Map<number, string>();
  for (const { p, coordinates, description } of app) {
    const c = b.context(coordinates);
    if (described.has(c))
      b.warnings.push(
        `profiles "${described.get(c)}" and "${description}" have the same rank/thread/GPU coordinates; their values are added up`,
      );
    else described.set(c, description);
    contextOfProfile[p.index] = c;
  }
  return { contextOfProfile, applicationProfiles: app.map(x => x.p) };
}
