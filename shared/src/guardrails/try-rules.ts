import * as z from 'zod';
import { AppError, unprocessable } from '../http/app-error';
import { contentPolicyOf, contentSettingSchema, enforceContentPolicy } from './content-policy';
import { redactPolicyOf, redactSettingSchema } from './redact-policy';

/**
 * The console's "try it" box: what a sample text becomes under security.redact at each place,
 * and whether security.content would refuse it — for rules as typed, before they are saved.
 * The same code the gateway runs; nothing is stored.
 */
export const tryGuardrailsSchema = z.strictObject({
  text: z.string().max(100_000),
  redact: z.unknown().optional(),
  content: z.unknown().optional(),
});

export type TryGuardrails = z.infer<typeof tryGuardrailsSchema>;

export interface TryResult {
  redact: { request: string; response: string; logs: string };
  /** `flagged`: the flag rules the text matched (it would pass, with them in its log row). */
  content: { blocked: boolean; message: string | null; flagged: string[] };
}

export function tryGuardrails(input: TryGuardrails): TryResult {
  const redact = parseRule('redact', redactSettingSchema, input.redact ?? {});
  const content = parseRule('content', contentSettingSchema, input.content ?? {});
  const policy = redactPolicyOf(redact);
  const at = (place: 'request' | 'response' | 'logs') => policy?.[place]?.redact(input.text) ?? input.text;
  let message: string | null = null;
  let flagged: string[] = [];
  try {
    // The prompt size as limits estimate it: about four characters a token.
    const marks = enforceContentPolicy(
      contentPolicyOf(content),
      [input.text],
      Math.ceil(input.text.length / 4),
    );
    flagged = marks.map((mark) => mark.rule);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    message = error.message;
  }
  return {
    redact: { request: at('request'), response: at('response'), logs: at('logs') },
    content: { blocked: message !== null, message, flagged },
  };
}

/** The rules as the settings PATCH would take them, or the same 422 at the field. */
function parseRule<S extends z.ZodType>(name: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: [name, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw unprocessable(
    `Invalid ${name} rules: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    issues,
  );
}
