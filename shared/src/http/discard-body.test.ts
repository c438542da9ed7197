import { describe, expect, it } from 'vitest';
import { discardUnreadBody } from './discard-body';

const BOUNDS = { maxBytes: 1_000, maxMs: 200 };

/** A request whose body is `chunks` (sent as they are), then ends unless it `stalls`. */
function requestWith(chunks: number[], options: { stalls?: boolean; declared?: number } = {}): Request {
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = chunks[pulls++];
      if (size !== undefined) controller.enqueue(new Uint8Array(size));
      else if (!options.stalls) controller.close();
      else return new Promise(() => {});
    },
  });
  const headers = options.declared === undefined ? {} : { 'content-length': String(options.declared) };
  return new Request('http://gateway.test/v1/chat/completions', {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('discardUnreadBody', () => {
  it('reads an unread body to its end', async () => {
    const request = requestWith([400, 400]);
    expect(await discardUnreadBody(request, BOUNDS)).toBe(true);
    expect(request.bodyUsed).toBe(true);
  });

  it('leaves a body that was read alone', async () => {
    const request = new Request('http://gateway.test/', { method: 'POST', body: '{"a":1}' });
    await request.text();
    expect(await discardUnreadBody(request, BOUNDS)).toBe(true);
  });

  it('does not start on a body declared past the bounds', async () => {
    const request = requestWith([400], { declared: 5_000 });
    expect(await discardUnreadBody(request, BOUNDS)).toBe(false);
    expect(request.bodyUsed).toBe(false);
  });

  it('gives up once more than maxBytes came', async () => {
    expect(await discardUnreadBody(requestWith([600, 600, 600]), BOUNDS)).toBe(false);
  });

  it('gives up on a body that stops coming, after maxMs', async () => {
    const started = Date.now();
    expect(await discardUnreadBody(requestWith([100], { stalls: true }), BOUNDS)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});
