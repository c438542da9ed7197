// The fake vendors enforce what the real ones enforce and answer as they do, over raw HTTP:
// Anthropic's signed thinking (and its refusals when it does not come back as issued), cache
// reads and writes at breakpoints, unknown fields; OpenAI Responses' reasoning items and their
// encrypted content, tool outputs that must answer a call, unknown parameters; Chat
// Completions' tool-message order and reasoning; and the coding agents' file-reading tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';

let fake: FakeUpstreams;
beforeAll(async () => {
  fake = await startFakeUpstreams();
});
afterAll(() => fake.close());

// biome-ignore lint/suspicious/noExplicitAny: vendor answers are asserted field by field.
type Json = any;

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const anthropic = (body: unknown, beta?: string) =>
  post('/anthropic/v1/messages', body, {
    'x-api-key': fake.apiKeyFor('anthropic'),
    'anthropic-version': '2023-06-01',
    ...(beta ? { 'anthropic-beta': beta } : {}),
  });
const responses = (body: unknown) =>
  post('/openai/v1/responses', body, { authorization: `Bearer ${fake.apiKeyFor('openai')}` });
const chat = (vendor: 'openai' | 'custom', body: unknown) =>
  post(`/${vendor}/v1/chat/completions`, body, { authorization: `Bearer ${fake.apiKeyFor(vendor)}` });

/** A Claude Code-like turn: its Read tool, its working directory, and a file to read. */
const READ_TOOL = {
  name: 'Read',
  description: 'Reads a file',
  input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
};
const SYSTEM = 'You are an agent.\nPrimary working directory: /work/project';
const ASK = { role: 'user', content: 'Read notes.txt and tell me the secret word' };

describe('Anthropic Messages', () => {
  const thinking = { type: 'enabled', budget_tokens: 2048 };

  async function turnOne(extra: Record<string, unknown> = {}) {
    const res = await anthropic({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: SYSTEM,
      tools: [READ_TOOL],
      thinking,
      messages: [ASK],
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  it("calls the agent's Read tool on the named file, after a signed thinking block", async () => {
    const answer = await turnOne();
    expect(answer.content[0]).toMatchObject({ type: 'thinking', thinking: expect.any(String) });
    expect(answer.content[0].signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(answer.content[1]).toMatchObject({
      type: 'tool_use',
      name: 'Read',
      input: { file_path: '/work/project/notes.txt' },
    });
  });

  it('keeps the text of omitted thinking out, still signed', async () => {
    const answer = await turnOne({ thinking: { type: 'adaptive', display: 'omitted' } });
    expect(answer.content[0]).toMatchObject({ type: 'thinking', thinking: '' });
    expect(answer.content[0].signature).toBeTruthy();
  });

  it('takes its thinking back unaltered, and refuses it missing or altered', async () => {
    const answer = await turnOne();
    const [thought, call] = answer.content;
    const result = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call.id, content: 'word: X' }],
    };
    const send = (assistant: unknown[]) =>
      anthropic({
        model: 'claude-sonnet-4-5',
        max_tokens: 4096,
        system: SYSTEM,
        tools: [READ_TOOL],
        thinking,
        messages: [ASK, { role: 'assistant', content: assistant }, result],
      });
    const ok = await send([thought, call]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.content.at(-1)).toMatchObject({ type: 'text', text: 'tool said: word: X' });
    const missing = await send([call]);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(missing.body.error.message).toContain(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`',
    );
    const altered = await send([{ ...thought, thinking: `${thought.thinking} (edited)` }, call]);
    expect(altered.status).toBe(400);
    expect(altered.body.error.message).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
  });

  it('accepts system messages mid-conversation and refuses fields it does not know', async () => {
    const system = await anthropic({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [ASK, { role: 'system', content: 'Be brief.' }],
    });
    expect(system.status, JSON.stringify(system.body)).toBe(200);
    const unknown = await anthropic({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [ASK], foo: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('foo: Extra inputs are not permitted');
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [ASK],
      context_management: { edits: [] },
    };
    expect((await anthropic(body)).status).toBe(400);
    expect((await anthropic(body, 'context-management-2025-06-27')).status).toBe(200);
  });

  it("refuses max_tokens above the model's limit", async () => {
    const res = await anthropic({ model: 'claude-sonnet-4-5', max_tokens: 64_001, messages: [ASK] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5',
    );
  });

  it('writes a cached prefix the first time and reads it after; counts thinking under its beta', async () => {
    const long = Array.from({ length: 1500 }, (_, i) => `w${i}`).join(' ');
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking,
      system: [{ type: 'text', text: long, cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'hello there', cache_control: { type: 'ephemeral' } }],
        },
      ],
    };
    const first = await anthropic(body, 'thinking-token-count-2026-05-13');
    expect(first.body.usage).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: 1502,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 1500 },
    });
    expect(first.body.usage.output_tokens_details.thinking_tokens).toBeGreaterThan(0);
    const again = {
      ...body,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello again, you' }] }],
    };
    const second = await anthropic(again);
    expect(second.body.usage).toMatchObject({
      input_tokens: 3,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1500,
    });
    expect(second.body.usage.output_tokens_details).toBeUndefined();
  });

  it('caches nothing below the minimum length', async () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'short prompt', cache_control: { type: 'ephemeral' } }],
      messages: [ASK],
    };
    for (let i = 0; i < 2; i++) {
      const res = await anthropic(body);
      expect(res.body.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    }
  });
});

describe('OpenAI Responses', () => {
  const EXEC = {
    type: 'function',
    name: 'exec_command',
    parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
  };
  const input = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<cwd>/work/codex</cwd>' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read notes.txt please' }] },
  ];
  const base = {
    model: 'gpt-5',
    tools: [EXEC],
    store: false,
    include: ['reasoning.encrypted_content'],
    reasoning: { effort: 'high', summary: 'auto' },
  };

  it('reasons first (summary, encrypted content, reasoning tokens), then runs cat on the file', async () => {
    const res = await responses({ ...base, input });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [reasoning, call] = res.body.output;
    expect(reasoning).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text' }] });
    expect(reasoning.encrypted_content).toMatch(/^gAAAAA/);
    expect(call).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(JSON.parse(call.arguments)).toEqual({ cmd: 'cat /work/codex/notes.txt' });
    expect(res.body.usage.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('takes the reasoning back as issued, and refuses it altered or without its call', async () => {
    const first = (await responses({ ...base, input })).body;
    const [reasoning, call] = first.output;
    const output = { type: 'function_call_output', call_id: call.call_id, output: 'The word is X' };
    const ok = await responses({ ...base, input: [...input, reasoning, call, output] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.output.at(-1).content[0].text).toBe('tool said: The word is X');
    const forged = { ...reasoning, encrypted_content: `${reasoning.encrypted_content.slice(0, -4)}AAAA` };
    const bad = await responses({ ...base, input: [...input, forged, call, output] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_encrypted_content' });
    const orphan = await responses({ ...base, input: [...input, call, output] });
    expect(orphan.status).toBe(400);
    expect(orphan.body.error.message).toBe(
      `Item '${call.id}' of type 'function_call' was provided without its required 'reasoning' item: '${reasoning.id}'.`,
    );
    const unanswered = await responses({ ...base, input: [...input, output] });
    expect(unanswered.body.error.message).toBe(
      `No tool call found for function call output with call_id ${call.call_id}.`,
    );
  });

  it('refuses unknown parameters, and reports a repeated long prefix as cached', async () => {
    const unknown = await responses({ model: 'gpt-5', input: 'hi', foo: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      message: "Unknown parameter: 'foo'.",
      param: 'foo',
      code: 'unknown_parameter',
    });
    const long = Array.from({ length: 1300 }, (_, i) => `w${i}`).join(' ');
    const body = { model: 'gpt-5', instructions: long, input: 'hello', prompt_cache_key: 'k1' };
    expect((await responses(body)).body.usage.input_tokens_details.cached_tokens).toBe(0);
    expect((await responses(body)).body.usage.input_tokens_details.cached_tokens).toBe(1280);
  });
});

describe('Chat Completions', () => {
  const READ = {
    type: 'function',
    function: { name: 'read', parameters: { type: 'object', properties: { filePath: { type: 'string' } } } },
  };
  const messages = [
    { role: 'system', content: '<env>\n  Working directory: /work/oc\n</env>' },
    { role: 'user', content: '"Read notes.txt and tell me the secret word"' },
  ];

  it("calls opencode's read tool, and a custom server shows its reasoning", async () => {
    const res = await chat('custom', { model: 'm', messages, tools: [READ], reasoning_effort: 'high' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const message = res.body.choices[0].message;
    expect(message.reasoning_content).toBeTruthy();
    expect(JSON.parse(message.tool_calls[0].function.arguments)).toEqual({ filePath: '/work/oc/notes.txt' });
    expect(res.body.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    const openai = await chat('openai', { model: 'm', messages, tools: [READ], reasoning_effort: 'high' });
    expect(openai.body.choices[0].message.reasoning_content).toBeUndefined();
  });

  it('refuses tool messages that answer no call, unanswered calls, and (OpenAI) unknown parameters', async () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } };
    const wrong = await chat('openai', {
      model: 'm',
      messages: [
        ...messages,
        { role: 'assistant', tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_2', content: 'x' },
      ],
    });
    expect(wrong.body.error.message).toBe(
      "Invalid parameter: 'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message.",
    );
    const unanswered = await chat('openai', {
      model: 'm',
      messages: [...messages, { role: 'assistant', tool_calls: [call] }, { role: 'user', content: 'and?' }],
    });
    expect(unanswered.body.error.message).toContain(
      'The following tool_call_ids did not have response messages: call_1',
    );
    const unknown = await chat('openai', { model: 'm', messages, foo: 1 });
    expect(unknown.body.error.message).toBe('Unrecognized request argument supplied: foo');
    expect((await chat('custom', { model: 'm', messages, foo: 1 })).status).toBe(200);
  });
});
