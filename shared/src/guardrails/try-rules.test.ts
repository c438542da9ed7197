import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error';
import { tryGuardrails } from './try-rules';

describe('tryGuardrails (the console try-it box)', () => {
  it('shows the text at each place and whether content rules refuse it', () => {
    const result = tryGuardrails({
      text: 'codename Falcon, mail a@b.io',
      redact: { detectors: ['email'], patterns: [{ name: 'bird', regex: 'Falcon', apply_to: ['response'] }] },
      content: { deny: [{ name: 'no-codenames', regex: '(?i)codename\\s+\\w+' }] },
    });
    expect(result).toEqual({
      redact: {
        request: 'codename Falcon, mail [REDACTED:email]',
        response: 'codename [REDACTED:bird], mail a@b.io',
        logs: 'codename [REDACTED:bird], mail [REDACTED:email]',
      },
      content: { blocked: true, message: 'Request blocked by content rule "no-codenames"', flagged: [] },
    });
  });

  it('names the flag rules a text that passes matched', () => {
    const result = tryGuardrails({
      text: 'codename Falcon',
      content: { deny: [{ name: 'codenames', regex: '(?i)codename\\s+\\w+', action: 'flag' }] },
    });
    expect(result.content).toEqual({ blocked: false, message: null, flagged: ['codenames'] });
  });

  it('answers the settings 422 for rules that would not save', () => {
    let error: unknown;
    try {
      tryGuardrails({ text: 'x', redact: { patterns: [{ name: 'p', regex: '(' }] } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).details).toEqual([
      {
        path: 'redact.patterns.0.regex',
        message: expect.stringMatching(/^is not a valid regular expression/),
      },
    ]);
  });
});
