import { useQuery } from '@tanstack/react-query';
import { isGuardrailKey } from './guardrail-values';
import { settingLabel } from './setting-labels';

/**
 * How each setting is edited, read from the console's own OpenAPI document (the contract):
 * its description, its enum and whether it is a secret (the document types secrets as the
 * mask or null). The value from GET /api/admin/settings decides the input when the document
 * says nothing more precise. The guardrail settings (security.redact, .content, .inspect_tools)
 * have a structured editor of their own (GuardrailSettingInput).
 */
export type FieldKind = 'secret' | 'boolean' | 'number' | 'select' | 'text' | 'list' | 'json' | 'guardrail';

export interface SettingField {
  /** The API's name of the setting (form field name, PATCH key). */
  key: string;
  /** What the page calls it, e.g. "Site name". */
  label: string;
  kind: FieldKind;
  description?: string;
  options?: string[];
  /** e.g. "60 – 86400", from minimum/maximum; shown as help, never enforced here. */
  range?: string;
}

/** What GET /api/admin/settings shows for a secret that is set. */
export const SECRET_MASK = '********';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  $ref?: string;
};

interface OpenApiDoc {
  components?: { schemas?: Record<string, JsonSchema & { properties?: Record<string, JsonSchema> }> };
}

/** The schema and its anyOf/oneOf alternatives, flattened. */
function variants(schema: JsonSchema): JsonSchema[] {
  const nested = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [schema, ...nested.flatMap(variants)];
}

function types(schema: JsonSchema): Set<string> {
  const out = new Set<string>();
  for (const v of variants(schema)) for (const t of [v.type ?? []].flat()) out.add(t);
  return out;
}

function enumValues(schema: JsonSchema): unknown[] {
  return variants(schema).flatMap((v) => v.enum ?? []);
}

function kindOf(schema: JsonSchema | undefined, value: unknown): FieldKind {
  const values = schema ? enumValues(schema) : [];
  if (values.includes(SECRET_MASK) || (!schema && (value === null || value === SECRET_MASK))) return 'secret';
  const t = schema ? types(schema) : new Set<string>();
  if (t.has('boolean') || typeof value === 'boolean') return 'boolean';
  if (t.has('integer') || t.has('number') || typeof value === 'number') return 'number';
  // A URL-or-empty setting is a free string with one enum alternative (''): not a choice list.
  const freeString = variants(schema ?? {}).some((v) => [v.type].flat().includes('string') && !v.enum);
  if (values.length > 0 && !freeString) return 'select';
  if (t.has('array') || Array.isArray(value)) return 'list';
  if (t.has('object') || (typeof value === 'object' && value !== null)) return 'json';
  return 'text';
}

function rangeOf(schema: JsonSchema | undefined): string | undefined {
  const v = schema ? variants(schema) : [];
  const min = v.find((s) => s.minimum !== undefined)?.minimum;
  const max = v.find((s) => s.maximum !== undefined)?.maximum;
  if (min === undefined && max === undefined) return undefined;
  if (max === undefined) return `at least ${min}`;
  if (min === undefined) return `at most ${max}`;
  return `${min} – ${max}`;
}

function schemaName(category: string): string {
  return `Settings${category[0]?.toUpperCase() ?? ''}${category.slice(1)}`;
}

/** The fields of one category, in the order the API lists its keys. */
export function settingFields(
  doc: OpenApiDoc | undefined,
  category: string,
  values: Record<string, unknown>,
): SettingField[] {
  const properties = doc?.components?.schemas?.[schemaName(category)]?.properties ?? {};
  return Object.entries(values).map(([key, value]) => {
    const schema = properties[key];
    const kind = isGuardrailKey(key) ? 'guardrail' : kindOf(schema, value);
    const options =
      kind === 'select' ? enumValues(schema ?? {}).filter((v) => typeof v === 'string') : undefined;
    return {
      key,
      label: settingLabel(key),
      kind,
      // Secrets' documented description ends with how GET shows them; the input says that itself.
      description: schema?.description?.replace(/: \*+ when set, else null$/, ''),
      options: options as string[] | undefined,
      range: rangeOf(schema),
    };
  });
}

/** The console's OpenAPI document (public), for field help and secret detection. */
export function useOpenApiDoc() {
  return useQuery({
    queryKey: ['openapi-doc'],
    queryFn: async (): Promise<OpenApiDoc> => {
      const response = await fetch('/api/openapi.json');
      if (!response.ok) throw new Error(`openapi.json answered ${response.status}`);
      return (await response.json()) as OpenApiDoc;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}
