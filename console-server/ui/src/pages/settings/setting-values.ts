import { ApiError } from '../../api/errors';
import { fitsForm, type GuardrailValue, guardrailInputPath, isGuardrailKey } from './guardrail-values';
import type { SettingField } from './setting-fields';

/** A guardrail setting is the value itself in its structured editor, its JSON text in the JSON view. */
export type FormValue = string | number | boolean | string[] | GuardrailValue;

export type SettingsValues = { settings: Record<string, FormValue> };

/**
 * What the input shows for a stored value: secrets start empty (write-only), JSON as text, a
 * guardrail as itself (as text when it has fields its structured editor cannot show).
 */
export function toFormValue(field: SettingField, value: unknown): FormValue {
  switch (field.kind) {
    case 'guardrail':
      return isGuardrailKey(field.key) && fitsForm(field.key, value)
        ? value
        : JSON.stringify(value ?? {}, null, 2);
    case 'secret':
      return '';
    case 'boolean':
      return value === true;
    case 'number':
      return typeof value === 'number' ? value : '';
    case 'list':
      return Array.isArray(value) ? value.map(String) : [];
    case 'json':
      return JSON.stringify(value ?? {}, null, 2);
    default:
      return typeof value === 'string' ? value : String(value ?? '');
  }
}

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** The value to send for an input; a JSON field that does not parse cannot be sent at all. */
export function fromFormValue(field: SettingField, value: FormValue): Parsed {
  if (field.kind !== 'json' && field.kind !== 'guardrail') return { ok: true, value };
  if (typeof value !== 'string') return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(String(value)) };
  } catch {
    return { ok: false, message: 'must be valid JSON' };
  }
}

/**
 * Changed keys only, so saving one field neither rewrites nor audits the others. An empty
 * secret input means "keep the stored secret" and is never sent.
 */
export function settingsPatch(
  fields: SettingField[],
  stored: Record<string, unknown>,
  values: Record<string, FormValue>,
): { patch: Record<string, unknown>; errors: Record<string, string> } {
  const patch: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (value === undefined) continue;
    if (field.kind === 'secret') {
      if (value !== '') patch[field.key] = value;
      continue;
    }
    const parsed = fromFormValue(field, value);
    if (!parsed.ok) errors[`settings.${field.key}`] = parsed.message;
    else if (canonical(parsed.value) !== canonical(stored[field.key])) patch[field.key] = parsed.value;
  }
  return { patch, errors };
}

/** JSON with object keys sorted: a value whose keys were only reordered is no change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * API issue paths deeper than the setting (settings.<key>.0) belong to the setting's input; a
 * guardrail's structured editor has inputs of its own (settings.content.deny.0.regex is its
 * rule's regex input, settings.content.allow_models.viewer.0 the viewer's model list).
 */
export function settingIssueRenames(
  error: unknown,
  values: SettingsValues['settings'],
): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const renames: Record<string, string> = {};
  for (const { path } of error.issues) {
    const [root, key = '', ...below] = path.split('.');
    if (root !== 'settings' || below.length === 0) continue;
    const value = values[key];
    const input =
      isGuardrailKey(key) && typeof value === 'object' ? guardrailInputPath(key, value, below) : '';
    const target = input ? `settings.${key}.${input}` : `settings.${key}`;
    if (target !== path) renames[path] = target;
  }
  return renames;
}
