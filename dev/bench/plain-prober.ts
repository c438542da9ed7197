import { Worker } from 'node:worker_threads';

/**
 * Plain (non-streamed) chats sent one at a time, a pause between them, from a thread of its
 * own, to a model whose upstream answers in that thread too: their latency is the gateway's,
 * not the wait behind the bench's main event loop, which carries thousands of open streams and
 * the upstream that drips into them.
 */
export interface PlainProber {
  /** The OpenAI-compatible upstream (…/v1) that answers the probes at once. */
  upstreamUrl: string;
  /** Starts probing `model` through the gateway with `key`, a pause of `pauseMs` between calls. */
  start(probe: { gatewayUrl: string; key: string; model: string; pauseMs: number }): void;
  /** Stops after the request in flight; resolves with the answered probes and the failures. */
  stop(): Promise<{ probes: PlainProbe[]; failed: number }>;
  /** Ends the thread, probing or not (after a failure). */
  close(): Promise<void>;
}

const PROBER = `
const { parentPort } = require('node:worker_threads');
const { createServer } = require('node:http');
const COMPLETION = JSON.stringify({
  id: 'chatcmpl-plain', object: 'chat.completion', created: 1, model: 'plain-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(COMPLETION));
});
server.keepAliveTimeout = 120000;
let probing = false;
const probes = [];
let failed = 0;
async function probe({ gatewayUrl, key, model, pauseMs }) {
  probing = true;
  while (probing) {
    const at = Date.now();
    const started = performance.now();
    const response = await fetch(gatewayUrl + '/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'plain' }] }),
      signal: AbortSignal.timeout(30000),
    }).catch(() => null);
    await response?.arrayBuffer().catch(() => {});
    if (response?.status === 200) probes.push({ at, ms: performance.now() - started });
    else failed++;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  server.close();
  parentPort.postMessage({ kind: 'done', probes, failed });
}
parentPort.on('message', (message) => {
  if (message.kind === 'start') void probe(message.probe);
  else probing = false;
});
server.listen(0, '127.0.0.1', () =>
  parentPort.postMessage({ kind: 'ready', url: 'http://127.0.0.1:' + server.address().port + '/v1' }),
);
`;

/** One answered probe: when it was sent (epoch ms) and how long it took (ms). */
export interface PlainProbe {
  at: number;
  ms: number;
}

interface Done {
  kind: 'done';
  probes: PlainProbe[];
  failed: number;
}

export async function startPlainProber(): Promise<PlainProber> {
  const worker = new Worker(PROBER, { eval: true });
  const messages: Array<(message: unknown) => void> = [];
  worker.on('message', (message) => messages.shift()?.(message));
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      messages.push(resolve as (message: unknown) => void);
      worker.once('error', reject);
    });
  const { url } = await next<{ url: string }>();
  return {
    upstreamUrl: url,
    start: (probe) => worker.postMessage({ kind: 'start', probe }),
    async stop() {
      const done = next<Done>();
      worker.postMessage({ kind: 'stop' });
      const { probes, failed } = await done;
      await worker.terminate();
      return { probes, failed };
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
