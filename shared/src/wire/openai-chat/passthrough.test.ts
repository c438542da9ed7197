import { describe, expect, it } from 'vitest';
import { prepareChatPassthrough } from './passthrough';
import { createChatNativeUsageReader } from './usage';

async function run(stream: ReadableWritablePair<Uint8Array, Uint8Array>, text: string, cut: number[]) {
  // cut: byte offsets where the upstream's chunks end.
  const bytes = new TextEncoder().encode(text);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const at of [...cut, bytes.length]) {
    pieces.push(bytes.slice(start, at));
    start = at;
  }
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
  return new Response(source.pipeThrough(stream)).text();
}

const chunk = (choices: unknown[], extra = {}) =>
  `data: ${JSON.stringify({ id: 'c', choices, ...extra })}\n\n`;

describe('prepareChatPassthrough', () => {
  it('leaves non-streaming bodies and clients that asked for usage alone', () => {
    const plain = { model: 'm', messages: [] };
    expect(prepareChatPassthrough(plain)).toEqual({ body: plain });
    const asked = { model: 'm', stream: true, stream_options: { include_usage: true } };
    expect(prepareChatPassthrough(asked)).toEqual({ body: asked });
  });

  it('asks for usage and takes the usage chunk out again', async () => {
    const plan = prepareChatPassthrough({ model: 'm', stream: true, stream_options: { foo: 1 } });
    expect(plan.body.stream_options).toEqual({ foo: 1, include_usage: true });
    const upstream =
      chunk([{ index: 0, delta: { content: 'héllo' } }]) +
      chunk([], { usage: { prompt_tokens: 3, completion_tokens: 1 } }) +
      'data: [DONE]\n\n';
    expect(plan.dropEvent).toBeDefined();
    for (const cut of [[7, 30, 31], [], [upstream.length - 3], [1, 2, 3, 60, 61, 62]]) {
      const reader = createChatNativeUsageReader(plan);
      const out = await run(reader.transform, upstream, cut);
      expect(out).toBe(`${chunk([{ index: 0, delta: { content: 'héllo' } }])}data: [DONE]\n\n`);
      expect(await reader.usage).toEqual({ inputTokens: 3, outputTokens: 1 });
      expect(await reader.completed).toBe(true);
    }
  });

  it("puts the client's model name in every chunk and in a whole answer, under an alias", async () => {
    const plan = prepareChatPassthrough({ model: 'm', stream: true }, { clientModel: 'my-alias' });
    const upstream =
      chunk([{ index: 0, delta: { content: 'say "model":"x"' } }], { model: 'gpt-4o-2024-08-06' }) +
      chunk([], { model: 'gpt-4o-2024-08-06', usage: { prompt_tokens: 3, completion_tokens: 1 } }) +
      'data: [DONE]\n\n';
    for (const cut of [[], [9, 40, 41], [upstream.length - 2]]) {
      const reader = createChatNativeUsageReader(plan);
      const out = await run(reader.transform, upstream, cut);
      expect(out).toBe(
        `${chunk([{ index: 0, delta: { content: 'say "model":"x"' } }], { model: 'my-alias' })}data: [DONE]\n\n`,
      );
    }
    expect(plan.clientModel).toBe('my-alias');
  });

  it('renames by lines for a client that asked for usage, usage read as the lines pass', async () => {
    const plan = prepareChatPassthrough(
      { model: 'm', stream: true, stream_options: { include_usage: true } },
      { clientModel: 'my-alias' },
    );
    expect(plan.dropEvent).toBeUndefined();
    const upstream =
      chunk([{ index: 0, delta: { content: 'héllo "model":"x"' } }], { model: 'gpt-4o-2024-08-06' }) +
      chunk([], { model: 'gpt-4o-2024-08-06', usage: { prompt_tokens: 3, completion_tokens: 1 } }) +
      'data: [DONE]\n\n';
    const expected = upstream.replaceAll('"model":"gpt-4o-2024-08-06"', '"model":"my-alias"');
    for (const cut of [[], [9, 40, 41], [upstream.length - 2], Array.from({ length: 60 }, (_, i) => i * 5)]) {
      const reader = createChatNativeUsageReader(plan);
      expect(await run(reader.transform, upstream, cut)).toBe(expected);
      expect(await reader.usage).toEqual({ inputTokens: 3, outputTokens: 1 });
      expect(await reader.completed).toBe(true);
    }
  });
});
