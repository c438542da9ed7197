import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpstreamCall } from '../canonical/ports';
import { readUpstreamTextInTime } from './idle-guard';
import { fetchUpstream } from './upstream-fetch';

const CALL: UpstreamCall = {
  url: 'https://upstream.example/v1/chat/completions',
  init: { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"model":"m"}' },
};

/** A clock that gives the listed times in turn (the last one for ever after). */
function clock(...times: number[]) {
  return () => (times.length > 1 ? (times.shift() as number) : (times[0] as number));
}

/**
 * A fetch that records its calls and answers as `answer` says; by default it waits for its
 * signal and rejects with its reason, as the platform's fetch does.
 */
function fakeFetch(answer?: (signal: AbortSignal) => Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit; signal: AbortSignal }> = [];
  const doFetch = ((url: string, init: RequestInit) => {
    const signal = init.signal as AbortSignal;
    calls.push({ url, init, signal });
    if (answer) return answer(signal);
    return new Promise<Response>((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }) as unknown as typeof fetch;
  return { doFetch, calls };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('fetchUpstream', () => {
  it('returns the response with the latency measured on the injected clock', async () => {
    const { doFetch, calls } = fakeFetch(async () => new Response('{"ok":1}', { status: 200 }));
    const result = await fetchUpstream(doFetch, CALL, { timeoutMs: 1_000, now: clock(5_000, 5_250) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.latencyMs).toBe(250);
    expect(await result.response.text()).toBe('{"ok":1}');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(CALL.url);
    expect(calls[0]?.init).toMatchObject({ method: 'POST', body: '{"model":"m"}' });
    expect(calls[0]?.init.headers).toEqual({ authorization: 'Bearer k' });
    expect(calls[0]?.signal.aborted).toBe(false);
  });

  it('gives an upstream error status back as a response, not a failure', async () => {
    const { doFetch } = fakeFetch(async () => new Response('busy', { status: 503 }));
    const result = await fetchUpstream(doFetch, CALL, { timeoutMs: 1_000, now: clock(0) });
    expect(result.ok && result.response.status).toBe(503);
  });

  it('aborts the fetch and answers timeout when no headers come within timeoutMs', async () => {
    const { doFetch, calls } = fakeFetch();
    const pending = fetchUpstream(doFetch, CALL, { timeoutMs: 2_000, now: clock(0) });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(calls[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ ok: false, reason: 'timeout', message: 'no answer within 2000 ms' });
    expect(calls[0]?.signal.aborted).toBe(true);
    expect((calls[0]?.signal.reason as Error).message).toBe('upstream timeout');
  });

  it('answers network with the error message when the connection fails', async () => {
    const { doFetch } = fakeFetch(async () => {
      throw new TypeError('fetch failed: ECONNREFUSED');
    });
    expect(await fetchUpstream(doFetch, CALL, { timeoutMs: 1_000, now: clock(0) })).toEqual({
      ok: false,
      reason: 'network',
      message: 'fetch failed: ECONNREFUSED',
    });
  });

  it('answers network for a thrown non-Error too', async () => {
    const { doFetch } = fakeFetch(() => Promise.reject('socket hang up'));
    const result = await fetchUpstream(doFetch, CALL, { timeoutMs: 1_000, now: clock(0) });
    expect(result).toEqual({ ok: false, reason: 'network', message: 'socket hang up' });
  });

  it('makes no call when the client has already gone', async () => {
    const { doFetch, calls } = fakeFetch(async () => new Response('x'));
    const client = new AbortController();
    client.abort();
    const result = await fetchUpstream(doFetch, CALL, {
      timeoutMs: 1_000,
      clientSignal: client.signal,
      now: clock(0),
    });
    expect(result).toEqual({ ok: false, reason: 'client_aborted', message: 'client went away' });
    expect(calls).toHaveLength(0);
  });

  it('aborts the fetch and answers client_aborted when the client leaves during the call', async () => {
    const { doFetch, calls } = fakeFetch();
    const client = new AbortController();
    const pending = fetchUpstream(doFetch, CALL, {
      timeoutMs: 10_000,
      clientSignal: client.signal,
      now: clock(0),
    });
    await vi.advanceTimersByTimeAsync(100);
    client.abort();
    expect(await pending).toEqual({ ok: false, reason: 'client_aborted', message: 'client went away' });
    expect(calls[0]?.signal.aborted).toBe(true);
    expect((calls[0]?.signal.reason as Error).message).toBe('client went away');
  });

  describe('once the headers arrived', () => {
    /** A fetch answering with a body the test writes to when it likes. */
    function streamingFetch() {
      let writer!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          writer = c;
        },
      });
      const fake = fakeFetch(async () => new Response(body, { status: 200 }));
      return {
        ...fake,
        write: (text: string) => writer.enqueue(new TextEncoder().encode(text)),
        end: () => writer.close(),
      };
    }

    it('lets a body read long after timeoutMs complete (the timeout covers headers only)', async () => {
      const upstream = streamingFetch();
      const result = await fetchUpstream(upstream.doFetch, CALL, { timeoutMs: 100, now: clock(0) });
      if (!result.ok) throw new Error('expected a response');
      const text = result.response.text();
      upstream.write('hello ');
      await vi.advanceTimersByTimeAsync(5_000);
      expect(upstream.calls[0]?.signal.aborted).toBe(false);
      upstream.write('world');
      upstream.end();
      expect(await text).toBe('hello world');
    });

    it('still aborts the upstream when the client leaves mid-body', async () => {
      const upstream = streamingFetch();
      const client = new AbortController();
      const result = await fetchUpstream(upstream.doFetch, CALL, {
        timeoutMs: 100,
        clientSignal: client.signal,
        now: clock(0),
      });
      expect(result.ok).toBe(true);
      await vi.advanceTimersByTimeAsync(1_000);
      client.abort();
      expect(upstream.calls[0]?.signal.aborted).toBe(true);
    });

    it('gives the body bodyTimeoutMs from the headers, then aborts, on the same timer', async () => {
      const upstream = streamingFetch();
      let answer!: () => void;
      const headersAt950 = fakeFetch(
        () =>
          new Promise<Response>((resolve) => {
            answer = () => resolve(upstream.doFetch(CALL.url, {}));
          }),
      );
      const pending = fetchUpstream(headersAt950.doFetch, CALL, {
        timeoutMs: 1_000,
        bodyTimeoutMs: 100,
        now: clock(0),
      });
      await vi.advanceTimersByTimeAsync(950);
      answer();
      const result = await pending;
      if (!result.ok) throw new Error('expected a response');
      const reasons: string[] = [];
      const text = readUpstreamTextInTime(result.response, 100, (r) => void reasons.push(r), result.deadline);
      await vi.advanceTimersByTimeAsync(99);
      expect(reasons).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(await text).toBeNull();
      expect(reasons).toEqual(['upstream body not complete within 100 ms']);
      expect(headersAt950.calls[0]?.signal.aborted).toBe(false);
    });

    it('arms one timer and clears it once for the headers and the body together', async () => {
      const { doFetch } = fakeFetch(async () => new Response('{"ok":1}', { status: 200 }));
      const setSpy = vi.spyOn(globalThis, 'setTimeout');
      const clearSpy = vi.spyOn(globalThis, 'clearTimeout');
      const result = await fetchUpstream(doFetch, CALL, {
        timeoutMs: 1_000,
        bodyTimeoutMs: 100,
        now: clock(0),
      });
      if (!result.ok) throw new Error('expected a response');
      expect(await readUpstreamTextInTime(result.response, 100, () => {}, result.deadline)).toBe('{"ok":1}');
      expect(setSpy).toHaveBeenCalledOnce();
      expect(clearSpy).toHaveBeenCalledOnce();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(result.response.bodyUsed).toBe(true);
    });

    it('abort(reason) stops the upstream call with that reason', async () => {
      const upstream = streamingFetch();
      const result = await fetchUpstream(upstream.doFetch, CALL, { timeoutMs: 100, now: clock(0) });
      if (!result.ok) throw new Error('expected a response');
      result.abort('upstream idle timeout');
      expect(upstream.calls[0]?.signal.aborted).toBe(true);
      expect((upstream.calls[0]?.signal.reason as Error).message).toBe('upstream idle timeout');
    });
  });
});
