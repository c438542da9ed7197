import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../canonical/types';
import { AppError } from '../http/app-error';
import { contentPolicyOf, contentSettingSchema, enforceContentPolicy, requestTexts } from './content-policy';
import { GuardrailRefusal } from './marks';

const policy = (setting: unknown) => contentPolicyOf(contentSettingSchema.parse(setting));

function refusal(run: () => void): AppError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('security.content', () => {
  const rules = policy({
    deny: [{ name: 'no-codenames', regex: '(?i)codename\\s+[a-z]+' }],
    max_prompt_tokens: 1000,
  });

  it('refuses a text that matches a deny rule with a 400 that names the rule, never the text', () => {
    const error = refusal(() =>
      enforceContentPolicy(rules, ['all fine', 'the Codename Falcon launches'], 10),
    );
    expect(error).toMatchObject({ status: 400, type: 'content_policy_violation' });
    expect(error?.message).toBe('Request blocked by content rule "no-codenames"');
    expect(error?.message).not.toContain('Falcon');
    expect(refusal(() => enforceContentPolicy(rules, ['a code name alone'], 10))).toBeNull();
  });

  it('lets a text a flag rule matches pass, and returns each flag rule once; a block rule still refuses', () => {
    const flagging = policy({
      deny: [
        { name: 'mentions-salary', regex: '(?i)salary', action: 'flag' },
        { name: 'no-codenames', regex: '(?i)codename\\s+[a-z]+' },
      ],
    });
    expect(enforceContentPolicy(flagging, ['my salary', 'the Salary band'], 10)).toEqual([
      { action: 'flag', guardrail: 'content', rule: 'mentions-salary' },
    ]);
    expect(enforceContentPolicy(flagging, ['nothing here'], 10)).toEqual([]);
    const error = refusal(() => enforceContentPolicy(flagging, ['salary', 'codename falcon'], 10));
    expect(error).toBeInstanceOf(GuardrailRefusal);
    expect((error as GuardrailRefusal).mark).toEqual({
      action: 'block',
      guardrail: 'content',
      rule: 'no-codenames',
    });
    expect(
      contentSettingSchema.safeParse({ deny: [{ name: 'x', regex: 'a', action: 'warn' }] }).success,
    ).toBe(false);
  });

  it('refuses a prompt over max_prompt_tokens', () => {
    expect(refusal(() => enforceContentPolicy(rules, [], 1001))?.message).toBe(
      'Request blocked by content rule "max_prompt_tokens": the prompt is about 1001 tokens, more than the 1000 allowed',
    );
  });

  it('refuses a model its role may not use (403): deny_models first, then allow_models', () => {
    const models = policy({ deny_models: { user: ['gpt-4*'] }, allow_models: { viewer: ['cheap-*'] } });
    const as = (role: 'user' | 'viewer' | 'admin', model: string) =>
      refusal(() => enforceContentPolicy(models, ['hi'], 1, { role, model }));
    expect(as('user', 'gpt-4o')).toMatchObject({
      status: 403,
      type: 'content_policy_violation',
      message: 'Request blocked by content rule "deny_models": role user may not use model gpt-4o',
    });
    expect(as('user', 'cheap-mini')).toBeNull();
    expect(as('viewer', 'gpt-4o')?.message).toBe(
      'Request blocked by content rule "allow_models": role viewer may not use model gpt-4o',
    );
    expect(as('viewer', 'cheap-mini')).toBeNull();
    expect(as('admin', 'gpt-4o')).toBeNull();
  });

  it('is nothing to check when empty or disabled, and compiles once per settings object', () => {
    expect(policy({})).toBeNull();
    expect(policy({ enabled: false, deny: [{ name: 'x', regex: 'x' }] })).toBeNull();
    const setting = contentSettingSchema.parse({ deny: [{ name: 'x', regex: 'x' }] });
    expect(contentPolicyOf(setting)).toBe(contentPolicyOf(setting));
  });

  it('validates rules at the field: bad or runaway regexes, names, duplicates, unknown keys', () => {
    const issues = (value: unknown) =>
      contentSettingSchema.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ??
      [];
    expect(issues({ deny: [{ name: 'bad', regex: '(' }] })[0]).toMatch(/^deny\.0\.regex: is not a valid/);
    expect(issues({ deny: [{ name: 'slow', regex: '(a+)+$' }] })[0]).toMatch(
      /^deny\.0\.regex: .*exponential/,
    );
    expect(issues({ deny: [{ name: 'has space', regex: 'x' }] })[0]).toMatch(/^deny\.0\.name/);
    expect(
      issues({
        deny: [
          { name: 'a', regex: 'x' },
          { name: 'a', regex: 'y' },
        ],
      }),
    ).toEqual(['deny.1.name: is used twice']);
    expect(issues({ block: [] })[0]).toMatch(/block/);
  });

  it('reads every text a chat request sends upstream', () => {
    const request: CanonicalRequest = {
      model: 'm',
      stream: false,
      system: [{ type: 'text', text: 'sys' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hello' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 't', name: 'f', arguments: '{"q":1}' }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolCallId: 't', content: [{ type: 'text', text: 'result' }] }],
        },
      ],
    };
    expect([...requestTexts(request)]).toEqual(['sys', 'hello', '{"q":1}', 'result']);
  });
});
