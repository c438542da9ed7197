import { z } from '@hono/zod-openapi';
import {
  isSecretSetting,
  SECRET_MASK,
  SETTING_CATEGORIES,
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  type SettingCategory,
  type SettingDefinition,
  type SettingKey,
} from '@sluice/shared/settings';

/**
 * Response shapes of the settings and audit endpoints. Setting shapes are generated from the
 * definitions, so the document always lists every key with its real type and range.
 */
function settingValueSchema(key: SettingKey): z.ZodType {
  const def: SettingDefinition = SETTING_DEFINITIONS[key];
  if (isSecretSetting(key)) {
    return z
      .enum([SECRET_MASK])
      .nullable()
      .describe(`${def.description}: ${SECRET_MASK} when set, else null`);
  }
  return def.schema.describe(def.description);
}

function categorySchema(category: SettingCategory) {
  const shape: Record<string, z.ZodType> = {};
  for (const key of SETTING_KEYS) {
    if (SETTING_DEFINITIONS[key].category === category) shape[key] = settingValueSchema(key);
  }
  const name = `Settings${category[0]?.toUpperCase()}${category.slice(1)}`;
  return z.object(shape).openapi(name);
}

export const SettingsCategorySchemas = Object.fromEntries(
  SETTING_CATEGORIES.map((category) => [category, categorySchema(category)]),
) as Record<SettingCategory, ReturnType<typeof categorySchema>>;

export const SettingsSchema = z.object(SettingsCategorySchemas).openapi('Settings');

export const SettingsCategorySchema = z
  .union(SETTING_CATEGORIES.map((c) => SettingsCategorySchemas[c]))
  .openapi('SettingsCategory');

export const SettingsPatchSchema = z
  .object({
    settings: z.record(z.string(), z.unknown()).openapi({
      description:
        'Setting key to new value; at least one. Every key and value is validated before anything is ' +
        `stored. For secret settings, "${SECRET_MASK}" keeps the stored value and null clears it.`,
      example: { jwt_access_ttl_seconds: 1800, site_name: 'Acme AI' },
    }),
  })
  .openapi('SettingsPatch');

const partialValues: Record<string, z.ZodType> = Object.fromEntries(
  SETTING_KEYS.map((key) => [key, settingValueSchema(key).optional()]),
);

export const SettingsPatchResultSchema = z
  .object({
    updated: z.array(z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]])),
    settings: z.object(partialValues).openapi({ description: 'New value of each updated key' }),
  })
  .openapi('SettingsPatchResult');

export const SettingsCategoryParams = z.object({
  category: z.string().openapi({
    param: { name: 'category', in: 'path' },
    description: `One of ${SETTING_CATEGORIES.join(', ')}; anything else is 404`,
    example: 'auth',
  }),
});

export const AuditEntrySchema = z
  .object({
    id: z.uuid(),
    timestamp: z.string().openapi({ description: 'ISO 8601 UTC', example: '2025-01-31T12:00:00.000Z' }),
    user_id: z.uuid().nullable(),
    user_email: z.string().nullable(),
    action: z.string().openapi({ example: 'settings.update' }),
    resource_type: z.string().nullable(),
    resource_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
  })
  .openapi('AuditEntry');

export const AuditPageSchema = z
  .object({
    total: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    entries: z.array(AuditEntrySchema),
  })
  .openapi('AuditPage');

export const TryGuardrailsSchema = z
  .object({
    text: z.string().max(100_000).describe('The sample text'),
    redact: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('security.redact rules to try (as PATCH takes them); absent: none'),
    content: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('security.content rules to try (as PATCH takes them); absent: none'),
  })
  .strict()
  .openapi('TryGuardrails');

export const TryGuardrailsResultSchema = z
  .object({
    redact: z.object({
      request: z.string().describe('As it would leave for the upstream'),
      response: z.string().describe('As it would reach the client in an answer'),
      logs: z.string().describe('As the logs would store it'),
    }),
    content: z.object({
      blocked: z.boolean(),
      message: z.string().nullable().describe('The refusal the client would get (names the rule)'),
      flagged: z
        .array(z.string())
        .describe('Flag rules the text matched: it would pass, with them in its log row'),
    }),
  })
  .openapi('TryGuardrailsResult');
