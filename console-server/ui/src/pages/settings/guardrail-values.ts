import type { ReactNode } from 'react';
import type { Schemas } from '../../api/types';

/**
 * The three guardrail settings of the security category (docs/guardrails.md) as the structured
 * editor holds them: exactly the JSON that PATCH /api/admin/settings takes, so what the form
 * shows, what the try box sends and what is saved are one value. Types come from the API's
 * OpenAPI document (shared/src/guardrails/*-policy.ts validates them when saved).
 */
type Security = Schemas['SettingsSecurity'];
export type RedactValue = Security['redact'];
export type ContentValue = Security['content'];
export type ToolsValue = Security['inspect_tools'];
export type GuardrailValue = RedactValue | ContentValue | ToolsValue;
interface GuardrailValues {
  redact: RedactValue;
  content: ContentValue;
  inspect_tools: ToolsValue;
}

export type RedactPattern = NonNullable<RedactValue['patterns']>[number];
export type ContentRule = NonNullable<ContentValue['deny']>[number];
export type ToolRule = NonNullable<ToolsValue['deny']>[number];
export type Detector = NonNullable<RedactValue['detectors']>[number];
export type Place = NonNullable<RedactValue['apply_to']>[number];
export type RuleAction = NonNullable<ContentRule['action']>;
export type ModelGlobs = NonNullable<ContentValue['allow_models']>;
export type Role = keyof ModelGlobs;

export const GUARDRAIL_KEYS = ['redact', 'content', 'inspect_tools'] as const;
export type GuardrailKey = (typeof GUARDRAIL_KEYS)[number];

export function isGuardrailKey(key: string): key is GuardrailKey {
  return (GUARDRAIL_KEYS as readonly string[]).includes(key);
}

/** Where redaction applies when the setting names no places (redact-policy.ts). */
export const DEFAULT_PLACES: readonly Place[] = ['request', 'logs'];

/** A list typed by every value of a union: a value the API adds fails the typecheck here. */
function everyValue<T extends string>(values: Record<T, true>): T[] {
  return Object.keys(values) as T[];
}
export const DETECTORS = everyValue<Detector>({
  email: true,
  phone: true,
  card: true,
  ip: true,
  api_key: true,
});
export const PLACES = everyValue<Place>({ request: true, response: true, logs: true });
export const ACTIONS = everyValue<RuleAction>({ block: true, flag: true });
export const ROLES = everyValue<Role>({
  admin: true,
  operator: true,
  user: true,
  viewer: true,
  service: true,
});

/** What each structured editor (RedactEditor, ContentEditor, InspectToolsEditor) is given. */
export interface GuardrailEditorProps<T> {
  value: T;
  /** `input`: the path below the setting of the input that changed (its API error is cleared). */
  onChange: (next: T, input: string) => void;
  /** After a row of `list` is removed: that list's errors no longer match their rows. */
  onRowRemoved: (list: string) => void;
  /** The API's issue at an input (path below the setting, e.g. `deny.0.regex`). */
  error: (input: string) => ReactNode;
}

// --- Updating a value: immutable, and an empty optional field is left out, never sent as ''. ---

/** The object with `key` set, or without it when `value` is undefined. */
export function withField<T extends object, K extends keyof T>(
  object: T,
  key: K,
  value: T[K] | undefined,
): T {
  const next: Partial<T> = { ...object };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next as T;
}

/** An optional text as sent: absent when empty. */
export const optionalText = (text: string): string | undefined => (text === '' ? undefined : text);

/** An optional list as sent: absent when empty (an empty list means the same as none). */
export const optionalList = <T>(list: T[]): T[] | undefined => (list.length === 0 ? undefined : list);

export const replaceAt = <T>(list: readonly T[], index: number, item: T): T[] =>
  list.map((old, i) => (i === index ? item : old));

export const removeAt = <T>(list: readonly T[], index: number): T[] => list.filter((_, i) => i !== index);

// --- Whether the structured editor can show a value (else it is edited as JSON). ---

type Check = (value: unknown) => boolean;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text: Check = (value) => typeof value === 'string';
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const oneOf =
  (values: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && values.includes(value);
const listOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
/** An object with only these fields, each passing its check. */
const shape =
  (fields: Record<string, Check>): Check =>
  (value) =>
    isObject(value) &&
    Object.keys(value).every((key) => key in fields) &&
    Object.entries(fields).every(([key, check]) => check(value[key]));

const enabled = optional((value) => typeof value === 'boolean');
const places = optional(listOf(oneOf(PLACES)));
const modelGlobs = optional(shape(Object.fromEntries(ROLES.map((role) => [role, optional(listOf(text))]))));

const FITS: Record<GuardrailKey, Check> = {
  redact: shape({
    enabled,
    detectors: optional(listOf(oneOf(DETECTORS))),
    patterns: optional(listOf(shape({ name: text, regex: text, apply_to: places }))),
    apply_to: places,
  }),
  content: shape({
    enabled,
    deny: optional(listOf(shape({ name: text, regex: text, action: optional(oneOf(ACTIONS)) }))),
    max_prompt_tokens: optional((value) => typeof value === 'number'),
    allow_models: modelGlobs,
    deny_models: modelGlobs,
  }),
  inspect_tools: shape({
    enabled,
    deny: optional(listOf(shape({ name: text, tool: text, argument_regex: optional(text) }))),
  }),
};

/** True when every field of the value has an input in the structured editor. */
export function fitsForm<K extends GuardrailKey>(key: K, value: unknown): value is GuardrailValues[K] {
  return FITS[key](value);
}

/** The JSON text of the "Edit as JSON" view, parsed: undefined when it is not JSON. */
export function parseJson(source: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(source) };
  } catch {
    return undefined;
  }
}

// --- Where an API issue shows: `deny.0.regex` at that rule's regex input. ---

/** The paths (below the setting) the structured editor has an input for. */
const INPUT_PATHS: Record<GuardrailKey, RegExp> = {
  redact: /^(enabled|detectors|apply_to|patterns\.\d+\.(name|regex|apply_to))$/,
  content: /^(enabled|max_prompt_tokens|deny\.\d+\.(name|regex|action)|(allow|deny)_models\.[a-z]+)$/,
  inspect_tools: /^(enabled|deny\.\d+\.(name|tool|argument_regex))$/,
};

function has(value: unknown, parts: readonly string[]): boolean {
  let cursor = value;
  for (const part of parts) {
    if (typeof cursor !== 'object' || cursor === null || !(part in cursor)) return false;
    cursor = (cursor as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * The input an issue below the setting belongs to (its path below the setting): the longest
 * prefix of the issue's path that names an input of the value; '' for the setting as a whole
 * (e.g. `detectors.3` → `detectors`, `allow_models.viewer.0` → `allow_models.viewer`).
 */
export function guardrailInputPath(key: GuardrailKey, value: unknown, path: readonly string[]): string {
  for (let end = path.length; end > 0; end--) {
    const prefix = path.slice(0, end);
    if (INPUT_PATHS[key].test(prefix.join('.')) && has(value, prefix)) return prefix.join('.');
  }
  return '';
}
