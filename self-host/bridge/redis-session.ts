import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { RedisEndpoint } from '@sluice/shared/stores';
import {
  encodeCommandText,
  preambleFor,
  REDIS_CLIENT_NAMES,
  RespError,
  RespReader,
  requiredReplies,
} from '@sluice/shared/stores';
import type { RedisReply } from './redis-backend';

/** Redis could not be reached, or stopped answering: transport trouble, not a Redis error. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

export interface Batch {
  /** Replies still to come. */
  remaining: number;
  replies: RedisReply[];
  deadline: number;
  settle(replies: RedisReply[]): void;
  fail(error: Error): void;
}

export interface Session {
  /** Commands in RESP's request form: text, or bytes already encoded (pipeline-transcode.ts). */
  send(payload: string | Buffer, batch: Batch): void;
  /** Resolves once the in-flight batches are answered (or failed) and the socket is closed. */
  end(): Promise<void>;
}

export interface SessionEvents {
  ready(): void;
  gone(error: Error, wasReady: boolean): void;
}

export interface SessionTimeouts {
  connectMs: number;
  commandMs: number;
}

export function openSession(
  endpoint: RedisEndpoint,
  timeouts: SessionTimeouts,
  events: SessionEvents,
): Session {
  return new RedisSession(endpoint, timeouts, events);
}

/** One socket's life: handshake, pipelined batches answered in order, failure of the rest on close. */
class RedisSession implements Session {
  private readonly socket: Socket;
  /** Strings stay bytes (views of the received chunks): the HTTP layer encodes them once. */
  private readonly reader = new RespReader(asBuffer);
  private readonly inFlight = new BatchQueue();
  private readonly connectTimer: NodeJS.Timeout;
  private readonly watchdog: NodeJS.Timeout;
  /** Batches sent in the same turn of the event loop (concurrent HTTP requests) share one write. */
  private outgoing: Array<string | Buffer> = [];
  // Node's queueMicrotask wraps every callback in an AsyncResource; a resolved promise does not.
  private readonly flushSoon = () => this.flush();
  private ready = false;
  private dead: Error | null = null;
  private lastSentAt = Date.now();

  constructor(
    private readonly endpoint: RedisEndpoint,
    private readonly timeouts: SessionTimeouts,
    private readonly events: SessionEvents,
  ) {
    const { host, port } = endpoint;
    this.socket = endpoint.tls
      ? connectTls({ host, port, servername: isIP(host) ? '' : host })
      : connectTcp({ host, port });
    this.socket.setNoDelay(true);
    this.socket.setKeepAlive(true, 15_000);
    const connected = endpoint.tls ? 'secureConnect' : 'connect';
    this.connectTimer = setTimeout(
      () => this.die(`no connection within ${timeouts.connectMs} ms`),
      timeouts.connectMs,
    );
    // One cheap timer per connection instead of one per batch: the oldest batch times out first.
    this.watchdog = setInterval(() => this.checkDeadline(), Math.max(50, Math.floor(timeouts.commandMs / 4)));
    this.watchdog.unref();
    this.socket.on(connected, () => clearTimeout(this.connectTimer));
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (error) => this.die(error.message));
    this.socket.on('close', () => this.die('connection closed'));
    this.startHandshake();
  }

  send(payload: string | Buffer, batch: Batch): void {
    if (this.dead) throw this.dead;
    this.lastSentAt = Date.now();
    batch.deadline = this.lastSentAt + this.timeouts.commandMs;
    this.inFlight.push(batch);
    // One write per turn of work (an HTTP request's commands go out together), at once: a
    // setImmediate would hold every command until the event loop's next check phase.
    if (this.outgoing.length === 0) void Promise.resolve().then(this.flushSoon);
    this.outgoing.push(payload);
  }

  async end(): Promise<void> {
    const deadline = Date.now() + 1_000;
    while (!this.dead && this.inFlight.peek() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (this.dead) return;
    const gone = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.socket.end();
    const force = setTimeout(() => this.socket.destroy(), 1_000);
    await gone;
    clearTimeout(force);
  }

  private flush(): void {
    const payloads = this.outgoing;
    this.outgoing = [];
    if (this.dead) return;
    if (payloads.length === 1) {
      this.socket.write(payloads[0] as string | Buffer);
      return;
    }
    this.socket.cork();
    for (const payload of payloads) this.socket.write(payload);
    this.socket.uncork();
  }

  /** AUTH/SELECT/CLIENT SETNAME go first; commands sent meanwhile queue behind them on the socket. */
  private startHandshake(): void {
    const handshake = preambleFor(this.endpoint, REDIS_CLIENT_NAMES.storeBridge);
    this.send(encodeCommandText(handshake.commands), {
      remaining: handshake.commands.length,
      replies: [],
      deadline: 0,
      settle: (replies) => {
        const refused = requiredReplies(handshake, replies).find((reply) => reply instanceof RespError);
        if (refused) this.die(`${(refused as RespError).message} (check REDIS_URL)`);
        else this.markReady();
      },
      fail: () => {},
    });
  }

  private markReady(): void {
    this.ready = true;
    this.events.ready();
  }

  private read(chunk: Buffer): void {
    let replies: RedisReply[];
    try {
      replies = this.reader.push(chunk);
    } catch (error) {
      this.die(`protocol error: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    for (const reply of replies) this.deliver(reply);
  }

  private deliver(reply: RedisReply): void {
    if (this.dead) return; // the rest of a chunk after a fatal handshake error
    const batch = this.inFlight.peek();
    if (!batch) {
      this.die('a reply nobody asked for');
      return;
    }
    batch.replies.push(reply);
    batch.remaining -= 1;
    if (batch.remaining === 0) {
      this.inFlight.shift();
      batch.settle(batch.replies);
    }
  }

  private checkDeadline(): void {
    const now = Date.now();
    const oldest = this.inFlight.peek();
    if (oldest) {
      if (oldest.deadline < now) this.die(`no answer within ${this.timeouts.commandMs} ms`);
      return;
    }
    // An idle connection whose network path broke looks alive until a command waits on it: a
    // PING after a quiet spell finds out first, so the next caller gets a fresh connection.
    if (this.ready && now - this.lastSentAt >= this.timeouts.commandMs) this.send(PING, HEARTBEAT());
  }

  /** Ends the session: every batch still in flight fails with the reason. */
  private die(reason: string): void {
    if (this.dead) return;
    const where = `${this.endpoint.host}:${this.endpoint.port}`;
    const error = new RedisUnavailableError(
      `${this.ready ? 'lost' : 'could not reach'} Redis at ${where}: ${reason}`,
    );
    this.dead = error;
    clearInterval(this.watchdog);
    clearTimeout(this.connectTimer);
    this.socket.destroy();
    for (const batch of this.inFlight.drain()) batch.fail(error);
    this.events.gone(error, this.ready);
  }
}

const PING = encodeCommandText([['PING']]);
const HEARTBEAT = (): Batch => ({ remaining: 1, replies: [], deadline: 0, settle: () => {}, fail: () => {} });

/** A socket's chunk is a Buffer, and so is its subarray; a joined one is viewed, not copied. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** FIFO of batches awaiting replies: an array with a moving head (shift() is O(n)). */
class BatchQueue {
  private items: (Batch | undefined)[] = [];
  private head = 0;

  push(batch: Batch): void {
    this.items.push(batch);
  }

  peek(): Batch | undefined {
    return this.items[this.head];
  }

  shift(): void {
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  drain(): Batch[] {
    const rest = this.items.slice(this.head).filter((batch): batch is Batch => batch !== undefined);
    this.items = [];
    this.head = 0;
    return rest;
  }
}
