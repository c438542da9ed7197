import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * Sends `requests` one after another on one keep-alive TCP connection, as an HTTP client that
 * reuses its connections does: each once the answer before it is complete. Returns the answers
 * the connection carried (fewer than sent when it was closed or reset), and the socket error.
 */
export function onOneConnection(
  url: string,
  requests: RawRequest[],
  timeoutMs = 30_000,
): Promise<{ answers: RawAnswer[]; error: string | null }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), noDelay: true });
  const answers: RawAnswer[] = [];
  let received = Buffer.alloc(0);
  let error: string | null = null;
  const send = (request: RawRequest) => {
    const body = request.body ?? new Uint8Array();
    const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: ${hostname}:${port}`];
    for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
    if (request.body) lines.push(`content-length: ${body.byteLength}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (body.byteLength > 0) socket.write(body);
  };
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers, error });
    };
    const timer = setTimeout(() => {
      error = 'timed out';
      finish();
    }, timeoutMs);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const answer = takeAnswer();
      if (!answer) return;
      answers.push(answer);
      const next = requests[answers.length];
      if (next) send(next);
      else finish();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', finish);
    send(requests[0]!);
  });

  /** One complete answer (content-length framed) off the front of what came, if there is one. */
  function takeAnswer(): RawAnswer | null {
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const head = received.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (received.byteLength < end + 4 + length) return null;
    const body = received.subarray(end + 4, end + 4 + length).toString('utf8');
    received = received.subarray(end + 4 + length);
    return { status: Number(head.split(' ')[1]), body };
  }
}
