import { createServer } from 'node:net';

/*
 * Ports handed to a child that binds them later. The kernel's ephemeral range (Linux default
 * 32768–60999) is avoided on purpose: between our probe and the child's bind, any outgoing
 * connection on the machine may take an ephemeral port as its local end (CI saw workerd fail
 * with EADDRINUSE that way), whereas nothing takes a port below the range unless asked for it.
 */
const LOW = 20_000;
const HIGH = 32_000;
const ATTEMPTS = 64;

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await canBind(candidate)) return candidate;
  }
  return bindAndRelease(0);
}

function canBind(port: number): Promise<boolean> {
  return bindAndRelease(port).then(
    () => true,
    () => false,
  );
}

function bindAndRelease(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

export async function waitForHttp(
  url: string,
  timeoutMs: number,
  isReady = (r: Response) => r.ok,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (isReady(response)) return;
      lastError = `status ${response.status}: ${await response.text()}`;
    } catch (error) {
      lastError = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${lastError})`);
}
