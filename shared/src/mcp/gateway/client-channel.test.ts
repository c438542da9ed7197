import { describe, expect, it } from 'vitest';
import { RelayedRequestError } from '../ports';
import { createClientChannel, RELAY_ID_PREFIX } from './client-channel';
import type { RelayedAnswer } from './sessions';

/** A mailbox the client "answers" into after `after` looks, and the messages sent. */
function harness(answer: (id: string) => RelayedAnswer | null, after = 2) {
  const sent: Array<Record<string, unknown>> = [];
  let looks = 0;
  const channel = createClientChannel({
    capabilities: { sampling: {} },
    send: (message) => sent.push(message as Record<string, unknown>),
    answers: {
      takeAnswer: async (sessionId, requestId) => {
        expect(sessionId).toBe('session-1');
        looks++;
        return looks > after ? answer(requestId) : null;
      },
    },
    sessionId: 'session-1',
    timeoutMs: 200,
    pollMs: { first: 1, max: 4 },
  });
  return { channel, sent, looks: () => looks };
}

describe('the client channel of a streamed call', () => {
  it('sends the request under a gateway id and returns the answer found for that id', async () => {
    const { channel, sent, looks } = harness((id) =>
      id.startsWith(RELAY_ID_PREFIX) ? { result: { ok: id } } : null,
    );
    const result = await channel.request('sampling/createMessage', { maxTokens: 5 });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      jsonrpc: '2.0',
      method: 'sampling/createMessage',
      params: { maxTokens: 5 },
    });
    expect(result).toEqual({ ok: sent[0]?.id });
    expect(looks()).toBe(3);
  });

  it("throws the client's error with its code and data", async () => {
    const { channel } = harness(() => ({
      error: { code: -32600, message: 'declined', data: { why: 'user' } },
    }));
    const error = await channel.request('elicitation/create', undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayedRequestError);
    expect(error).toMatchObject({ code: -32600, message: 'declined', data: { why: 'user' } });
  });

  it('gives up after the timeout with an internal error', async () => {
    const { channel } = harness(() => null);
    const error = await channel.request('roots/list', undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayedRequestError);
    expect((error as RelayedRequestError).code).toBe(-32603);
  });

  it('passes notifications on as they come', () => {
    const { channel, sent } = harness(() => null);
    channel.notify('notifications/message', { level: 'info', data: 'x' });
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
    ]);
  });
});
