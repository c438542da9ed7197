import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../canonical/types';
import { luhnValid } from './detectors';
import { createStreamRedaction, redactRequest } from './redact-canonical';
import { redactJson, redactPolicyOf, redactSettingSchema } from './redact-policy';
import { releasable, STREAM_HOLD_CHARS } from './redact-text';

const policyOf = (setting: unknown) => redactPolicyOf(redactSettingSchema.parse(setting));
const all = policyOf({
  detectors: ['email', 'phone', 'card', 'ip', 'api_key'],
  patterns: [{ name: 'ticket', regex: 'TCK-[0-9]+' }],
  apply_to: ['request', 'response'],
});
const redact = (text: string) => all?.request?.redact(text);

describe('security.redact detectors', () => {
  it('replace emails, phone numbers, Luhn-valid cards, IPs and vendor keys; leave look-alikes', () => {
    expect(redact('mail jane.doe+x@example.co.uk now')).toBe('mail [REDACTED:email] now');
    expect(redact('call +44 20 7946 0958 or (415) 555-2671')).toBe(
      'call [REDACTED:phone] or [REDACTED:phone]',
    );
    expect(redact('card 4111 1111 1111 1111, not 4111 1111 1111 1112')).toBe(
      'card [REDACTED:card], not 4111 1111 1111 1112',
    );
    expect(redact('from 10.0.12.7 and 2001:db8:85a3::8a2e:370:7334 not 999.1.1.1 at 12:30:45')).toBe(
      'from [REDACTED:ip] and [REDACTED:ip] not 999.1.1.1 at 12:30:45',
    );
    for (const key of [
      'sk-proj-abcdefghijklmnopqrstuvwxyz012345',
      'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
      'AIzaSyA-abcdefghijklmnopqrstuvwxyz012345',
      'AKIAIOSFODNN7EXAMPLE',
      'sluice-abcdefghijklmnopqrstuvwxyz0123',
    ]) {
      expect(redact(`key=${key};`), key).toBe('key=[REDACTED:api_key];');
    }
    expect(redact('ticket TCK-1234 in 2026, order 12345')).toBe(
      'ticket [REDACTED:ticket] in 2026, order 12345',
    );
    expect(luhnValid('4539578763621486')).toBe(true);
  });

  it('apply per place: logs always, a pattern its own apply_to', () => {
    const policy = policyOf({
      detectors: ['email'],
      patterns: [{ name: 'codename', regex: '(?i)project\\s+\\w+', apply_to: ['response'] }],
    });
    expect(policy?.request?.redact('a@b.io project x')).toBe('[REDACTED:email] project x');
    expect(policy?.response?.redact('a@b.io project x')).toBe('a@b.io [REDACTED:codename]');
    expect(policy?.logs?.redact('a@b.io project x')).toBe('[REDACTED:email] [REDACTED:codename]');
    expect(policyOf({})).toBeNull();
    expect(policyOf({ enabled: false, detectors: ['email'] })).toBeNull();
  });

  it('are validated at the field', () => {
    const paths = (value: unknown) =>
      redactSettingSchema.safeParse(value).error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(paths({ detectors: ['ssn'] })).toEqual(['detectors.0']);
    expect(paths({ patterns: [{ name: 'x', regex: '(a*)*' }] })).toEqual(['patterns.0.regex']);
    expect(paths({ apply_to: ['upstream'] })).toEqual(['apply_to.0']);
    expect(paths({ detectors: ['email'], patterns: [{ name: 'email', regex: 'x' }] })).toEqual([
      'patterns.0.name',
    ]);
  });

  it('redact a canonical request and a JSON value, structure kept', () => {
    const request = redactRequest(
      {
        model: 'm',
        stream: false,
        system: [{ type: 'text', text: 'owner a@b.io' }],
        messages: [
          {
            role: 'assistant',
            content: [{ type: 'tool_call', id: 't', name: 'mail', arguments: '{"to":"c@d.io"}' }],
          },
        ],
      },
      all!.request!,
    );
    expect(request.system[0]?.text).toBe('owner [REDACTED:email]');
    expect(request.messages[0]?.content[0]).toMatchObject({ arguments: '{"to":"[REDACTED:email]"}' });
    expect(redactJson({ type: 'text', text: 'x a@b.io', data: 'a@b.io' }, all!.request!)).toEqual({
      type: 'text',
      text: 'x [REDACTED:email]',
      data: 'a@b.io',
    });
  });
});

describe('streamed redaction', () => {
  it('holds back at most STREAM_HOLD_CHARS and never cuts through a match', () => {
    const long = `${'x'.repeat(STREAM_HOLD_CHARS + 10)} a@b.io`;
    const first = releasable(long, all!.response!, false);
    expect(first.out).toBe('x'.repeat(first.out.length));
    expect(first.kept.length).toBeLessThanOrEqual(STREAM_HOLD_CHARS + 8);
    expect(releasable(first.kept, all!.response!, true).out).toContain('[REDACTED:email]');
  });

  it('catches a match split across deltas, and flushes each block before it stops', async () => {
    const events: StreamEvent[] = [
      { type: 'start', id: 'r', model: 'm' },
      { type: 'text_start', index: 0 },
      ...['write to ja', 'ne.doe@exa', 'mple.com', ' about TCK-', '77 today'].map(
        (text): StreamEvent => ({ type: 'text_delta', index: 0, text }),
      ),
      { type: 'block_stop', index: 0 },
      { type: 'finish', finishReason: 'stop' },
    ];
    const out: StreamEvent[] = [];
    const stream = new ReadableStream<StreamEvent>({
      start(controller) {
        for (const e of events) controller.enqueue(e);
        controller.close();
      },
    }).pipeThrough(createStreamRedaction(all!.response!));
    for await (const e of stream as unknown as AsyncIterable<StreamEvent>) out.push(e);
    const text = out.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
    expect(text).toBe('write to [REDACTED:email] about [REDACTED:ticket] today');
    const stopAt = out.findIndex((e) => e.type === 'block_stop');
    expect(out.slice(stopAt + 1).some((e) => e.type === 'text_delta')).toBe(false);
  });
});
