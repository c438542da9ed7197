import { usageForKey } from '@sluice/shared/gateway';
import type { Context } from 'hono';
import type { GatewayEnv } from '../types';

/** GET /v1/usage: API keys only, and not a use of the key (see app.ts). */
export async function usageRoute(c: Context<GatewayEnv>): Promise<Response> {
  return c.json(await usageForKey(c.get('principal'), c.get('deps').usage));
}
