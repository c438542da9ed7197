import { describe, expect, it } from 'vitest';
import { sliceDurations } from './perfetto-trace';

// A minimal protobuf writer: enough to build the TracePackets workerd writes.
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = BigInt(value);
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest > 0n ? low | 0x80 : low);
  } while (rest > 0n);
  return bytes;
}
const int = (no: number, value: number) => [...varint(no << 3), ...varint(value)];
const bytes = (no: number, payload: number[]) => [
  ...varint((no << 3) | 2),
  ...varint(payload.length),
  ...payload,
];
const text = (no: number, value: string) => bytes(no, [...new TextEncoder().encode(value)]);
const packet = (...parts: number[][]) => bytes(1, parts.flat());
const event = (type: number, nameIid?: number) =>
  bytes(11, [...int(9, type), ...(nameIid ? int(10, nameIid) : [])]);
const name = (iid: number, value: string) => bytes(12, bytes(2, [...int(1, iid), ...text(2, value)]));

describe('perfetto trace slices', () => {
  it('matches begin and end per sequence on the incremental clock, names interned', () => {
    const trace = new Uint8Array([
      ...packet(int(10, 2), int(13, 1), bytes(59, int(58, 64)), int(8, 0)),
      ...packet(int(10, 2), int(8, 1_000), name(1, 'Server::makeWorker()'), event(1, 1)),
      ...packet(int(10, 2), int(8, 500), name(2, 'WorkerdApi::compileModules()'), event(1, 2)),
      ...packet(int(10, 2), int(8, 2_000_000), event(2)),
      ...packet(int(10, 2), int(8, 1_000_000), event(1, 2)),
      ...packet(int(10, 2), int(8, 250_000), event(2)),
      ...packet(int(10, 2), int(8, 500_000), event(2)),
      // Another sequence on an absolute clock, its slice named inline.
      ...packet(int(10, 3), int(8, 5_000_000), bytes(11, [...int(9, 1), ...text(23, 'startServices')])),
      ...packet(int(10, 3), int(8, 9_000_000), event(2)),
    ]);
    const slices = sliceDurations(trace);
    expect(slices.get('WorkerdApi::compileModules()')).toEqual([2, 0.25]);
    expect(slices.get('Server::makeWorker()')?.[0]).toBeCloseTo(3.7505, 6);
    expect(slices.get('startServices')).toEqual([4]);
  });

  it('refuses a truncated trace rather than inventing figures', () => {
    expect(() => sliceDurations(new Uint8Array([0x0a, 0x05, 0x40]))).toThrow(/truncated/);
  });
});
