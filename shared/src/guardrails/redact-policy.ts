import * as z from 'zod';
import { DETECTOR_NAMES, detector } from './detectors';
import { createRedactor, type Redactor, type RedactRule } from './redact-text';
import { compileRuleRegex } from './rule-regex';
import { ruleNameSchema, ruleRegexSchema, uniqueRuleNames } from './rule-schema';

/**
 * security.redact: what the gateway replaces with `[REDACTED:<rule>]` — built-in detectors
 * (email, phone, card with a Luhn check, ip, api_key) and named regexes. `apply_to` says where:
 * `request` (what leaves for the upstream: model prompts, MCP tool arguments), `response` (what
 * comes back: model answers, streamed included; MCP tool results), `logs` (error texts in the
 * request and MCP call logs). A pattern may name its own `apply_to`. Logs are always redacted
 * when any rule is set, whatever `apply_to` says: nothing a rule names is ever stored.
 */
const PLACES = ['request', 'response', 'logs'] as const;
type Place = (typeof PLACES)[number];
const places = z.array(z.enum(PLACES)).max(3);

export const redactSettingSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    detectors: z.array(z.enum(DETECTOR_NAMES)).max(DETECTOR_NAMES.length).optional(),
    patterns: z
      .array(
        z.strictObject({
          name: ruleNameSchema,
          regex: ruleRegexSchema,
          apply_to: places.optional(),
        }),
      )
      .max(200)
      .optional(),
    apply_to: places.optional(),
  })
  .superRefine(uniqueRuleNames('patterns', (value) => value.detectors ?? []));

export type RedactSetting = z.output<typeof redactSettingSchema>;

/** Where redaction applies: a redactor per place, null where no rule applies. */
export interface RedactPolicy {
  request: Redactor | null;
  response: Redactor | null;
  logs: Redactor | null;
}

const DEFAULT_PLACES: readonly Place[] = ['request', 'logs'];
const compiled = new WeakMap<RedactSetting, RedactPolicy | null>();

export function redactPolicyOf(setting: RedactSetting): RedactPolicy | null {
  const known = compiled.get(setting);
  if (known !== undefined) return known;
  const policy = setting.enabled === false ? null : compile(setting);
  compiled.set(setting, policy);
  return policy;
}

function compile(setting: RedactSetting): RedactPolicy | null {
  const where = setting.apply_to ?? DEFAULT_PLACES;
  const rules: Array<{ rule: RedactRule; where: readonly Place[] }> = [
    ...(setting.detectors ?? []).map((name) => ({ rule: { name, ...detector(name) }, where })),
    ...(setting.patterns ?? []).map((p) => ({
      rule: { name: p.name, regex: compileRuleRegex(p.regex, true) },
      where: p.apply_to ?? where,
    })),
  ];
  if (rules.length === 0) return null;
  const at = (place: Place) => {
    const chosen = rules.filter((r) => place === 'logs' || r.where.includes(place)).map((r) => r.rule);
    return chosen.length === 0 ? null : createRedactor(chosen);
  };
  return { request: at('request'), response: at('response'), logs: at('logs') };
}

/** Structure, not text: MCP content types, media types, base64 payloads. */
const STRUCTURE_KEYS = new Set(['type', 'mimeType', 'data', 'blob']);

/** Every string in a JSON value redacted (MCP tool arguments and results); keys are kept. */
export function redactJson(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redactor));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        STRUCTURE_KEYS.has(key) ? inner : redactJson(inner, redactor),
      ]),
    );
  }
  return value;
}
