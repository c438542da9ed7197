import { AppError } from '@sluice/shared/http';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { GatewayEnv } from '../types';
import { limitBodySize } from './body-limit';

const LIMIT = 16;

function app() {
  const a = new Hono<GatewayEnv>();
  a.use('*', limitBodySize(LIMIT));
  a.post('/echo', async (c) => c.text(await c.req.text()));
  a.onError((error, c) => c.json({ status: error instanceof AppError ? error.status : 500 }, 500));
  return a;
}

/** A body sent in pieces, without a Content-Length (Transfer-Encoding: chunked on the wire). */
function chunked(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  app().request('/echo', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('limitBodySize', () => {
  it('passes a body within the limit, declared by Content-Length', async () => {
    const res = await post('0123456789abcdef', { 'content-length': '16' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('0123456789abcdef');
  });

  it('refuses a declared length over the limit with a 413, before reading the body', async () => {
    const res = await post('x'.repeat(17), { 'content-length': '17' });
    expect(await res.json()).toEqual({ status: 413 });
  });

  it('counts a body without a Content-Length as it is read', async () => {
    const small = await post(chunked('01234567', '89abcdef'));
    expect(await small.text()).toBe('0123456789abcdef');
    const large = await post(chunked('01234567', '89abcdef', 'g'));
    expect(await large.json()).toEqual({ status: 413 });
  });

  it('reads a chunked body over the limit to its end before the 413, so the client gets it', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === 10) return controller.close();
        pulled++;
        controller.enqueue(new TextEncoder().encode('0123456789'));
      },
    });
    const res = await post(body);
    expect(await res.json()).toEqual({ status: 413 });
    expect(pulled).toBe(10);
  });
});
