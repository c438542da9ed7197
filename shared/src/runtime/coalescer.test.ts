import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallDeadline } from '../util/call-deadline';
import { createCoalescer } from './coalescer';

/** A send() that records each batch and answers when told to. */
function controlledSend() {
  const batches: string[][] = [];
  const answers: Array<(results: string[] | Error) => void> = [];
  const send = (items: readonly string[]) => {
    batches.push([...items]);
    return new Promise<readonly string[]>((resolve, reject) => {
      answers.push((results) => (results instanceof Error ? reject(results) : resolve(results)));
    });
  };
  const answer = (i: number, results?: string[] | Error) =>
    answers[i]?.(results ?? (batches[i] ?? []).map((item) => `${item}!`));
  return { batches, send, answer };
}

// The coalescer's waits run on timers: fake ones, moved by hand, so a slow machine cannot fire
// a 5 ms patience timer before the step that was to come first.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs what is due now (the submissions' own turn, answers), without moving the clock. */
const tick = () => vi.advanceTimersByTimeAsync(0);

/**
 * A coalescer whose sender may not follow up, with 'a' in flight: a caller waiting behind it
 * sends from a timer (patienceMs 5). `answerFirst` answers 'a' and checks the sender sent no more.
 */
async function oneInFlight() {
  const s = controlledSend();
  const c = createCoalescer({ send: s.send, timeoutMs: 1_000, maxFollowUps: 0, patienceMs: 5 });
  const first = c.submit('a');
  await tick();
  const answerFirst = async () => {
    s.answer(0);
    expect(await first).toBe('a!');
    await tick();
    expect(s.batches).toEqual([['a']]);
  };
  return { s, c, answerFirst };
}

describe('createCoalescer', () => {
  it('sends the items of one tick as one batch and answers each in order', async () => {
    const s = controlledSend();
    const c = createCoalescer({ send: s.send, timeoutMs: 1_000 });
    const results = Promise.all(['a', 'b', 'c'].map((item) => c.submit(item)));
    await tick();
    expect(s.batches).toEqual([['a', 'b', 'c']]);
    s.answer(0);
    expect(await results).toEqual(['a!', 'b!', 'c!']);
  });

  it('holds items that arrive while a batch is out and sends them together when it returns', async () => {
    const s = controlledSend();
    const c = createCoalescer({ send: s.send, timeoutMs: 1_000 });
    const first = c.submit('a');
    await tick();
    const later = ['b', 'c', 'd'].map((item) => c.submit(item));
    await tick();
    expect(s.batches).toEqual([['a']]);
    s.answer(0);
    expect(await first).toBe('a!');
    await tick();
    expect(s.batches).toEqual([['a'], ['b', 'c', 'd']]);
    s.answer(1);
    expect(await Promise.all(later)).toEqual(['b!', 'c!', 'd!']);
  });

  it('keeps up to maxInFlight batches out and splits at maxBatch', async () => {
    const s = controlledSend();
    const c = createCoalescer({ send: s.send, timeoutMs: 1_000, maxInFlight: 2, maxBatch: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((item) => c.submit(item));
    await tick();
    expect(s.batches).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    s.answer(1);
    await tick();
    expect(s.batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    s.answer(0);
    s.answer(2);
    expect(await Promise.all(all)).toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
  });

  it('fails every item of a failed batch, and the next batch still goes', async () => {
    const s = controlledSend();
    const c = createCoalescer({ send: s.send, timeoutMs: 1_000 });
    const failing = [c.submit('a'), c.submit('b')];
    await tick();
    const next = c.submit('c');
    s.answer(0, new Error('redis down'));
    for (const f of failing) await expect(f).rejects.toThrow('redis down');
    await tick();
    s.answer(1);
    expect(await next).toBe('c!');
  });

  it('a waiting caller gives up after timeoutMs, and a batch whose sender vanished frees its slot', async () => {
    const s = controlledSend();
    let clock = 0;
    const c = createCoalescer({ send: s.send, timeoutMs: 50, now: () => clock });
    void c.submit('lost').catch(() => undefined); // its batch never answers
    await tick();
    const waiting = expect(c.submit('late')).rejects.toThrow('did not answer within 50 ms');
    // Its timer looks every patienceMs (20): the look at 60 ms finds it past 50.
    await vi.advanceTimersByTimeAsync(60);
    await waiting;
    // Past timeoutMs the silent batch no longer holds the only slot: the next item goes.
    clock = 60;
    const next = c.submit('next');
    await tick();
    expect(s.batches).toEqual([['lost'], ['next']]);
    s.answer(1);
    expect(await next).toBe('next!');
  });

  it('when the sender may not send again, a waiting caller sends from its own timer', async () => {
    const { s, c, answerFirst } = await oneInFlight();
    const later = c.submit('b');
    await tick();
    await answerFirst();
    await vi.advanceTimersByTimeAsync(5);
    expect(s.batches).toEqual([['a'], ['b']]);
    s.answer(1);
    expect(await later).toBe('b!');
  });

  it("waits on the request's own timer when given one: sends from it, gives up with it, leaves it armed", async () => {
    const { s, c, answerFirst } = await oneInFlight();
    const timer = createCallDeadline();
    const pause = vi.spyOn(timer, 'pause');
    const stop = vi.spyOn(timer, 'stop');
    const setSpy = vi.spyOn(globalThis, 'setTimeout');
    const later = c.submit('b', undefined, timer);
    await tick();
    expect(setSpy.mock.calls.filter(([, ms]) => ms === 5)).toHaveLength(1);
    await answerFirst();
    await vi.advanceTimersByTimeAsync(5);
    // The sender may not follow up: the waiter sent its item from the request's timer.
    expect(s.batches).toEqual([['a'], ['b']]);
    s.answer(1);
    expect(await later).toBe('b!');
    expect(pause).toHaveBeenCalledOnce();
    expect(stop).not.toHaveBeenCalled();
    setSpy.mockRestore();

    const quick = createCoalescer({ send: s.send, timeoutMs: 30, patienceMs: 5 });
    void quick.submit('lost').catch(() => undefined);
    await tick();
    const late = expect(quick.submit('late', undefined, createCallDeadline())).rejects.toThrow(
      'within 30 ms',
    );
    await vi.advanceTimersByTimeAsync(30);
    await late;
  });

  it('hands the batch to keepAlive of the caller that sends it', async () => {
    const s = controlledSend();
    const c = createCoalescer({ send: s.send, timeoutMs: 1_000 });
    const kept: Array<Promise<unknown>> = [];
    const a = c.submit('a', (work) => kept.push(work));
    await tick();
    expect(kept).toHaveLength(1);
    s.answer(0);
    await a;
    await expect(kept[0]).resolves.toBeUndefined();
  });
});
