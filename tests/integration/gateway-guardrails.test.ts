// Guardrails: security.content in effect. Deny rules (named regexes, `(?i)` for
// case-insensitive) and max_prompt_tokens refuse a model request with a 400 naming the rule —
// never the text — in the client's own wire format, through the official SDKs, streaming or
// not, on all four model endpoints; the refusal is logged; rules are validated at PATCH (422 at
// the field). Real Postgres/Redis/ClickHouse, fake upstreams.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
const SECRET = 'the codename Falcon ships friday';
/** The rules every test here starts from (one test adds to them and puts them back). */
const CONTENT_RULES = {
  deny: [
    { name: 'no-codenames', regex: '(?i)codename\\s+[a-z]+' },
    { name: 'no-tickets', regex: 'TCK-[0-9]+' },
  ],
  max_prompt_tokens: 200,
};

beforeAll(async () => {
  h = await proxyHarness('guardrails');
  const patched = await h.admin('PATCH', '/api/admin/settings', {
    settings: {
      content: CONTENT_RULES,
    },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  const providers = (await h.admin('GET', '/api/admin/providers')).body as Array<{
    id: string;
    name: string;
  }>;
  const embedding = await h.admin('POST', '/api/admin/models', {
    name: 'e-guarded',
    kind: 'embedding',
    routes: [
      {
        provider_id: providers.find((p) => p.name === 'fake-openai')?.id,
        upstream_model: 'text-embedding-3-small',
      },
    ],
  });
  expect(embedding.status, JSON.stringify(embedding.body)).toBe(201);
}, 60_000);
afterAll(() => h?.close());

async function rejection(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('security.content', () => {
  it('chat completions, plain and streamed: 400 naming the rule, not the text; clean requests pass', async () => {
    for (const stream of [false, true]) {
      const error = await rejection(
        h.openai.chat.completions.create({
          model: 'm-openai',
          stream,
          messages: [{ role: 'user', content: `Summarise: ${SECRET.toUpperCase()}` }],
        }),
      );
      expect(error.status).toBe(400);
      expect(error.message).toContain('Request blocked by content rule "no-codenames"');
      expect(error.message).not.toContain('FALCON');
      expect((error.error as { type?: string }).type).toBe('content_policy_violation');
    }
    const fine = await h.openai.chat.completions.create({
      model: 'm-openai',
      messages: [{ role: 'user', content: 'a code name is fine' }],
    });
    expect(fine.choices[0]?.message.content).toBeTruthy();
  });

  it('messages (Anthropic envelope), responses and embeddings refuse the same way', async () => {
    const anthropic = await h.anthropic.messages
      .create({
        model: 'm-anthropic',
        max_tokens: 20,
        system: 'Ticket TCK-1234 is private',
        messages: [{ role: 'user', content: 'hello' }],
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(anthropic).toBeInstanceOf(Anthropic.BadRequestError);
    expect((anthropic as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual({
      type: 'error',
      error: { type: 'content_policy_violation', message: 'Request blocked by content rule "no-tickets"' },
    });
    const responses = await rejection(h.openai.responses.create({ model: 'm-openai', input: SECRET }));
    expect(responses.message).toContain('"no-codenames"');
    const embeddings = await rejection(
      h.openai.embeddings.create({ model: 'e-guarded', input: ['hi', SECRET] }),
    );
    expect(embeddings.message).toContain('"no-codenames"');
    expect((await h.openai.embeddings.create({ model: 'e-guarded', input: 'hi' })).data).toHaveLength(1);
  });

  it('max_prompt_tokens refuses a prompt too large, and the refusals are logged with the rule', async () => {
    const error = await rejection(
      h.openai.chat.completions.create({
        model: 'm-openai',
        messages: [{ role: 'user', content: 'word '.repeat(400) }],
      }),
    );
    expect(error.message).toMatch(
      /content rule "max_prompt_tokens": the prompt is about \d+ tokens, more than the 200/,
    );
    const rows = await h.logs(4);
    const refused = rows.filter((r) => r.errorType === 'content_policy_violation');
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const row of refused) {
      expect(row.statusCode).toBe(400);
      expect(row.errorMessage).toMatch(
        /^Request blocked by content rule "(no-codenames|no-tickets|max_prompt_tokens)"/,
      );
      expect(row.errorMessage).not.toContain('Falcon');
    }
    await expect
      .poll(async () => (await h.gateway.app.request('/metrics')).text(), { timeout: 5000 })
      .toMatch(/sluice_guardrail_blocks_total\{guardrail="content",rule="max_prompt_tokens"\} 1\b/);
  });

  it('allow_models and deny_models refuse a model by the caller’s role (403), through the SDK', async () => {
    const set = await h.admin('PATCH', '/api/admin/settings', {
      settings: {
        content: { ...CONTENT_RULES, deny_models: { admin: ['m-anthro*'] } },
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    try {
      // The harness key belongs to an admin.
      const refused = await h.anthropic.messages
        .create({ model: 'm-anthropic', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(refused).toBeInstanceOf(Anthropic.PermissionDeniedError);
      expect((refused as InstanceType<typeof Anthropic.PermissionDeniedError>).error).toEqual({
        type: 'error',
        error: {
          type: 'content_policy_violation',
          message: 'Request blocked by content rule "deny_models": role admin may not use model m-anthropic',
        },
      });
      const other = await h.openai.chat.completions.create({
        model: 'm-openai',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(other.choices[0]?.message.content).toBe('echo: hi');
    } finally {
      await h.admin('PATCH', '/api/admin/settings', {
        settings: {
          content: CONTENT_RULES,
        },
      });
    }
  });

  it('the console tries rules without saving them', async () => {
    const tried = await h.admin('POST', '/api/admin/settings/guardrails/try', {
      text: 'the codename Falcon, a@b.io',
      redact: { detectors: ['email'] },
      content: { deny: [{ name: 'no-codenames', regex: '(?i)codename\\s+[a-z]+' }] },
    });
    expect(tried.status, JSON.stringify(tried.body)).toBe(200);
    expect(tried.body).toEqual({
      redact: {
        request: 'the codename Falcon, [REDACTED:email]',
        response: 'the codename Falcon, a@b.io',
        logs: 'the codename Falcon, [REDACTED:email]',
      },
      content: { blocked: true, message: 'Request blocked by content rule "no-codenames"', flagged: [] },
    });
    const bad = await h.admin('POST', '/api/admin/settings/guardrails/try', {
      text: 'x',
      content: { deny: [{ name: 'x', regex: '(a+)+' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(['content.deny.0.regex']);
    expect((await h.admin('GET', '/api/admin/settings/category/security')).body.redact).toEqual({});
  });

  it('rules are validated at PATCH: 422 at the field, nothing stored', async () => {
    const bad = await h.admin('PATCH', '/api/admin/settings', {
      settings: {
        content: {
          deny: [
            { name: 'broken', regex: '(' },
            { name: 'runaway', regex: '(a+)+$' },
          ],
        },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      'settings.content.deny.0.regex',
      'settings.content.deny.1.regex',
    ]);
    const kept = await h.admin('GET', '/api/admin/settings/category/security');
    expect(kept.body.content.deny.map((r: { name: string }) => r.name)).toEqual([
      'no-codenames',
      'no-tickets',
    ]);
  });
});
