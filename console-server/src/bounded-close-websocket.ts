import WebSocket from 'ws';

/** How long a closing handshake may take before the socket is dropped instead. */
export const CLOSE_HANDSHAKE_MS = 1_000;

/**
 * The WebSocket the console's Postgres pool runs on. `ws` waits up to 30 s for the peer's
 * reply to a close frame, and the pool's connect deadline (SLUICE_DB_TIMEOUT_MS) only ends
 * once the socket has closed: over a dead network path every new connection would hang for
 * 30 s. Past CLOSE_HANDSHAKE_MS the socket is terminated; the Postgres Terminate message was
 * written before the close frame, so nothing a live peer needed is lost.
 */
export class BoundedCloseWebSocket extends WebSocket {
  override close(code?: number, reason?: string | Buffer): void {
    super.close(code, reason);
    if (this.readyState === WebSocket.CLOSED) return;
    const timer = setTimeout(() => this.terminate(), CLOSE_HANDSHAKE_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  }
}
