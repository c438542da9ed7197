// A store call's deadline on an event loop that was busy: the timer fires late, and the reply
// that came meanwhile is still waiting to be read (Node runs overdue timers before it polls its
// sockets). The deadline must not take that delay for the store's: under load the limits would
// be skipped (or refused, failing closed) for the gateway's own slowness. A store that really
// does not answer still fails, late timer or not. Real Redis over the Redis link's socket.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoalescer } from '../../shared/src/runtime/coalescer';
import { NO_PREAMBLE } from '../../shared/src/stores/resp/preamble';
import { createRespConnection, type RespConnection } from '../../shared/src/stores/resp/resp-connection';
import { withDeadline } from '../../shared/src/util/deadline';
import { INTEGRATION_REDIS_URL } from '../helpers/env';
import { nodeLinkConnection, nodeRespSocket } from '../helpers/node-resp-socket';
import { type SilentServer, startSilentServer } from '../helpers/silent-server';

const DEADLINE_MS = 50;
/** Longer than two deadlines: without the lateness excused, every call below would fail. */
const BUSY_MS = 250;

/** Keeps the event loop busy, as a burst of work on a loaded gateway does. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

/** Lets the submits' continuations run (each starts after an await), not the timers or I/O. */
async function tick(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

const connections: RespConnection[] = [];
let silent: SilentServer;

beforeAll(async () => {
  silent = await startSilentServer();
});

afterAll(async () => {
  for (const connection of connections) connection.close();
  await silent.close();
});

/** A connected link to the integration Redis (its first batch answered). */
async function liveLink(): Promise<RespConnection> {
  const connection = nodeLinkConnection(INTEGRATION_REDIS_URL);
  connections.push(connection);
  await connection.exec([['PING']]);
  return connection;
}

function silentLink(): RespConnection {
  const connection = createRespConnection({
    open: () => nodeRespSocket('127.0.0.1', silent.port),
    preamble: NO_PREAMBLE,
    stuckAfterMs: 10_000,
  });
  connections.push(connection);
  return connection;
}

describe('store deadlines after a busy event loop', () => {
  it("the link's own deadline: the reply that came while the loop was busy is read, not failed", async () => {
    const link = await liveLink();
    const answer = link.exec([['PING'], ['ECHO', 'still here']], DEADLINE_MS);
    busyFor(BUSY_MS);
    expect(await answer).toEqual(['PONG', 'still here']);
    // The socket was not failed either: the next batch goes on it.
    expect(await link.exec([['PING']], DEADLINE_MS)).toEqual(['PONG']);
  });

  it('withDeadline: the same, for a call raced against it', async () => {
    const link = await liveLink();
    const answer = withDeadline(link.exec([['ECHO', 'raced']]), DEADLINE_MS, 'Redis');
    busyFor(BUSY_MS);
    expect(await answer).toEqual(['raced']);
  });

  it('a caller waiting for another batch (the coalescer) gets its answer too', async () => {
    const link = await liveLink();
    const key = `sluice:test:busy-loop:${process.pid}:${Date.now()}`;
    const coalescer = createCoalescer<string, unknown>({
      // The first batch's answer comes 100 ms later (BLPOP on an empty list), while the loop is busy.
      send: (items) =>
        link.exec(items.map((item) => (item === 'first' ? ['BLPOP', key, '0.1'] : ['ECHO', item]))),
      timeoutMs: DEADLINE_MS,
      maxInFlight: 1,
    });
    const first = coalescer.submit('first');
    await tick();
    // The first batch is out: this one waits, on its own timer.
    const second = coalescer.submit('second');
    await tick();
    busyFor(BUSY_MS);
    expect(await first).toBeNull();
    expect(await second).toBe('second');
  });

  it('a store that does not answer still fails, late timer or not', async () => {
    const link = silentLink();
    const started = Date.now();
    const failed = link.exec([['PING']], DEADLINE_MS).catch((error: unknown) => error);
    busyFor(BUSY_MS);
    expect(String(await failed)).toMatch(`did not answer within ${DEADLINE_MS} ms`);
    // Given the lateness once more, at most the deadline again.
    expect(Date.now() - started).toBeLessThan(BUSY_MS + 3 * DEADLINE_MS + 200);

    const raced = withDeadline(silentLink().exec([['PING']]), DEADLINE_MS, 'Redis').catch((e: unknown) => e);
    busyFor(BUSY_MS);
    expect(String(await raced)).toMatch(`Redis did not answer within ${DEADLINE_MS} ms`);

    const never = createCoalescer<string, unknown>({
      send: (items) =>
        items.includes('out') ? new Promise(() => {}) : silentLink().exec([['PING']], DEADLINE_MS),
      timeoutMs: DEADLINE_MS,
    });
    void never.submit('out').catch(() => undefined);
    await tick();
    // Waiting on its timer while 'out' is out; the coalescer then sends it itself (its sender
    // bounds its own call: this one's answer never comes), and its own deadline ends the wait.
    const waiting = never.submit('waiting').catch((error: unknown) => error);
    await tick();
    busyFor(BUSY_MS);
    expect(String(await waiting)).toMatch(`store batch did not answer within ${DEADLINE_MS} ms`);
  });
});
