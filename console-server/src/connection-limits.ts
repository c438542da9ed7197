import type { Server, ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_TYPES, type ErrorStatus } from '@sluice/shared/http';

/** What a client sending after its refusal may still send before its connection is closed. */
const LINGER_MS = 2_000;

const REFUSALS: Record<string, { status: ErrorStatus; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    message: 'The request headers are too large',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    message: 'The request did not arrive in time',
  },
};

/**
 * The console's limits on a connection: a request (its body included) must arrive within
 * `bodyTimeoutMs` (SLUICE_BODY_TIMEOUT_MS), else 408. Node checks that on an interval (30 s by
 * default): a tenth of the limit, so a slow request goes within 10 % of it.
 */
export function connectionOptions(bodyTimeoutMs: number): ServerOptions {
  return {
    requestTimeout: bodyTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.round(bodyTimeoutMs / 10))),
  };
}

/**
 * A request Node refuses before the app sees it (headers too large, too slow, malformed) is
 * answered in the console's error envelope and the connection closed gracefully: what the
 * client is still sending is read and dropped for a moment first, because closing a socket with
 * unread bytes makes the kernel reset it, and the client would see the reset, not the answer.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const refusal = REFUSALS[error.code ?? ''] ?? {
      status: 400 as const,
      reason: 'Bad Request',
      message: 'The request could not be read',
    };
    // As Node's own handler: only where no answer has begun on the connection.
    const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || answering?.headersSent) return void socket.destroy();
    const type = ERROR_TYPES[refusal.status];
    const body = JSON.stringify({ error: { type, message: refusal.message } });
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}
