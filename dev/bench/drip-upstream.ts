import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * An OpenAI-compatible upstream for the open-streams bench: a streamed chat answers one content
 * chunk a second for `seconds` seconds, then its finish chunk, usage and [DONE]; a plain chat
 * answers at once. It counts the streams it is holding, so the bench can tell a stream the
 * gateway cut from one the upstream ended.
 */
export interface DripUpstream {
  url: string;
  open(): number;
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-drip',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'drip-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

const USAGE = `data: ${JSON.stringify({
  id: 'chatcmpl-drip',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'drip-model',
  choices: [],
  usage: { prompt_tokens: 5, completion_tokens: 120, total_tokens: 125 },
})}\n\n`;

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-plain',
  object: 'chat.completion',
  created: 1,
  model: 'drip-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

export async function startDripUpstream(seconds: number): Promise<DripUpstream> {
  let open = 0;
  const server: Server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const part of req) body += part;
    const stream = (JSON.parse(body || '{}') as { stream?: boolean }).stream === true;
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(COMPLETION);
      return;
    }
    open++;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: '' }));
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return stop();
      sent++;
      res.write(chunk({ content: ` token${sent}` }));
      if (sent >= seconds) {
        res.end(`${chunk({}, 'stop')}${USAGE}data: [DONE]\n\n`);
        stop();
      }
    }, 1_000);
    const stop = () => {
      clearInterval(timer);
      open--;
    };
    res.on('close', () => {
      if (!res.writableEnded) stop();
    });
  }
  server.keepAliveTimeout = 120_000;
  server.maxConnections = 100_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    open: () => open,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
