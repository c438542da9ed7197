import { describe, expect, it } from 'vitest';
import { mapGeminiError } from '../google/errors';
import { mapOpenAiError } from '../openai/errors';
import { redactCredentials } from './redact-credentials';

const SHAPES = {
  openai: 'sk-proj-abcdefghijklmnopqrstuvwxyz012345',
  anthropic: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
  aws: 'AKIAIOSFODNN7EXAMPLE',
  google: 'AIzaSyA1234567890abcdefghijklmnopqrstuv',
  azure: '0123456789abcdef0123456789abcdef',
  bearer: 'Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig',
};

describe('redactCredentials', () => {
  it('masks every vendor family’s key shape', () => {
    for (const [family, secret] of Object.entries(SHAPES)) {
      const masked = redactCredentials(`upstream said: bad key ${secret} (check it)`);
      expect(masked, family).not.toContain(secret.replace(/^Bearer /, ''));
      expect(masked, family).toContain('[redacted]');
      expect(masked, family).toContain('upstream said: bad key');
    }
  });

  it('is what every adapter family uses: a Google key in an OpenAI-type error, an OpenAI key in a Google one', () => {
    const openaiError = mapOpenAiError(
      401,
      JSON.stringify({ error: { message: `key ${SHAPES.google} is invalid` } }),
    );
    expect(openaiError.message).not.toContain(SHAPES.google);
    const googleError = mapGeminiError(
      400,
      JSON.stringify({
        error: { code: 400, message: `key ${SHAPES.openai} is invalid`, status: 'INVALID_ARGUMENT' },
      }),
    );
    expect(googleError.message).not.toContain(SHAPES.openai);
  });
});
