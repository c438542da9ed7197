import { describe, expect, it } from 'vitest';
import { guardStage } from './idle-guard';
import { createKeptBytes, keptThrough } from './kept-bytes';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | null) => (value === null ? null : new TextDecoder().decode(value));

async function through(chunks: string[], kept: ReturnType<typeof createKeptBytes>, edit = (s: string) => s) {
  const stage = guardStage(
    keptThrough(
      { transform: (chunk, controller) => controller.enqueue(bytes(edit(new TextDecoder().decode(chunk)))) },
      kept,
    ),
  );
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(bytes(chunk));
      controller.close();
    },
  });
  return new Response(source.pipeThrough(stage)).text();
}

describe('kept bytes', () => {
  it('keeps exactly what the stage wrote, once the stream ended whole', async () => {
    const kept = createKeptBytes(1_000);
    const sent = await through(['data: a\n\n', 'data: b\n\n'], kept, (s) => s.toUpperCase());
    expect(sent).toBe('DATA: A\n\nDATA: B\n\n');
    expect(text(await kept.result)).toBe(sent);
  });

  it('copies each chunk, so a buffer read into again does not change what was kept', async () => {
    const kept = createKeptBytes(1_000);
    const buffer = bytes('first');
    kept.push(buffer);
    buffer.set(bytes('XXXXX'));
    kept.push(bytes(' second'));
    kept.complete();
    expect(text(await kept.result)).toBe('first second');
  });

  it('keeps nothing past its limit, and nothing for a stream that did not end whole', async () => {
    const large = createKeptBytes(10);
    await through(['0123456789', 'more'], large);
    expect(await large.result).toBeNull();
    const cancelled = createKeptBytes(1_000);
    const stage = guardStage(keptThrough({}, cancelled));
    const writer = stage.writable.getWriter();
    await writer.write(bytes('part'));
    await stage.readable.cancel('client left');
    expect(await cancelled.result).toBeNull();
  });
});
