import { listServableModels, type ServableModel } from '@sluice/shared/db/repos/models-repo';
import { mayUseModel } from '@sluice/shared/gateway/principal';
import { AppError } from '@sluice/shared/http/app-error';
import { Hono } from 'hono';
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

/**
 * GET /v1/models and GET /v1/models/{id}: the models the caller may use. A model that exists
 * but is not the caller's to use is as unknown as one that does not (no probing for names).
 * Names may hold a `/` (`openai/gpt-4o`), sent raw or percent-encoded.
 */
export const modelsRoutes = new Hono<GatewayEnv>()
  .get('/', async (c) => {
    const principal = c.get('principal');
    const servable = await listServableModels(c.get('deps').db);
    const data = servable.filter((m) => mayUseModel(principal, m.name)).map(modelObject);
    return c.json({ object: 'list', data });
  })
  .get('/:id{.+}', async (c) => {
    const id = c.req.param('id');
    const found = mayUseModel(c.get('principal'), id)
      ? (await listServableModels(c.get('deps').db)).find((m) => m.name === id)
      : undefined;
    if (!found) {
      throw new AppError(404, `The model '${id}' does not exist or you do not have access to it`, {
        type: 'invalid_request_error',
      });
    }
    return c.json(modelObject(found));
  });
