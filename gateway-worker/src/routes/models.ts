import { listServableModels } from '@sluice/shared/db/repos/models-repo';
import { mayUseModel } from '@sluice/shared/gateway/principal';
import { Hono } from 'hono';
import type { GatewayEnv } from '../types';

export const modelsRoutes = new Hono<GatewayEnv>().get('/', async (c) => {
  const principal = c.var.principal;
  const servable = await listServableModels(c.var.deps.db);
  const data = servable
    .filter((m) => mayUseModel(principal, m.name))
    .map((m) => ({
      id: m.name,
      object: 'model' as const,
      created: Math.floor(m.createdAt.getTime() / 1000),
      owned_by: m.ownedBy,
    }));
  return c.json({ object: 'list', data });
});
