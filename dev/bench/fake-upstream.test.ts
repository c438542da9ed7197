import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nginxQuoted, renderUpstreamConfig, UPSTREAM_FILES } from './fake-upstream';

describe('fake upstream config', () => {
  it('quotes bodies for nginx: newlines, backslashes and quotes escaped, $ refused', () => {
    expect(nginxQuoted('data: {"a":"it\'s"}\n\ndata: [DONE]\n\n')).toBe(
      'data: {"a":"it\\\'s"}\\n\\ndata: [DONE]\\n\\n',
    );
    expect(nginxQuoted('a\\b')).toBe('a\\\\b');
    expect(() => nginxQuoted('costs $5')).toThrow(/nginx variable/);
  });

  it('renders the port and both bodies into the template', () => {
    const template = readFileSync(UPSTREAM_FILES.template, 'utf8');
    const json = readFileSync(UPSTREAM_FILES.jsonBody, 'utf8');
    const stream = readFileSync(UPSTREAM_FILES.streamBody, 'utf8');
    const config = renderUpstreamConfig(template, 41234, json, stream);
    expect(config).toContain('listen 127.0.0.1:41234 backlog=4096;');
    expect(config).toContain(`return 200 '${json}';`);
    expect(config).not.toMatch(/@[A-Z_]+@/);
    // The stream: 17 events, the last two a usage chunk and [DONE].
    const events = stream.split('\n\n').filter(Boolean);
    expect(events).toHaveLength(17);
    expect(events.at(-2)).toContain('"usage":{"prompt_tokens":24');
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(json)).toMatchObject({ object: 'chat.completion', usage: { total_tokens: 37 } });
  });
});
