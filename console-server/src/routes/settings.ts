import { createRoute } from '@hono/zod-openapi';
import { loadSettings } from '@sluice/shared/db/repos';
import { tryGuardrails } from '@sluice/shared/guardrails';
import { notFound } from '@sluice/shared/http';
import {
  categoryView,
  isSettingCategory,
  SETTING_CATEGORIES,
  type SettingCategory,
  settingsView,
  updateSettings,
} from '@sluice/shared/settings';
import type { Context } from 'hono';
import { requireAdmin } from '../middleware/require-admin';
import { bearerSecurity, createRouter, errorResponses, jsonBody, jsonResponse } from '../openapi';
import {
  SettingsCategoryParams,
  SettingsCategorySchema,
  SettingsCategorySchemas,
  SettingsPatchResultSchema,
  SettingsPatchSchema,
  SettingsSchema,
  TryGuardrailsResultSchema,
  TryGuardrailsSchema,
} from '../schemas/settings-audit';
import type { ConsoleEnv } from '../types';
import { auditActor } from './audit-actor';

const getAllRoute = createRoute({
  tags: ['settings'],
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/',
  summary: 'Every setting, grouped by category (secrets masked)',
  responses: { 200: jsonResponse(SettingsSchema, 'All settings'), ...errorResponses(401, 403) },
});

const patchRoute = createRoute({
  tags: ['settings'],
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  method: 'patch',
  path: '/',
  summary: 'Change settings; all are validated before any is stored, in one transaction',
  request: { body: jsonBody(SettingsPatchSchema) },
  responses: {
    200: jsonResponse(SettingsPatchResultSchema, 'Updated keys and their new values'),
    ...errorResponses(400, 401, 403, 422),
  },
});

const categoryRoute = createRoute({
  tags: ['settings'],
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  method: 'get',
  path: '/category/{category}',
  summary: 'The settings of one category',
  request: { params: SettingsCategoryParams },
  responses: {
    200: jsonResponse(SettingsCategorySchema, 'That category'),
    ...errorResponses(401, 403, 404),
  },
});

const tryRoute = createRoute({
  tags: ['settings'],
  security: bearerSecurity,
  middleware: [requireAdmin()] as const,
  method: 'post',
  path: '/guardrails/try',
  summary:
    'What a sample text becomes under security.redact (at each place) and whether security.content refuses it, for rules as given (nothing is stored)',
  request: { body: jsonBody(TryGuardrailsSchema) },
  responses: {
    200: jsonResponse(TryGuardrailsResultSchema, 'The text at each place, and the content verdict'),
    ...errorResponses(400, 401, 403, 422),
  },
});

/** Legacy aliases (Versioning 4): GET /system, /oidc and /audit equal the category endpoint. */
function legacyRoute<C extends SettingCategory>(category: C) {
  return createRoute({
    tags: ['settings'],
    security: bearerSecurity,
    middleware: [requireAdmin()] as const,
    method: 'get',
    path: `/${category}` as `/${C}`,
    summary: `Legacy alias of /category/${category}`,
    responses: {
      200: jsonResponse(SettingsCategorySchemas[category], `The ${category} settings`),
      ...errorResponses(401, 403),
    },
  });
}

async function categoryJson(c: Context<ConsoleEnv>, category: SettingCategory) {
  return categoryView(await loadSettings(c.var.deps.db), category);
}

export const settingsRoutes = createRouter()
  .openapi(getAllRoute, async (c) => c.json(settingsView(await loadSettings(c.var.deps.db)), 200))
  .openapi(patchRoute, async (c) => {
    const { settings } = c.req.valid('json');
    const result = await updateSettings(c.var.deps, settings, auditActor(c));
    return c.json(result, 200);
  })
  .openapi(categoryRoute, async (c) => {
    const { category } = c.req.valid('param');
    if (!isSettingCategory(category)) {
      throw notFound(`Unknown settings category; expected one of ${SETTING_CATEGORIES.join(', ')}`);
    }
    return c.json(await categoryJson(c, category), 200);
  })
  .openapi(tryRoute, async (c) => c.json(tryGuardrails(c.req.valid('json')), 200))
  .openapi(legacyRoute('system'), async (c) => c.json(await categoryJson(c, 'system'), 200))
  .openapi(legacyRoute('oidc'), async (c) => c.json(await categoryJson(c, 'oidc'), 200))
  .openapi(legacyRoute('audit'), async (c) => c.json(await categoryJson(c, 'audit'), 200));
