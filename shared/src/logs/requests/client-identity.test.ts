import { describe, expect, it } from 'vitest';
import { clientIdentity } from './client-identity';

describe('who called', () => {
  it.each([
    [
      { 'user-agent': 'claude-cli/2.1.332 (external, sdk-cli)', 'x-claude-code-session-id': 's1' },
      'claude-code',
      '2.1.332',
      's1',
    ],
    [
      {
        'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64) dumb (codex_exec; 0.171.0)',
        'session-id': 's2',
      },
      'codex',
      '0.171.0',
      's2',
    ],
    [
      { 'user-agent': 'codex_cli_rs/0.171.0 (Mac OS 15.1; arm64)', session_id: 's3' },
      'codex',
      '0.171.0',
      's3',
    ],
    [
      {
        'user-agent': 'opencode/1.18.33 ai-sdk/provider-utils/4.0.23 runtime/bun/1.3.14',
        'x-session-id': 'ses_4',
      },
      'opencode',
      '1.18.33',
      'ses_4',
    ],
    [{ 'user-agent': 'OpenAI/JS 6.49.0' }, 'openai-sdk', '6.49.0', null],
    [{ 'user-agent': 'Anthropic/Python 0.71.0' }, 'anthropic-sdk', '0.71.0', null],
    [{ 'user-agent': 'curl/8.5.0' }, 'curl', '8.5.0', null],
    [{}, null, null, null],
  ])('%j is %s %s', (headers, name, version, session) => {
    const identity = clientIdentity(new Headers(headers as Record<string, string>));
    expect([identity.clientName, identity.clientVersion, identity.sessionId]).toEqual([
      name,
      version,
      session,
    ]);
  });

  it('names a User-Agent the same however often it comes, past the bound of what it remembers', () => {
    const of = (userAgent: string) => {
      const identity = clientIdentity(new Headers({ 'user-agent': userAgent }));
      return [identity.clientName, identity.clientVersion];
    };
    for (let round = 0; round < 2; round++)
      expect(of('claude-cli/2.1.332')).toEqual(['claude-code', '2.1.332']);
    for (let i = 0; i < 200; i++) expect(of(`tool-${i}/1.${i}`)).toEqual([`tool-${i}`, `1.${i}`]);
    expect(of('claude-cli/2.1.332')).toEqual(['claude-code', '2.1.332']);
    expect(of(`Big/2 ${'b'.repeat(600)}`)).toEqual(['big', '2']);
  });

  it('keeps a long User-Agent to 256 characters', () => {
    expect(clientIdentity(new Headers({ 'user-agent': `x/1 ${'a'.repeat(400)}` })).userAgent).toHaveLength(
      256,
    );
  });
});
