import type { Otf2Cursor } from './cursor';

/** Global definition record types (OTF2_GlobalDefinitionType). */
export const GlobalDef = {
  ClockProperties: 5,
  String: 10,
  SystemTreeNode: 12,
  LocationGroup: 13,
  Location: 14,
  Region: 15,
  Group: 18,
  MetricMember: 19,
  MetricClass: 20,
  MetricInstance: 21,
  Comm: 22,
} as const;

/** Local (per-location) definition record types. */
const LocalDef = { MappingTable: 5, ClockOffset: 6 } as const;

/** OTF2_MappingType values of the id spaces events refer to. */
export const Mapping = { Region: 3, Metric: 5, Comm: 6 } as const;

/** OTF2_GroupType values. */
export const GroupType = { CommLocations: 4, CommGroup: 5, CommSelf: 6 } as const;

export interface Otf2Region {
  name: number;
  canonicalName: number;
  description: number;
  regionType: number;
  file: number;
  beginLine: number;
  endLine: number;
  role: number;
  paradigm: number;
}
export interface Otf2Location {
  id: number;
  name: number;
  type: number;
  events: number;
  group: number;
}
export interface Otf2LocationGroup {
  name: number;
  type: number;
  parent: number;
}
export interface Otf2SystemTreeNode {
  name: number;
  className: number;
  parent: number;
}
export interface Otf2Group {
  name: number;
  type: number;
  paradigm: number;
  members: number[];
}
export interface Otf2Comm {
  name: number;
  group: number;
  parent: number;
}
export interface Otf2MetricMember {
  name: number;
  description: number;
  unit: number;
  metricType: number;
  mode: number;
  valueType: number;
  base: number;
  exponent: number;
}

/** The global definitions (`<name>.def`): ids are kept as written and resolved on use. */
export class Otf2Definitions {
  readonly strings = new Map<number, string>();
  readonly regions = new Map<number, Otf2Region>();
  /** Locations in definition order (the display order of their tracks). */
  readonly locations: Otf2Location[] = [];
  readonly locationGroups = new Map<number, Otf2LocationGroup>();
  readonly systemTreeNodes = new Map<number, Otf2SystemTreeNode>();
  readonly groups = new Map<number, Otf2Group>();
  readonly comms = new Map<number, Otf2Comm>();
  readonly metricMembers = new Map<number, Otf2MetricMember>();
  /** Metric class or instance id → its member ids (an instance shares its class's members). */
  readonly metricClasses = new Map<number, number[]>();
  /** Timer ticks per second, the tick of t = 0 (as hi/lo words) and the trace length in ticks. */
  readonly clock = { resolution: 0, offsetHi: 0, offsetLo: 0, length: 0 };
  /** Definition records of types this reader does not use, by type. */
  readonly skipped = new Map<number, number>();
  private readonly metricInstances: [number, number][] = [];

  str(id: number): string {
    return this.strings.get(id) ?? '';
  }

  /** The record handler for `walkFile` over the global definitions file. */
  readonly onRecord = (type: number, c: Otf2Cursor): void => {
    switch (type) {
      case GlobalDef.ClockProperties:
        this.clock.resolution = c.u64();
        c.u64Parts();
        this.clock.offsetHi = c.hi;
        this.clock.offsetLo = c.lo;
        this.clock.length = c.u64();
        break;
      case GlobalDef.String: {
        const id = c.u32();
        this.strings.set(id, c.string());
        break;
      }
      case GlobalDef.SystemTreeNode: {
        const id = c.u32();
        this.systemTreeNodes.set(id, { name: c.u32(), className: c.u32(), parent: c.u32() });
        break;
      }
      case GlobalDef.LocationGroup: {
        const id = c.u32();
        this.locationGroups.set(id, { name: c.u32(), type: c.u8(), parent: c.u32() });
        break;
      }
      case GlobalDef.Location:
        this.locations.push({ id: c.u64(), name: c.u32(), type: c.u8(), events: c.u64(), group: c.u32() });
        break;
      case GlobalDef.Region: {
        const id = c.u32();
        const name = c.u32(),
          description = c.u32(),
          regionType = c.u8(),
          file = c.u32(),
          beginLine = c.u32(),
          endLine = c.u32();
        // Attributes added in OTF2 1.1 follow the original ones (older files end here).
        const more = c.pos < c.end;
        this.regions.set(id, {
          name,
          description,
          regionType,
          file,
          beginLine,
          endLine,
          canonicalName: more ? c.u32() : name,
          role: more ? c.u8() : 0,
          paradigm: more ? c.u8() : 0,
        });
        break;
      }
      case GlobalDef.Group: {
        const id = c.u32();
        const name = c.u32();
        c.u8(); // the pre-1.2 group type
        const n = c.u32();
        if (n > c.end - c.pos) c.fail(`group ${id} announces ${n} members in a ${c.end - c.pos}-byte record`);
        const members = new Array<number>(n);
        for (let i = 0; i < n; i++) members[i] = c.u64();
        const groupType = c.pos < c.end ? c.u8() : 0;
        this.groups.set(id, { name, type: groupType, paradigm: c.pos < c.end ? c.u8() : 0, members });
        break;
      }
      case GlobalDef.Comm: {
        const id = c.u32();
        this.comms.set(id, { name: c.u32(), group: c.u32(), parent: c.u32() });
        break;
      }
      case GlobalDef.MetricMember: {
        const id = c.u32();
        const name = c.u32(),
          description = c.u32(),
          metricType = c.u8(),
          mode = c.u8(),
          valueType = c.u8(),
          base = c.u8();
        this.metricMembers.set(id, {
          name,
          description,
          metricType,
          mode,
          valueType,
          base,
          exponent: c.i64(),
          unit: c.u32(),
        });
        break;
      }
      case GlobalDef.MetricClass: {
        const id = c.u32();
        const n = c.u8();
        const members: number[] = [];
        for (let i = 0; i < n; i++) members.push(c.u32());
        this.metricClasses.set(id, members);
        break;
      }
      case GlobalDef.MetricInstance:
        this.metricInstances.push([c.u32(), c.u32()]);
        break;
      default:
        this.skipped.set(type, (this.skipped.get(type) ?? 0) + 1);
    }
  };

  /** Resolves what needs all records (metric instances name classes defined anywhere). */
  finish(): void {
    for (const [id, cls] of this.metricInstances) this.metricClasses.set(id, this.metricClasses.get(cls) ?? []);
  }
}

/** A local → global id mapping of one location (identity where the table is silent). */
export class IdMap {
  constructor(
    private readonly dense: Float64Array | null,
    private readonly sparse: Map<number, number> | null,
  ) {}

  get(id: number): number {
    if (this.dense) return id < this.dense.length ? this.dense[id]! : id;
    return this.sparse!.get(id) ?? id;
  }
}

/** The local definitions of one location (`<name>/<location>.def`): id mappings and clock offsets. */
export class Otf2LocalDefinitions {
  readonly maps = new Map<number, IdMap>();
  /** Clock corrections: the time they were measured (ticks, as hi/lo words) and the offset to the global clock (ticks). */
  readonly clockOffsets: { hi: number; lo: number; offset: number }[] = [];

  readonly onRecord = (type: number, c: Otf2Cursor): void => {
    if (type === LocalDef.MappingTable) {
      const kind = c.u8();
      const size = c.u64();
      const sparse = c.u8() === 1;
      const count = sparse ? 2 * size : size;
      if (count > c.end - c.pos) c.fail(`an id map announces ${size} entries in a ${c.end - c.pos}-byte record`);
      if (sparse) {
        const m = new Map<number, number>();
        for (let i = 0; i < size; i++) {
          const local = c.u64();
          m.set(local, c.u64());
        }
        this.maps.set(kind, new IdMap(null, m));
      } else {
        const a = new Float64Array(size);
        for (let i = 0; i < size; i++) a[i] = c.u64();
        this.maps.set(kind, new IdMap(a, null));
      }
    } else if (type === LocalDef.ClockOffset) {
      c.fullU64Parts();
      const { hi, lo } = c;
      this.clockOffsets.push({ hi, lo, offset: c.i64() });
    }
  };
}
