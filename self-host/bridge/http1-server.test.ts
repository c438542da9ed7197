import { EventEmitter, once } from 'node:events';
import { type AddressInfo, createConnection, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestHead } from './http1-parse';
import {
  createLeanServer,
  type HeadVerdict,
  type LeanAnswer,
  type LeanHandler,
  type LeanServer,
  type LeanServerOptions,
} from './http1-server';

const servers: LeanServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const echo = (body: string) => JSON.stringify({ echo: body });

/** Records its calls in order ('head', 'answer', 'release'); echoes the body once `before` is done. */
class Recorder implements LeanHandler<RequestHead> {
  events: string[] = [];
  heads: RequestHead[] = [];
  bodies: string[] = [];
  signals = new EventEmitter();
  constructor(
    private before = async (_body: string): Promise<void> => {},
    private refusal?: LeanAnswer,
  ) {}
  record(event: string) {
    this.events.push(event);
    this.signals.emit(event);
  }
  head(head: RequestHead): HeadVerdict<RequestHead> {
    this.heads.push(head);
    this.record('head');
    return this.refusal ? { refuse: this.refusal } : { accept: head, release: () => this.record('release') };
  }
  answer(_head: RequestHead, body: Buffer): Promise<LeanAnswer> {
    this.bodies.push(body.toString());
    this.record('answer');
    return this.before(body.toString()).then(() => ({ status: 200, json: echo(body.toString()) }));
  }
}

async function start(
  handler: LeanHandler<RequestHead>,
  options: Partial<LeanServerOptions<RequestHead>> = {},
) {
  const limits = { maxHeadBytes: 1024, maxBodyBytes: 64, requestTimeoutMs: 5_000, keepAliveTimeoutMs: 5_000 };
  const server = createLeanServer({ handler, ...limits, ...options });
  const accepted: Socket[] = [];
  server.on('connection', (socket: Socket) => accepted.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { server, port: (server.address() as AddressInfo).port, accepted };
}

/** A server around `rec` and one client connected to it. */
async function serve(rec = new Recorder(), options: Partial<LeanServerOptions<RequestHead>> = {}) {
  const started = await start(rec, options);
  return { ...started, rec, client: await connect(started.port) };
}

type Answer = { status: number; headers: Record<string, string>; body: string };

/** The complete responses in `raw` (latin1), bodies framed by content-length (none for 1xx). */
function parseAnswers(raw: string, bodiless = false): Answer[] {
  const out: Answer[] = [];
  for (let at = 0; ; ) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) return out;
    const [line = '', ...fields] = raw.slice(at, end).split('\r\n');
    const status = Number(line.split(' ')[1]);
    const headers = Object.fromEntries(
      fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]),
    );
    const length = status < 200 || bodiless ? 0 : Number(headers['content-length']);
    if (raw.length < end + 4 + length) return out;
    const body = Buffer.from(raw.slice(end + 4, end + 4 + length), 'latin1').toString();
    out.push({ status, headers, body });
    at = end + 4 + length;
  }
}

/** A raw client: `until` waits for `done(raw)` or the end of the connection, `answers` for responses. */
async function connect(port: number) {
  const socket = createConnection({ host: '127.0.0.1', port });
  sockets.push(socket);
  let raw = '';
  let ended = false;
  let wake = () => {};
  socket.on('data', (chunk: Buffer) => {
    raw += chunk.toString('latin1');
    wake();
  });
  socket.on('error', () => {});
  const stop = () => {
    ended = true;
    wake();
  };
  socket.once('end', stop);
  // Not events.once, which rejects on 'error': a reset is a close here.
  const closed = new Promise<void>((resolve) => socket.once('close', resolve)).then(stop);
  await once(socket, 'connect');
  const until = async (done: (raw: string) => boolean) => {
    while (!done(raw) && !ended) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  const answers = async (count: number, bodiless = false) => {
    await until((r) => parseAnswers(r, bodiless).length >= count);
    return parseAnswers(raw, bodiless);
  };
  return { socket, raw: () => raw, until, answers, closed };
}

const closedWithin = (client: { closed: Promise<void> }, ms: number) =>
  Promise.race([client.closed.then(() => true), sleep(ms).then(() => false)]);
const statuses = (answers: Answer[]) => answers.map((a) => a.status);

function post(body: string, target = '/', fields = ''): Buffer {
  const data = Buffer.from(body);
  const head = `POST ${target} HTTP/1.1\r\nHost: t\r\n${fields}Content-Length: ${data.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), data]);
}

const CHUNKED = 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n';

describe('lean HTTP/1.1 server', () => {
  it('answers a POST with status line, content-type, a byte-exact content-length and the body', async () => {
    const { rec, client } = await serve();
    client.socket.write(post('héllo', '/pipeline'));
    await client.answers(1);
    const json = Buffer.from(echo('héllo')).toString('latin1');
    expect(client.raw()).toBe(
      `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${json.length}\r\n\r\n${json}`,
    );
    expect(rec.heads.map((h) => `${h.method} ${h.target}`)).toEqual(['POST /pipeline']);
    expect(rec.bodies).toEqual(['héllo']);
    expect(rec.events).toEqual(['head', 'answer', 'release']);
  });

  it('keeps the connection alive for a second request', async () => {
    const { client } = await serve();
    client.socket.write(post('one'));
    expect((await client.answers(1))[0]?.body).toBe(echo('one'));
    client.socket.write(post('two'));
    expect((await client.answers(2)).map((a) => a.body)).toEqual([echo('one'), echo('two')]);
    expect(client.raw()).not.toContain('connection');
  });

  it('answers pipelined requests in order, however long each takes', async () => {
    const rec = new Recorder(async (body) => {
      if (body === 'a') await sleep(20);
    });
    const { client } = await serve(rec);
    client.socket.write(Buffer.concat([post('a'), post('b'), post('c')]));
    expect((await client.answers(3)).map((a) => a.body)).toEqual([echo('a'), echo('b'), echo('c')]);
    expect(rec.events.join()).toBe('head,answer,release,head,answer,release,head,answer,release');
  });

  it('answers once a request that arrives one byte at a time', async () => {
    const { rec, client } = await serve();
    for (const byte of post('split body')) {
      client.socket.write(Buffer.from([byte]));
      await sleep(1);
    }
    expect((await client.answers(1)).map((a) => a.body)).toEqual([echo('split body')]);
    await sleep(20);
    expect(parseAnswers(client.raw())).toHaveLength(1);
    expect(rec.events).toEqual(['head', 'answer', 'release']);
  });

  it('reads a chunked body arriving in pieces', async () => {
    const { rec, client } = await serve();
    client.socket.write(`${CHUNKED}5\r\nhel`);
    await once(rec.signals, 'head');
    client.socket.write('lo\r\n6;x=1\r\n world\r\n0\r\nT: 1\r\n\r\n');
    expect((await client.answers(1))[0]?.body).toBe(echo('hello world'));
  });

  it('sends 100 Continue for Expect: 100-continue before the body, not when the body came along', async () => {
    const { rec, client } = await serve();
    client.socket.write('POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n');
    await client.until((raw) => raw.includes('\r\n\r\n'));
    expect(client.raw()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    expect(rec.events).toEqual(['head']);
    client.socket.write('hello');
    expect((await client.answers(2)).map((a) => a.status + a.body)).toEqual(['100', `200${echo('hello')}`]);
    client.socket.write(post('again', '/', 'Expect: 100-continue\r\n'));
    expect(statuses(await client.answers(3))).toEqual([100, 200, 200]);
  });

  it('answers HEAD with the headers (content-length included) and no body', async () => {
    const { client } = await serve();
    client.socket.write(Buffer.concat([Buffer.from('HEAD / HTTP/1.1\r\n\r\n'), post('next')]));
    await client.until((raw) => raw.endsWith(echo('next')));
    const fields = (json: string) =>
      `content-type: application/json\r\ncontent-length: ${json.length}\r\n\r\n`;
    const next = `HTTP/1.1 200 OK\r\n${fields(echo('next'))}${echo('next')}`;
    expect(client.raw()).toBe(`HTTP/1.1 200 OK\r\n${fields(echo(''))}${next}`);
  });

  it.each([
    ['Connection: close', 'POST / HTTP/1.1\r\nConnection: close\r\n', 'close', true],
    ['HTTP/1.0', 'POST / HTTP/1.0\r\n', 'close', true],
    // An HTTP/1.0 client keeps a connection only when told so.
    ['HTTP/1.0 with keep-alive', 'POST / HTTP/1.0\r\nConnection: keep-alive\r\n', 'keep-alive', false],
  ])('answers %s and closes or keeps the connection', async (_name, head, connection, closes) => {
    const { client } = await serve();
    client.socket.write(`${head}Content-Length: 1\r\n\r\nx`);
    const [answer, ...more] = await client.answers(1);
    expect([answer?.status, answer?.body, answer?.headers.connection, more]).toEqual([
      200,
      echo('x'),
      connection,
      [],
    ]);
    expect(await closedWithin(client, closes ? 2_000 : 50)).toBe(closes);
  });

  it.each([
    ['a malformed request line', 'GET /\r\n\r\n', 400],
    ['a bad header', 'GET / HTTP/1.1\r\nHost : x\r\n\r\n', 400],
    ['HTTP/2.0', 'GET / HTTP/2.0\r\n\r\n', 505],
    ['a gzip transfer coding', 'POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n', 501],
    ['a head over maxHeadBytes', `GET / HTTP/1.1\r\nX: ${'a'.repeat(1100)}`, 431],
    ['Content-Length over maxBodyBytes', 'POST / HTTP/1.1\r\nContent-Length: 65\r\n\r\n', 413],
    // Admitted by head() first: released once.
    ['chunks over maxBodyBytes', `${CHUNKED}41\r\n`, 413, 'head,release'],
  ])('answers %s with its status as JSON and closes', async (_name, request, status, events = '') => {
    const { rec, client } = await serve();
    client.socket.write(request);
    const answers = await client.answers(1);
    expect(statuses(answers)).toEqual([status]);
    expect(answers[0]?.headers).toMatchObject({ 'content-type': 'application/json', connection: 'close' });
    expect(JSON.parse(answers[0]?.body ?? '{}')).toEqual({ error: expect.any(String) });
    expect(await closedWithin(client, 2_000)).toBe(true);
    expect(statuses(parseAnswers(client.raw()))).toEqual([status]);
    expect(rec.events.join()).toBe(events);
  });

  it('sends no body after the headers of an error answer to HEAD', async () => {
    const { client } = await serve();
    client.socket.write('HEAD / HTTP/1.1\r\nContent-Length: 65\r\n\r\n');
    expect(statuses(await client.answers(1, true))).toEqual([413]);
    await client.closed;
    expect(client.raw()).toMatch(/\r\n\r\n$/);
  });

  it('does not hold a connection forever once it has answered with connection: close', async () => {
    const quick = { requestTimeoutMs: 200, keepAliveTimeoutMs: 200 };
    const { port, accepted } = await start(new Recorder(), quick);
    // A peer that never ends its side: allowHalfOpen keeps it from answering the server's FIN.
    const socket = createConnection({ host: '127.0.0.1', port, allowHalfOpen: true });
    sockets.push(socket.resume());
    socket.write('GET / HTTP/1.1\r\nConnection: close\r\n\r\n');
    await once(socket, 'end');
    const serverSide = accepted[0]!;
    const closing = serverSide.destroyed ? Promise.resolve(true) : once(serverSide, 'close').then(() => true);
    expect(await Promise.race([closing, sleep(1_000).then(() => false)])).toBe(true);
  });

  it('sends the refusal of head() without reading the body, and closes', async () => {
    const { rec, client } = await serve(new Recorder(undefined, { status: 401, json: '{"error":"no"}' }));
    client.socket.write('POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n12');
    await client.answers(1);
    const fields = 'content-type: application/json\r\ncontent-length: 14\r\nconnection: close';
    expect(client.raw()).toBe(`HTTP/1.1 401 Unauthorized\r\n${fields}\r\n\r\n{"error":"no"}`);
    expect(await closedWithin(client, 2_000)).toBe(true);
    expect(rec.events).toEqual(['head']);
  });

  it.each(['end', 'reset'])('releases once a request whose client goes (%s) mid-body', async (how) => {
    const { rec, client, accepted } = await serve();
    const released = once(rec.signals, 'release');
    client.socket.write('POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n123');
    await once(rec.signals, 'head');
    if (how === 'end') client.socket.end();
    else client.socket.resetAndDestroy();
    await released;
    const serverSide = accepted[0]!;
    if (!serverSide.destroyed) await once(serverSide, 'close');
    expect(rec.events).toEqual(['head', 'release']);
  });

  it('answers 500 when answer() rejects, and serves the next request on the connection', async () => {
    const rec = new Recorder(async (body) => {
      if (body === 'boom') throw new Error('boom');
    });
    const { client } = await serve(rec);
    client.socket.write(post('boom'));
    const [failed] = await client.answers(1);
    expect(failed?.status).toBe(500);
    expect(JSON.parse(failed?.body ?? '{}').error).toContain('boom');
    client.socket.write(post('fine'));
    expect((await client.answers(2)).map((a) => a.body)).toEqual([failed?.body, echo('fine')]);
    expect(rec.events.join()).toBe('head,answer,release,head,answer,release');
  });

  it('answers 500 when answer() throws synchronously, releasing once, and serves on', async () => {
    const rec = new Recorder();
    const answer = rec.answer.bind(rec);
    rec.answer = (head, body) => {
      if (body.toString() === 'x') {
        rec.record('answer');
        throw new Error('sync');
      }
      return answer(head, body);
    };
    const { client } = await serve(rec);
    client.socket.write(post('x'));
    expect(statuses(await client.answers(1))).toEqual([500]);
    expect(rec.events).toEqual(['head', 'answer', 'release']);
    client.socket.write(post('fine'));
    expect((await client.answers(2))[1]?.body).toBe(echo('fine'));
  });

  it.each([
    [0, ''],
    [20, ''],
    [20, 'GET / HT'],
  ])('answers a client that half-closes after its request (answer takes %i ms, then %j)', async (ms, cut) => {
    const { rec, client } = await serve(new Recorder(() => sleep(ms)));
    // A request cut short after the whole one is dropped, and the connection ends with the answer.
    client.socket.end(Buffer.concat([post('bye'), Buffer.from(cut)]));
    expect((await client.answers(1)).map((a) => [a.status, a.body])).toEqual([[200, echo('bye')]]);
    expect(await closedWithin(client, 2_000)).toBe(true);
    expect(rec.events).toEqual(['head', 'answer', 'release']);
  });

  it('answers 408 and closes when a head stops arriving for requestTimeoutMs', async () => {
    const { rec, client } = await serve(new Recorder(), { requestTimeoutMs: 200 });
    const since = performance.now();
    client.socket.write('POST / HTTP/1.1\r\nHo');
    expect(statuses(await client.answers(1))).toEqual([408]);
    expect(performance.now() - since).toBeGreaterThanOrEqual(150);
    expect(await closedWithin(client, 2_000)).toBe(true);
    expect(rec.events).toEqual([]);
  });

  it('answers 408 to a request trickling in for longer than requestTimeoutMs', async () => {
    const { client } = await serve(new Recorder(), { requestTimeoutMs: 200 });
    const since = performance.now();
    for (const byte of post('x'.repeat(60))) {
      if (client.socket.destroyed || client.raw()) break;
      client.socket.write(Buffer.from([byte]));
      await sleep(20);
    }
    expect(statuses(await client.answers(1))).toEqual([408]);
    expect(performance.now() - since).toBeLessThan(1_000);
    expect(await closedWithin(client, 2_000)).toBe(true);
  });

  it('closes an idle keep-alive connection after keepAliveTimeoutMs, without a response', async () => {
    const { client } = await serve(new Recorder(), { keepAliveTimeoutMs: 150 });
    client.socket.write(post('x'));
    await client.answers(1);
    const since = performance.now();
    await client.closed;
    expect(performance.now() - since).toBeGreaterThanOrEqual(100);
    expect(client.raw()).toMatch(/\r\n\r\n\{"echo":"x"\}$/);
    expect(parseAnswers(client.raw())).toHaveLength(1);
  });

  it('closeAllConnections() ends open connections so that close() completes', async () => {
    const rec = new Recorder(async (body) => {
      if (body === 'hang') await new Promise(() => {});
    });
    const timeouts = { keepAliveTimeoutMs: 60_000, requestTimeoutMs: 60_000 };
    const { server, port, accepted } = await start(rec, timeouts);
    const idle = await connect(port);
    idle.socket.write(post('x'));
    await idle.answers(1);
    const busy = await connect(port);
    busy.socket.write(post('hang'));
    await once(rec.signals, 'answer');
    const partial = await connect(port);
    partial.socket.write('GET / HT');
    while (accepted.length < 3) await once(server, 'connection');
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    servers.splice(servers.indexOf(server), 1);
    const closed = await Promise.all([idle, busy, partial].map((c) => closedWithin(c, 1_000)));
    expect(closed).toEqual([true, true, true]);
    expect(rec.events.filter((e) => e === 'release')).toHaveLength(2);
  });
});
