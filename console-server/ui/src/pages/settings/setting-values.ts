import { ApiError } from '../../api/errors';
import type { SettingField } from './setting-fields';

export type FormValue = string | number | boolean | string[];

/** What the input shows for a stored value: secrets start empty (write-only), JSON as text. */
export function toFormValue(field: SettingField, value: unknown): FormValue {
  switch (field.kind) {
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
  if (field.kind !== 'json') return { ok: true, value };
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
    else if (JSON.stringify(parsed.value) !== JSON.stringify(stored[field.key]))
      patch[field.key] = parsed.value;
  }
  return { patch, errors };
}

/** API issue paths deeper than the setting (settings.<key>.0) belong to the setting's input. */
export function settingIssueRenames(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const renames: Record<string, string> = {};
  for (const { path } of error.issues) {
    const parts = path.split('.');
    if (parts[0] === 'settings' && parts.length > 2) renames[path] = parts.slice(0, 2).join('.');
  }
  return renames;
}
