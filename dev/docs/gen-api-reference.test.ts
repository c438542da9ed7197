import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_CONSOLE_MD, generateApiReference } from './gen-api-reference';

describe('docs/api-console.md', () => {
  it('is what dev/docs/gen-api-reference.ts renders from the console OpenAPI document', async () => {
    const expected = await generateApiReference();
    let actual = '';
    try {
      actual = readFileSync(API_CONSOLE_MD, 'utf8');
    } catch {}
    // toBe would print a diff of thousands of lines; the first differing line is enough.
    const actualLines = actual.split('\n');
    const line = expected.split('\n').findIndex((text, i) => text !== actualLines[i]);
    const where = line === -1 ? 'its length' : `line ${line + 1}`;
    expect(
      actual === expected,
      `docs/api-console.md is out of date with the console's routes (first difference at ${where}): run \`npm run docs:api\``,
    ).toBe(true);
  });

  it('has one section per operation, each with its responses', async () => {
    const markdown = await generateApiReference();
    expect(markdown).toContain('### POST /api/setup/initialize');
    expect(markdown).toContain('| `admin.password` | string | yes | length ≥ 8, ≤ 256 |');
    expect(markdown).toContain('| 201 | The new key with its secret | [CreatedApiKey](#createdapikey) |');
    expect(markdown).toMatch(/### GET \/api\/keys\/expiring[\s\S]*?\| `days` \| query \| integer \| no \|/);
  });
});
