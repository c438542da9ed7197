// What coding agents send (docs/agents.md), over the gateway app with the real stores and the fake
// vendors: it passes through to a vendor of their own format (system turns mid-conversation, tool
// types, fields the gateway does not read), their protocol headers go with it, the answer names the
// model as the client did, count_tokens takes what /v1/messages takes, and requests refused before
// any upstream call are in the request log with who called.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;

beforeAll(async () => {
  h = await proxyHarness('agent_wire');
  const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
    id: string;
    name: string;
  }>;
  const id = (name: string) => providers.find((p) => p.name === name)?.id;
  for (const [name, provider] of [
    ['agent-anth', 'fake-anthropic'],
    ['agent-oai', 'fake-openai'],
  ]) {
    const res = await h.admin('POST', '/api/admin/models', {
      name,
      routes: [{ provider_id: id(provider as string), upstream_model: 'test-model' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
}, 60_000);
afterAll(() => h?.close());

const CLAUDE_CODE = {
  'user-agent': 'claude-cli/2.1.332 (external, sdk-cli)',
  'x-claude-code-session-id': 'c0ffee00-0000-4000-8000-000000000045',
  'anthropic-beta': 'claude-code-20250219,context-management-2025-06-27,effort-2025-11-24',
  'anthropic-version': '2023-06-01',
};

/** A Claude Code-shaped first turn: a system turn after the first user message, fields the gateway does not read. */
const claudeTurn = {
  model: 'agent-anth',
  max_tokens: 32_000,
  stream: true,
  system: [{ type: 'text', text: 'You are an agent.', cache_control: { type: 'ephemeral' } }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Read notes.txt' }] },
    { role: 'system', content: '# Environment\nPrimary working directory: /tmp/x' },
    { role: 'user', content: 'Go on.' },
  ],
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  metadata: { user_id: '{"session_id":"c0ffee00"}' },
};

function lastRequest(vendor: string) {
  const found = h.fakes.requests.filter((r) => r.vendor === vendor).at(-1);
  if (!found) throw new Error(`no request reached the fake ${vendor}`);
  return found;
}

describe('a Messages agent on an Anthropic route (passthrough)', () => {
  it('passes system turns, unknown fields and betas on, and answers under the alias', async () => {
    const res = await h.post('/v1/messages', claudeTurn, CLAUDE_CODE);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(res.headers.get('x-sluice-upstream-model')).toBe('test-model');
    const start = text.split('\n').find((line) => line.includes('"message_start"')) ?? '';
    expect(JSON.parse(start.slice('data: '.length)).message.model).toBe('agent-anth');
    expect(text).not.toContain('"model":"test-model"');
    const sent = lastRequest('anthropic');
    expect(sent.headers['anthropic-beta']).toBe(CLAUDE_CODE['anthropic-beta']);
    expect(sent.body).toEqual({ ...claudeTurn, model: 'test-model' });
  });

  it('counts tokens for exactly what /v1/messages takes, with the betas', async () => {
    const { max_tokens: _cap, stream: _stream, ...body } = claudeTurn;
    const res = await h.post('/v1/messages/count_tokens', body, CLAUDE_CODE);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).input_tokens).toBeGreaterThan(0);
    const sent = lastRequest('anthropic');
    expect(sent.path).toBe('/anthropic/v1/messages/count_tokens');
    expect(sent.headers['anthropic-beta']).toBe(CLAUDE_CODE['anthropic-beta']);
  });
});

describe('a Responses agent on an OpenAI route (passthrough)', () => {
  it("passes Codex's tools and fields on and answers under the alias", async () => {
    const body = {
      model: 'agent-oai',
      stream: false,
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'session-45',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be careful.' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read notes.txt' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'exec_command',
          parameters: { type: 'object', properties: {} },
          strict: false,
        },
        {
          type: 'namespace',
          name: 'multi_agent_v1',
          description: 'Sub-agents',
          tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: {} } }],
        },
        { type: 'web_search', external_web_access: true },
      ],
    };
    const res = await h.post('/v1/responses', body, {
      'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64)',
    });
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.model).toBe('agent-oai');
    expect(lastRequest('openai').body).toEqual({ ...body, model: 'test-model' });
  });
});

describe('requests refused before any upstream call', () => {
  it('are logged with their status, error type and client', async () => {
    const before = h.fakes.requests.length;
    const bad = await h.post('/v1/messages', { ...claudeTurn, max_tokens: 'lots' }, CLAUDE_CODE);
    expect(bad.status).toBe(400);
    const unknown = await h.post(
      '/v1/responses',
      { model: 'no-such-model', input: 'hi' },
      {
        'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64)',
        'session-id': 'codex-session-45',
      },
    );
    expect(unknown.status).toBe(404);
    expect(h.fakes.requests.length).toBe(before);
    const rows = await h.logs(5);
    const refused = rows.filter((row) => row.statusCode >= 400);
    expect(
      refused.map((row) => [row.statusCode, row.errorType, row.model, row.clientName, row.sessionId]),
    ).toEqual(
      expect.arrayContaining([
        [400, 'invalid_request_error', 'agent-anth', 'claude-code', 'c0ffee00-0000-4000-8000-000000000045'],
        [404, 'not_found_error', 'no-such-model', 'codex', 'codex-session-45'],
      ]),
    );
    for (const row of refused)
      expect(row).toMatchObject({ promptTokens: 0, completionTokens: 0, costUsd: 0 });
  });
});
