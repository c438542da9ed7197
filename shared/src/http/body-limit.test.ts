import { describe, expect, it } from 'vitest';
import { bodyTooLarge, checkBodySize } from './body-limit';

const LIMIT = 16;
const BOUNDS = { maxBytes: 1_000, maxMs: 200 };

/** A POST whose body arrives in `chunks` of bytes, pulled only as read; counts the pulls. */
function post(chunks: number[], headers: Record<string, string> = {}) {
  const pulled = { chunks: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const size = chunks[pulled.chunks];
        if (size === undefined) return controller.close();
        pulled.chunks++;
        controller.enqueue(new Uint8Array(size).fill(120));
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://gateway.test/v1/chat/completions', {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
  return { request, pulled };
}

describe('checkBodySize', () => {
  it('judges a declared length by its header alone, reading nothing', async () => {
    const within = post([16], { 'content-length': '16' });
    expect(await checkBodySize(within.request, LIMIT)).toEqual({ kind: 'within' });
    const over = post([17], { 'content-length': '17' });
    expect(await checkBodySize(over.request, LIMIT)).toEqual({ kind: 'declared-too-large' });
    expect(within.pulled.chunks + over.pulled.chunks).toBe(0);
  });

  it('takes a length that is not a number for over the limit', async () => {
    const { request } = post([4], { 'content-length': 'four' });
    expect(await checkBodySize(request, LIMIT)).toEqual({ kind: 'declared-too-large' });
  });

  it('passes a request without a body', async () => {
    const request = new Request('http://gateway.test/v1/models');
    expect(await checkBodySize(request, LIMIT)).toEqual({ kind: 'within' });
  });

  it('reads a body without a length whole while it stays within the limit', async () => {
    const { request } = post([8, 8]);
    const check = await checkBodySize(request, LIMIT);
    expect(check.kind).toBe('read');
    if (check.kind === 'read') expect(check.bytes.byteLength).toBe(16);
  });

  it('reads a chunked body even when it also declares a length', async () => {
    const { request } = post([8, 8, 1], { 'content-length': '4', 'transfer-encoding': 'chunked' });
    expect(await checkBodySize(request, LIMIT)).toEqual({ kind: 'too-large', drained: true });
  });

  it('reads and drops the rest of a body past the limit, within the bounds', async () => {
    const drained = post([10, 10, 10, 10]);
    expect(await checkBodySize(drained.request, LIMIT, BOUNDS)).toEqual({ kind: 'too-large', drained: true });
    expect(drained.pulled.chunks).toBe(4);
    const endless = post(Array.from({ length: 500 }, () => 10));
    expect(await checkBodySize(endless.request, LIMIT, BOUNDS)).toEqual({
      kind: 'too-large',
      drained: false,
    });
    expect(endless.pulled.chunks).toBeLessThan(500);
  });
});

describe('bodyTooLarge', () => {
  it('is a 413 naming the limit, asking to close the connection only when told', () => {
    const kept = bodyTooLarge(LIMIT);
    expect([kept.status, kept.message, kept.headers]).toEqual([413, 'Request body exceeds 16 bytes', {}]);
    expect(bodyTooLarge(LIMIT, true).headers).toEqual({ connection: 'close' });
  });
});
