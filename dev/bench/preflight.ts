/**
 * One request of each kind through the gateway before any load: a figure is only worth
 * printing if the gateway answered what the bench thinks it answered (200, the upstream's
 * chat.completion with usage, the whole stream with its usage chunk and [DONE], and no
 * response-cache hit on a repeat).
 */
import { readFileSync } from 'node:fs';
import type { FakeUpstream } from './fake-upstream';
import { PAYLOADS } from './payloads';

async function post(gatewayUrl: string, apiKey: string, bodyFile: string): Promise<Response> {
  return fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: readFileSync(bodyFile),
  });
}

/** Throws with what came back when an answer is wrong; returns notes worth printing otherwise. */
export async function preflight(
  gatewayUrl: string,
  apiKey: string,
  upstream: FakeUpstream,
): Promise<string[]> {
  const notes: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const res = await post(gatewayUrl, apiKey, PAYLOADS.json);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`json request through the gateway: ${res.status} ${text}`);
    const body = JSON.parse(text) as { object?: string; usage?: unknown };
    if (body.object !== 'chat.completion' || !body.usage)
      throw new Error(`json answer without usage: ${text}`);
    if (res.headers.get('x-sluice-cache') === 'HIT') {
      throw new Error('the response cache answered a repeat: cache_ttl_seconds 0 did not take effect');
    }
    if (attempt === 0 && text !== upstream.jsonBody)
      notes.push('json: the gateway’s answer differs from the upstream’s bytes');
  }
  const res = await post(gatewayUrl, apiKey, PAYLOADS.stream);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`stream request through the gateway: ${res.status} ${text}`);
  const events = text.split('\n\n').filter((event) => event.trim().length > 0);
  if (events.at(-1)?.trim() !== 'data: [DONE]' || !text.includes('"usage":{')) {
    throw new Error(`stream answer without a usage chunk or [DONE]: ${text.slice(0, 500)}`);
  }
  const expected = upstream.streamBody.split('\n\n').filter((event) => event.trim().length > 0).length;
  if (events.length !== expected)
    notes.push(`stream: ${events.length} events through the gateway, ${expected} upstream`);
  return notes;
}
