import { mayUseModel } from '@sluice/shared/auth/gateway';
import type { ServableModel } from '@sluice/shared/db/repos';
import { AppError } from '@sluice/shared/http';
import { type Context, Hono } from 'hono';
import { backgroundFor } from '../background';
import type { GatewayEnv } from '../types';

/** OpenAI's model object, plus `kind` (chat or embedding): which endpoint the model answers. */
function modelObject(model: ServableModel) {
  return {
    id: model.name,
    object: 'model' as const,
    created: Math.floor(model.createdAt.getTime() / 1000),
    owned_by: model.ownedBy,
    kind: model.kind,
  };
}

/** Anthropic's model object: what its SDK's `models.list()` and `models.retrieve()` read. */
function anthropicModelObject(model: ServableModel) {
  return {
    type: 'model' as const,
    id: model.name,
    display_name: model.name,
    created_at: model.createdAt.toISOString(),
  };
}

/** A client of Anthropic's API (its SDKs and Claude Code always send `anthropic-version`). */
const speaksAnthropic = (c: Context<GatewayEnv>) => c.req.header('anthropic-version') !== undefined;

/**
 * GET /v1/models and GET /v1/models/{id}: the models the caller may use, in OpenAI's shape, or
 * in Anthropic's for a client that speaks it (one page: `has_more` false). A model that exists
 * but is not the caller's to use is as unknown as one that does not (no probing for names).
 * Names may hold a `/` (`openai/gpt-4o`), sent raw or percent-encoded. Both read the isolate's
 * list of servable models (warm-caches.ts), dropped when the console moves the routing version:
 * a warm call reads no Postgres.
 */
export const modelsRoutes = new Hono<GatewayEnv>()
  .get('/', async (c) => {
    const principal = c.get('principal');
    const servable = await c.get('deps').servableModels(backgroundFor(c));
    const usable = servable.filter((m) => mayUseModel(principal, m.name));
    if (speaksAnthropic(c)) {
      const data = usable.map(anthropicModelObject);
      return c.json({
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      });
    }
    return c.json({ object: 'list', data: usable.map(modelObject) });
  })
  .get('/:id{.+}', async (c) => {
    const id = c.req.param('id');
    const found = mayUseModel(c.get('principal'), id)
      ? (await c.get('deps').servableModels(backgroundFor(c))).find((m) => m.name === id)
      : undefined;
    if (!found) {
      throw new AppError(404, `The model '${id}' does not exist or you do not have access to it`, {
        type: 'invalid_request_error',
      });
    }
    return c.json(speaksAnthropic(c) ? anthropicModelObject(found) : modelObject(found));
  });
