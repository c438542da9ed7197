import { AppError } from '@sluice/shared/http';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { limitBody } from './body-limit';

function app(options: Parameters<typeof limitBody>[0]) {
  const hono = new Hono();
  hono.onError((err, c) => {
    if (!(err instanceof AppError)) throw err;
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.text(err.message, err.status as 413);
  });
  hono.use('*', limitBody(options));
  hono.post('/', async (c) => c.text(`got ${(await c.req.text()).length}`));
  return hono;
}

/** A chunked body (no Content-Length) of `chunks` × `size` bytes; counts what was pulled. */
function chunked(chunks: number, size: number) {
  const pulled = { chunks: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.chunks === chunks) return controller.close();
      pulled.chunks++;
      controller.enqueue(new Uint8Array(size).fill(120));
    },
  });
  return { stream, pulled };
}

describe('limitBody', () => {
  it('passes bodies within the limit, declared or chunked', async () => {
    const res = await app({ maxBytes: 10 }).request('/', { method: 'POST', body: '0123456789' });
    expect(await res.text()).toBe('got 10');
    const { stream } = chunked(2, 5);
    const streamed = await app({ maxBytes: 10 }).request('/', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await streamed.text()).toBe('got 10');
  });

  it('reads an oversized body to its end before the 413, so the connection stays usable', async () => {
    const { stream, pulled } = chunked(50, 100);
    const res = await app({ maxBytes: 1_000 }).request('/', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled.chunks).toBe(50);
    expect(res.headers.get('connection')).toBeNull();
  });

  it('gives up past its discard bound and asks for the connection to close', async () => {
    const { stream, pulled } = chunked(1_000, 100);
    const res = await app({ maxBytes: 1_000, discardBytes: 5_000 }).request('/', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(pulled.chunks).toBeLessThan(100);
  });
});
