/**
 * The few protobuf wire types OTLP needs, written by hand: no generated code in the worker
 * bundle. Messages are built inside out (a nested message is encoded first, then written as a
 * length-delimited field).
 */
const encoder = new TextEncoder();

export class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private scratch: number[] = [];
  private size = 0;

  private flushScratch(): void {
    if (this.scratch.length === 0) return;
    const bytes = Uint8Array.from(this.scratch);
    this.chunks.push(bytes);
    this.size += bytes.length;
    this.scratch = [];
  }

  private varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v > 0x7fn) {
      this.scratch.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.scratch.push(Number(v));
  }

  private tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  uint(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.varint(value);
    return this;
  }

  bool(field: number, value: boolean): this {
    return this.uint(field, value ? 1 : 0);
  }

  fixed32(field: number, value: number): this {
    this.tag(field, 5);
    for (let i = 0; i < 4; i++) this.scratch.push((value >>> (8 * i)) & 0xff);
    return this;
  }

  fixed64(field: number, value: bigint): this {
    this.tag(field, 1);
    let v = BigInt.asUintN(64, value);
    for (let i = 0; i < 8; i++) {
      this.scratch.push(Number(v & 0xffn));
      v >>= 8n;
    }
    return this;
  }

  double(field: number, value: number): this {
    this.tag(field, 1);
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value, true);
    for (let i = 0; i < 8; i++) this.scratch.push(view.getUint8(i));
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.varint(value.length);
    this.flushScratch();
    this.chunks.push(value);
    this.size += value.length;
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, encoder.encode(value));
  }

  message(field: number, build: (writer: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    this.flushScratch();
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

export function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
