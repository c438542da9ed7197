import type { McpResult } from '../ports';

/** A JSON-RPC answer as an upstream sent it: one JSON body, or an event stream whose last
 * message answers the request (notifications before it). */
export interface RpcAnswer {
  result?: unknown;
  error?: unknown;
}

const isAnswer = (value: unknown): value is RpcAnswer =>
  typeof value === 'object' && value !== null && ('result' in value || 'error' in value);

function sseMessages(text: string): unknown[] {
  const messages: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) messages.push(JSON.parse(data));
  }
  return messages;
}

const isEventStream = (response: Response) =>
  (response.headers.get('content-type') ?? '').includes('text/event-stream');

/** The answer in a (finite) upstream response; null when it holds none. */
export async function readRpcAnswer(response: Response): Promise<RpcAnswer | null> {
  const text = await response.text();
  const messages = isEventStream(response) ? sseMessages(text) : [JSON.parse(text)];
  return (messages.filter(isAnswer).at(-1) as RpcAnswer | undefined) ?? null;
}

/**
 * The same response with its answer's result rewritten (a list filtered), in the format it came
 * in; the notifications before the answer are kept. Read whole: only for answers that are
 * bounded (lists), never for streams that stay open.
 */
export async function rewriteRpcAnswer(
  response: Response,
  rewrite: (result: McpResult) => McpResult,
): Promise<Response> {
  const text = await response.text();
  const apply = (message: unknown) =>
    isAnswer(message) && typeof message.result === 'object' && message.result !== null
      ? { ...message, result: rewrite(message.result as McpResult) }
      : message;
  const headers = { 'content-type': response.headers.get('content-type') ?? 'application/json' };
  if (!isEventStream(response)) {
    return new Response(JSON.stringify(apply(JSON.parse(text))), { status: response.status, headers });
  }
  const body = sseMessages(text)
    .map((message) => `event: message\ndata: ${JSON.stringify(apply(message))}\n\n`)
    .join('');
  return new Response(body, { status: response.status, headers });
}
