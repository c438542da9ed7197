// A lean HTTP/1.1 server for the store bridge's Upstash port (the gateway's Redis calls off its
// link, every admission on `npm start`), kept over Node's `http` because it costs less per
// request. `npm run bench:bridge` (wrk posting a /pipeline of EVALSHA calls to a bridge pinned to
// one core in front of real Redis; the bridge's own CPU time), last run on a 2-core machine
// heavily shared (load average 18-50), so indicative: one request every 5 ms on one connection
// (a quiet gateway) 706 µs of CPU per request against 1,418 µs on Node's `http`, p50 2.8 against
// 4.7 ms; 8 connections, 1 command 72-82 µs against 99-110 µs, 16 commands 129-155 µs against
// 148-177 µs. Node's `http` was cheaper in one row of sixteen (1 connection, 1 command, base64:
// 353 against 402 µs).
import { createServer, type Server, type Socket } from 'node:net';
import { HttpParseError, parseChunkedBody, parseRequestHead, type RequestHead } from './http1-parse';

/** What a lean handler answers: always JSON (the Upstash REST protocol). */
export interface LeanAnswer {
  status: number;
  json: string;
}

/** The admission of a request from its head alone, before any of its body is read. */
export type HeadVerdict<S> =
  /** Refused: the answer goes out, the body is never read and the connection closes. */
  | { refuse: LeanAnswer }
  /**
   * Let through: `accept` is what the handler read of the head, handed back to its answer()
   * (so nothing is read twice); `release` (if any) runs once the request is answered or abandoned.
   */
  | { accept: S; release?: () => void };

export interface LeanHandler<S> {
  head(head: RequestHead): HeadVerdict<S>;
  answer(accepted: S, body: Buffer): Promise<LeanAnswer>;
}

export interface LeanServerOptions<S> {
  handler: LeanHandler<S>;
  maxHeadBytes: number;
  maxBodyBytes: number;
  /** A request's head and body must have arrived this long after its first byte. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  505: 'HTTP Version Not Supported',
};

/**
 * A minimal HTTP/1.1 server for the bridge's hot endpoint. When admissions come one at a time
 * (a quiet gateway's), each runs through Node's `http` machinery cold (request and response
 * objects, streams, events): `npm run bench:bridge` paced at one every 5 ms puts the bridge at
 * 342–379 µs per request here against 389–510 µs there. Here a request is a head parsed from
 * the connection's bytes, a body framed by Content-Length or chunks, and one write of the
 * answer. Keep-alive, pipelined requests (answered in order), `Expect: 100-continue`, HEAD,
 * size caps and timeouts as RFC 9112 has them; anything malformed is answered with its
 * 4xx/5xx and the connection closes.
 */
export function createLeanServer<S>(options: LeanServerOptions<S>): LeanServer {
  const sockets = new Set<Socket>();
  // Half-open: a client that ends its side after its request still gets the answer.
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    new LeanConnection(socket, options);
  });
  return Object.assign(server, {
    closeAllConnections() {
      for (const socket of sockets) socket.destroy();
    },
  });
}

export interface LeanServer extends Server {
  /** Ends every connection at once, idle or not (as Node's http server does on shutdown). */
  closeAllConnections(): void;
}

/** After a `connection: close` answer, how long a peer may keep its side open. */
const LINGER_MS = 5_000;

/** One connection: its bytes, the request being answered, and its timeouts. */
class LeanConnection<S> {
  private pending: Buffer = Buffer.alloc(0);
  private busy = false;
  private peerEnded = false;
  private closed = false;
  /** When the first byte of the request now arriving came (0: none is). */
  private startedAt = 0;
  private continued = false;
  /** Set once the head of the request now arriving was let through, until it is done. */
  private admitted: { accepted: S; release?: () => void } | undefined;
  /**
   * The head of the request now arriving, once read (parsed once, however its body arrives);
   * an error answer to HEAD has no body.
   */
  private current: RequestHead | null = null;
  private timeout: number;

  constructor(
    private readonly socket: Socket,
    private readonly options: LeanServerOptions<S>,
  ) {
    this.timeout = options.keepAliveTimeoutMs;
    socket.setTimeout(this.timeout);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.onEnd());
    socket.on('timeout', () => this.onTimeout());
    socket.on('error', () => {
      this.abandon();
      socket.destroy();
    });
    socket.on('close', () => this.abandon());
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    if (!this.busy) this.run();
    // Pipelined requests wait while one is answered; past a whole request's worth, reading stops.
    else if (this.pending.length > this.options.maxHeadBytes + this.options.maxBodyBytes) this.socket.pause();
  }

  private onEnd(): void {
    this.peerEnded = true;
    // Whatever is left unanswered is a request cut short: there is nothing to answer.
    if (!this.busy && !this.closed) this.close();
  }

  private onTimeout(): void {
    if (this.closed) this.socket.destroy();
    else if (this.busy) return;
    else if (this.pending.length > 0) this.fail(408, 'request timed out');
    else this.close();
  }

  private run(): void {
    this.drain().catch((error: unknown) => {
      if (error instanceof HttpParseError) this.fail(error.status, error.message);
      else this.fail(500, `bridge: ${String(error)}`);
    });
  }

  /** Answers every whole request buffered, in order; returns when one is still arriving. */
  private async drain(): Promise<void> {
    this.busy = true;
    while (!this.closed && this.pending.length > 0) {
      this.startedAt ||= Date.now();
      if (Date.now() - this.startedAt > this.options.requestTimeoutMs)
        return this.fail(408, 'request timed out');
      const head = this.current ?? parseRequestHead(this.pending, 0, this.options.maxHeadBytes);
      if (!head) break;
      this.current = head;
      const admitted = this.admitted ?? this.admit(head);
      if (!admitted) return;
      const framed = this.bodyOf(head);
      if (!framed) {
        this.awaitBody(head);
        break;
      }
      this.pending = this.pending.subarray(head.length + framed.length);
      this.startedAt = 0;
      this.continued = false;
      const answer = await this.answer(admitted.accepted, framed.body);
      this.current = null;
      if (this.closed) return;
      this.send(head, answer, !head.keepAlive || (this.peerEnded && this.pending.length === 0));
    }
    this.busy = false;
    if (this.socket.isPaused()) this.socket.resume();
    if (this.peerEnded && !this.closed) this.close();
    this.setTimeoutTo(
      this.pending.length > 0 ? this.options.requestTimeoutMs : this.options.keepAliveTimeoutMs,
    );
  }

  /** The head's verdict, before any of the body is read: undefined when it was refused (and answered). */
  private admit(head: RequestHead): { accepted: S; release?: () => void } | undefined {
    if (head.body.kind === 'length' && head.body.bytes > this.options.maxBodyBytes) {
      this.fail(413, `request body exceeds ${this.options.maxBodyBytes} bytes`);
      return undefined;
    }
    const verdict = this.options.handler.head(head);
    if ('refuse' in verdict) {
      this.send(head, verdict.refuse, true);
      return undefined;
    }
    this.admitted = { accepted: verdict.accept, release: verdict.release };
    return this.admitted;
  }

  /** The body of `head` once it has all arrived: its bytes and how many were consumed. */
  private bodyOf(head: RequestHead): { body: Buffer; length: number } | null {
    const at = head.length;
    if (head.body.kind === 'none') return { body: Buffer.alloc(0), length: 0 };
    if (head.body.kind === 'chunked') return parseChunkedBody(this.pending, at, this.options.maxBodyBytes);
    if (this.pending.length - at < head.body.bytes) return null;
    return { body: this.pending.subarray(at, at + head.body.bytes), length: head.body.bytes };
  }

  /** A client that waits for `100 Continue` before its body is told to go on, once. */
  private awaitBody(head: RequestHead): void {
    if (!this.continued && head.minor === 1 && head.headers.get('expect')?.toLowerCase() === '100-continue') {
      this.socket.write('HTTP/1.1 100 Continue\r\n\r\n');
    }
    this.continued = true;
  }

  /** The handler's answer (a failure of the handler is a 500); the request's hold ends with it. */
  private async answer(accepted: S, body: Buffer): Promise<LeanAnswer> {
    try {
      return await this.options.handler.answer(accepted, body);
    } catch (error) {
      return { status: 500, json: JSON.stringify({ error: `bridge: ${String(error)}` }) };
    } finally {
      this.releaseAdmitted();
    }
  }

  /** Ends the hold of the request let through, once. */
  private releaseAdmitted(): void {
    const release = this.admitted?.release;
    this.admitted = undefined;
    release?.();
  }

  private send(head: RequestHead | null, answer: LeanAnswer, close: boolean): void {
    const reason = REASONS[answer.status] ?? 'Unknown';
    let text = `HTTP/1.1 ${answer.status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(answer.json)}\r\n`;
    // An HTTP/1.0 client keeps the connection only when told so.
    if (close) text += 'connection: close\r\n';
    else if (head?.minor === 0) text += 'connection: keep-alive\r\n';
    text += '\r\n';
    if (head?.method !== 'HEAD') text += answer.json;
    if (close) this.close(text);
    else this.socket.write(text);
  }

  private fail(status: number, message: string): void {
    this.send(this.current, { status, json: JSON.stringify({ error: `ERR ${message}` }) }, true);
  }

  /** Ends the connection (after `last`, if given); a peer that keeps its side open is cut off. */
  private close(last?: string): void {
    this.abandon();
    this.setTimeoutTo(Math.min(LINGER_MS, this.options.keepAliveTimeoutMs));
    if (last === undefined) this.socket.end();
    else this.socket.end(last);
  }

  private abandon(): void {
    this.closed = true;
    this.releaseAdmitted();
  }

  private setTimeoutTo(ms: number): void {
    if (ms === this.timeout) return;
    this.timeout = ms;
    this.socket.setTimeout(ms);
  }
}
