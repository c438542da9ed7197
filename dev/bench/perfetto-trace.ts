/**
 * Slice durations from a Perfetto trace written by `workerd serve --perfetto-trace=FILE=workerd`:
 * workerd marks its start-up steps as trace slices (`Server::makeWorker()`,
 * `WorkerdApi::compileModules()` ...), which is how the bench learns the bundle's parse and
 * compile time without an inspector. Only what that needs is decoded: TracePacket timestamps
 * (absolute, or the SDK's incremental clock), interned event names, and begin/end events
 * matched per sequence and track.
 */

/** Protobuf wire reading: fields of a message as (number, value) with values left undecoded. */
interface Field {
  no: number;
  /** Varint and fixed values. */
  value: bigint;
  /** Length-delimited: [start, end) in the buffer. */
  start: number;
  end: number;
}

function* fields(buf: Uint8Array, start: number, end: number): Generator<Field> {
  if (end > buf.length) throw new Error('perfetto trace: truncated message');
  let i = start;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= end) throw new Error('perfetto trace: truncated varint');
      const byte = buf[i++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  while (i < end) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) yield { no, value: varint(), start: 0, end: 0 };
    else if (wire === 1) {
      yield { no, value: view.getBigUint64(i, true), start: 0, end: 0 };
      i += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      yield { no, value: 0n, start: i, end: i + length };
      i += length;
    } else if (wire === 5) {
      yield { no, value: BigInt(view.getUint32(i, true)), start: 0, end: 0 };
      i += 4;
    } else throw new Error(`perfetto trace: unsupported wire type ${wire}`);
  }
}

// Field numbers (perfetto/protos/perfetto/trace/trace_packet.proto and track_event.proto).
const TRACE_PACKET = 1;
const P = {
  timestamp: 8,
  sequenceId: 10,
  trackEvent: 11,
  interned: 12,
  flags: 13,
  clockId: 58,
  defaults: 59,
};
const E = { type: 9, nameIid: 10, trackUuid: 11, name: 23 };
const INTERNED_EVENT_NAMES = 2;
const SEQ_INCREMENTAL_STATE_CLEARED = 1n;
const INCREMENTAL_CLOCK = 64n;
const SLICE_BEGIN = 1n;
const SLICE_END = 2n;

interface Sequence {
  clockId: bigint;
  lastTimestamp: bigint;
  names: Map<bigint, string>;
  /** Open slices per track: name and start time. */
  open: Map<string, Array<{ name: string; at: bigint }>>;
}

/** Durations in ms of every completed slice, by name, in the order they ended. */
export function sliceDurations(trace: Uint8Array): Map<string, number[]> {
  const durations = new Map<string, number[]>();
  const sequences = new Map<bigint, Sequence>();
  const text = (f: Field) => new TextDecoder().decode(trace.subarray(f.start, f.end));
  for (const packet of fields(trace, 0, trace.length)) {
    if (packet.no !== TRACE_PACKET) continue;
    const parts = new Map<number, Field>();
    const interned: Field[] = [];
    for (const f of fields(trace, packet.start, packet.end)) {
      if (f.no === P.interned) interned.push(f);
      else parts.set(f.no, f);
    }
    const id = parts.get(P.sequenceId)?.value ?? 0n;
    let seq = sequences.get(id);
    if (!seq || ((parts.get(P.flags)?.value ?? 0n) & SEQ_INCREMENTAL_STATE_CLEARED) !== 0n) {
      seq = { clockId: 0n, lastTimestamp: 0n, names: new Map(), open: new Map() };
      sequences.set(id, seq);
    }
    const defaults = parts.get(P.defaults);
    if (defaults) {
      for (const f of fields(trace, defaults.start, defaults.end))
        if (f.no === P.clockId) seq.clockId = f.value;
    }
    for (const block of interned) {
      for (const f of fields(trace, block.start, block.end)) {
        if (f.no !== INTERNED_EVENT_NAMES) continue;
        let iid = 0n;
        let name = '';
        for (const g of fields(trace, f.start, f.end)) {
          if (g.no === 1) iid = g.value;
          else if (g.no === 2) name = text(g);
        }
        seq.names.set(iid, name);
      }
    }
    const stamp = parts.get(P.timestamp)?.value;
    const clock = parts.get(P.clockId)?.value ?? seq.clockId;
    let at = seq.lastTimestamp;
    if (stamp !== undefined) at = clock === INCREMENTAL_CLOCK ? seq.lastTimestamp + stamp : stamp;
    if (clock === INCREMENTAL_CLOCK) seq.lastTimestamp = at;
    const event = parts.get(P.trackEvent);
    if (event) recordEvent(trace, event, seq, at, durations, text);
  }
  return durations;
}

function recordEvent(
  trace: Uint8Array,
  event: Field,
  seq: Sequence,
  at: bigint,
  durations: Map<string, number[]>,
  text: (f: Field) => string,
): void {
  let type = 0n;
  let name = '';
  let track = 'default';
  for (const f of fields(trace, event.start, event.end)) {
    if (f.no === E.type) type = f.value;
    else if (f.no === E.nameIid) name = seq.names.get(f.value) ?? `#${f.value}`;
    else if (f.no === E.name) name = text(f);
    else if (f.no === E.trackUuid) track = String(f.value);
  }
  const open = seq.open.get(track) ?? [];
  seq.open.set(track, open);
  if (type === SLICE_BEGIN) open.push({ name, at });
  else if (type === SLICE_END) {
    const begun = open.pop();
    if (!begun) return;
    const list = durations.get(begun.name) ?? [];
    list.push(Number(at - begun.at) / 1e6);
    durations.set(begun.name, list);
  }
}
