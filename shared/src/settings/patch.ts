import { unprocessable } from '../http/app-error';
import {
  isSecretSetting,
  isSettingKey,
  SETTING_DEFINITIONS,
  type SettingDefinition,
  type SettingKey,
} from './definitions';
import { SECRET_MASK } from './views';

export interface SettingChange {
  key: SettingKey;
  value: unknown;
}

interface Issue {
  path: string;
  message: string;
}

/**
 * Validates every key and value of a PATCH before anything is written, reporting all problems
 * at once (422). Secrets accept two extra values so a client can send back what GET showed:
 * SECRET_MASK leaves the stored secret unchanged (the key is dropped), null clears it.
 */
export function parseSettingsPatch(input: Readonly<Record<string, unknown>>): SettingChange[] {
  const entries = Object.entries(input);
  if (entries.length === 0) {
    throw unprocessable('Invalid request: settings must name at least one setting', [
      { path: 'settings', message: 'must name at least one setting' },
    ]);
  }
  const issues: Issue[] = [];
  const changes: SettingChange[] = [];
  for (const [key, raw] of entries) {
    if (!isSettingKey(key)) {
      issues.push({ path: `settings.${key}`, message: 'unknown setting' });
      continue;
    }
    const change = parseOne(key, raw, issues);
    if (change) changes.push(change);
  }
  if (issues.length > 0) {
    const summary = issues.map((i) => `${i.path} ${i.message}`).join('; ');
    throw unprocessable(`Invalid settings: ${summary}`, issues);
  }
  return changes;
}

function parseOne(key: SettingKey, raw: unknown, issues: Issue[]): SettingChange | null {
  if (isSecretSetting(key)) {
    if (raw === SECRET_MASK) return null;
    if (raw === null) return { key, value: '' };
  }
  const def: SettingDefinition = SETTING_DEFINITIONS[key];
  const result = def.schema.safeParse(raw);
  if (result.success) return { key, value: result.data };
  for (const issue of result.error.issues) {
    const path = ['settings', key, ...issue.path.map(String)].join('.');
    issues.push({ path, message: issue.message });
  }
  return null;
}
