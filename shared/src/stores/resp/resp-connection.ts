import { DeadlineError, deadlineTimer } from '../../util/deadline';
import { type Preamble, requiredReplies } from './preamble';
import { encodeCommands, RespError, RespReader, type RespReply } from './resp-codec';

/** A byte stream to Redis, as workerd's `connect()` and Node's `Duplex.toWeb` give one. */
export interface RespSocket {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
  close(): void | Promise<void>;
}

export interface RespConnectionOptions {
  open(): RespSocket;
  /** Sent first on every new socket (AUTH, SELECT, CLIENT SETNAME); see preamble.ts. */
  preamble: Preamble;
  /**
   * A batch unanswered this long marks the socket as stuck: the next batch replaces it (its
   * callers have given up by then; their own deadlines are this long too).
   */
  stuckAfterMs: number;
  now?: () => number;
}

export interface RespConnection {
  /**
   * The commands in one write, their replies in order (error replies as RespError). With
   * `deadlineMs`, a batch unanswered that long fails with a DeadlineError and takes its socket
   * with it (replies come in order, so all behind it wait too): whatever the caller sends next,
   * even at once, goes on a new socket.
   */
  exec(commands: readonly (readonly string[])[], deadlineMs?: number): Promise<RespReply[]>;
  close(): void;
}

interface Batch {
  replies: RespReply[];
  expected: number;
  sentAt: number;
  resolve(replies: RespReply[]): void;
  reject(error: unknown): void;
}

interface Live {
  socket: RespSocket;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  batches: Batch[];
  failed: boolean;
}

/**
 * One Redis connection, pipelined: every batch is written as it comes, replies are matched to
 * batches in order. Opened on first use with its preamble written ahead of the first batch
 * (no extra round trip); a socket that fails, closes or gets stuck fails what waits on it and
 * is replaced by the next batch.
 */
export function createRespConnection(options: RespConnectionOptions): RespConnection {
  const now = options.now ?? Date.now;
  let live: Live | null = null;

  const fail = (state: Live, error: unknown): void => {
    if (state.failed) return;
    state.failed = true;
    if (live === state) live = null;
    for (const batch of state.batches.splice(0)) batch.reject(error);
    Promise.resolve()
      .then(() => state.socket.close())
      .catch(() => {});
  };

  const connect = (): Live => {
    const socket = options.open();
    const state: Live = { socket, writer: socket.writable.getWriter(), batches: [], failed: false };
    if (options.preamble.commands.length > 0) {
      // Not waited for: the first batch follows it on the wire, so it costs no round trip.
      state.batches.push(preambleBatch(options.preamble, now(), state, fail));
      send(state, encodeCommands(options.preamble.commands), fail);
    }
    read(state, fail);
    return state;
  };

  return {
    exec(commands, deadlineMs) {
      if (commands.length === 0) return Promise.resolve([]);
      if (live && isStuck(live, now(), options.stuckAfterMs)) {
        fail(live, new Error(`Redis did not answer within ${options.stuckAfterMs} ms`));
      }
      const state = live ?? connect();
      live = state;
      const answered = new Promise<RespReply[]>((resolve, reject) => {
        state.batches.push({ replies: [], expected: commands.length, sentAt: now(), resolve, reject });
        send(state, encodeCommands(commands), fail);
      });
      if (deadlineMs === undefined) return answered;
      // A late timer is the isolate's delay, not Redis's: it is given once more (deadlineTimer).
      const settled = deadlineTimer(
        deadlineMs,
        () => fail(state, new DeadlineError(`Redis did not answer within ${deadlineMs} ms`)),
        now,
      );
      answered.then(settled, settled);
      return answered;
    },
    close() {
      if (live) fail(live, new Error('Redis connection closed'));
    },
  };
}

function send(state: Live, bytes: Uint8Array, fail: (state: Live, error: unknown) => void): void {
  state.writer.write(bytes).catch((error: unknown) => fail(state, error));
}

/** The preamble's batch: an error reply to a required command (a wrong password) fails the socket. */
function preambleBatch(
  preamble: Preamble,
  sentAt: number,
  state: Live,
  fail: (state: Live, error: unknown) => void,
): Batch {
  return {
    replies: [],
    expected: preamble.commands.length,
    sentAt,
    resolve(replies) {
      const refused = requiredReplies(preamble, replies).find((reply) => reply instanceof RespError);
      if (refused) fail(state, new Error(`Redis refused the connection: ${refused.message}`));
    },
    reject() {},
  };
}

function isStuck(state: Live, at: number, stuckAfterMs: number): boolean {
  const oldest = state.batches[0];
  return oldest !== undefined && at - oldest.sentAt > stuckAfterMs;
}

async function read(state: Live, fail: (state: Live, error: unknown) => void): Promise<void> {
  const reader = state.socket.readable.getReader();
  const parser = new RespReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const reply of parser.push(value)) deliver(state, reply);
    }
    fail(state, new Error('Redis closed the connection'));
  } catch (error) {
    fail(state, error);
  } finally {
    reader.releaseLock();
  }
}

function deliver(state: Live, reply: RespReply): void {
  const batch = state.batches[0];
  if (!batch) throw new Error('a Redis reply nobody asked for');
  batch.replies.push(reply);
  if (batch.replies.length < batch.expected) return;
  state.batches.shift();
  batch.resolve(batch.replies);
}
