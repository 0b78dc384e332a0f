import type { MetadataValue, Profile } from '../model/profile';
import { RecordTable, type RecordAttribute } from './caliper/record-table';
import { JsonSyntaxError, tokenizeJsonFile, ValueAssembler, type JsonHandler } from './json/json-tokenizer';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
import { caliperJsonRecordsSniffer } from './sniffers/caliper-json-records';

/**
 * Caliper's `json` output (`cali-query -q "… format json"`, Caliper 2): one flat object per
 * record, keys sorted, numbers unquoted, all nested attributes joined into one `path`:
 *
 *   [
 *   {"path":"main/solve","mpi.rank":0,"sum#time.duration":0.25},
 *   {"path":"main","mpi.rank":0,"sum#time.duration":0.5}
 *   ]
 *
 * With `format json(object)` the records sit in `{"records": [...], "globals": {run metadata},
 * "attributes": {name: {"cali.attribute.type", "attribute.unit", …}}}`, which also gives types and
 * units. Records without a path are the global record and are dropped, as Hatchet does.
 */

function attributeOf(meta: unknown): RecordAttribute {
  const m = (meta && typeof meta === 'object' ? meta : {}) as Record<string, unknown>;
  const str = (k: string) => (typeof m[k] === 'string' ? (m[k] as string) : undefined);
  const props = Number(str('cali.attribute.prop'));
  return {
    type: str('cali.attribute.type'),
    props: Number.isInteger(props) ? props : undefined,
    nested: m['is_nested'] === true || m['is_nested'] === 'true',
    unit: str('attribute.unit') ?? str('time.unit'),
    alias: str('attribute.alias'),
  };
}

/** Streams records straight into the table; only "globals" and "attributes" (small) are assembled. */
class JsonRecordsHandler implements JsonHandler {
  private depth = 0;
  /** Depth of the records array's elements (1 for the bare array, 2 inside the object layout), or -1 before it. */
  private recordDepth = -1;
  private inRecord = false;
  private records = 0;
  private fieldKey = '';
  private sectionKey: string | null = null;
  private assembling = false;
  private readonly assembler = new ValueAssembler();

  constructor(
    private readonly path: string,
    readonly table: RecordTable,
  ) {}

  /** Fails unless the document had a records array. */
  finish(): void {
    if (this.recordDepth < 0) this.fail('not a Caliper json profile: there is no "records" array');
  }

  startObject(): void {
    if (this.assembling) return this.forward(a => a.startObject());
    if (this.inRecord)
      this.fail(
        `record ${this.records}: the value of "${this.fieldKey}" is an object; cali-query writes only strings and numbers`,
      );
    if (this.depth === this.recordDepth) {
      this.inRecord = true;
      this.records++;
      this.table.beginRecord();
      this.depth++;
    } else if (this.depth === 0) {
      this.depth = 1; // the object layout
    } else this.section(a => a.startObject());
  }

  endObject(): void {
    if (this.assembling) return this.forward(a => a.endObject());
    this.depth--;
    if (this.inRecord) {
      this.inRecord = false;
      this.table.endRecord();
    }
  }

  startArray(): void {
    if (this.assembling) return this.forward(a => a.startArray());
    if (this.inRecord)
      this.fail(
        `record ${this.records}: the value of "${this.fieldKey}" is an array; cali-query writes only strings and numbers`,
      );
    if (this.depth === this.recordDepth) this.fail(`record ${this.records + 1} is an array; records are objects`);
    if (this.depth === 0) {
      this.recordDepth = 1;
      this.depth = 1;
    } else if (this.depth === 1 && this.sectionKey === 'records') {
      this.recordDepth = 2;
      this.depth = 2;
      this.sectionKey = null;
    } else this.section(a => a.startArray());
  }

  endArray(): void {
    if (this.assembling) return this.forward(a => a.endArray());
    this.depth--;
  }

  key(name: string): void {
    if (this.assembling) return this.forward(a => a.key(name));
    if (this.inRecord) {
      this.fieldKey = name;
      return;
    }
    if (name !== 'records' && name !== 'globals' && name !== 'attributes') {
      this.fail(
        `unexpected member "${name}": a Caliper json(object) profile has "records", "globals" and "attributes"`,
      );
    }
    this.sectionKey = name;
  }

  string(value: string): void {
    if (this.assembling) return this.forward(a => a.string(value));
    if (this.inRecord) this.table.field(this.fieldKey, value, `record ${this.records}`);
    else this.section(a => a.string(value));
  }

  number(value: number): void {
    if (this.assembling) return this.forward(a => a.number(value));
    if (this.inRecord) this.table.field(this.fieldKey, value, `record ${this.records}`);
    else this.section(a => a.number(value));
  }

  literal(value: boolean | null): void {
    if (this.assembling) return this.forward(a => a.literal(value));
    if (this.inRecord) {
      if (value !== null) this.table.field(this.fieldKey, String(value), `record ${this.records}`);
    } else this.section(a => a.literal(value));
  }

  /** "globals" or "attributes" of the object layout: assembled whole. */
  private section(event: (a: ValueAssembler) => void): void {
    if (this.depth === this.recordDepth) this.fail(`record ${this.records + 1} is not an object`);
    if (this.depth !== 1 || this.sectionKey === null)
      this.fail('not a Caliper json profile: expected an array of records');
    if (this.sectionKey === 'records') this.fail('"records" must be an array');
    this.assembler.begin();
    this.assembling = true;
    this.forward(event);
  }

  private forward(event: (a: ValueAssembler) => void): void {
    event(this.assembler);
    if (!this.assembler.done) return;
    this.assembling = false;
    const v = this.assembler.value;
    if (!v || typeof v !== 'object' || Array.isArray(v)) this.fail(`"${this.sectionKey}" must be an object`);
    if (this.sectionKey === 'globals') Object.assign(this.table.metadata, v as Record<string, MetadataValue>);
    else for (const [name, meta] of Object.entries(v)) this.table.attributes.set(name, attributeOf(meta));
    this.sectionKey = null;
  }

  private fail(reason: string): never {
    throw new ProfileReadError(this.path, reason);
  }
}

/** Keys that only Caliper writes: `path`, `<op>#<attr>` aggregates, mpi.rank, region attributes. */

export const caliperJsonRecordsReader: ProfileReader = {
  ...caliperJsonRecordsSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const table = new RecordTable(path, 'caliper-json-records');
    const handler = new JsonRecordsHandler(path, table);
    try {
      await tokenizeJsonFile(path, handler, {
        signal: options.signal,
        limits: options.limits,
        onProgress: (read, total) => options.onProgress?.(total > 0 ? 0.9 * (read / total) : 0, 'Reading Caliper json'),
      });
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      if (e instanceof JsonSyntaxError)
        throw new ProfileReadError(path, `not valid JSON (${e.message.replace(`${path}: `, '')})`, { cause: e });
      throw new ProfileReadError(path, (e as Error).message, { cause: e });
    }
    throwIfAborted(options.signal);
    handler.finish();
    options.onProgress?.(0.9, 'Building the call tree');
    const profile = table.build();
    options.onProgress?.(1);
    return profile;
  },
};
