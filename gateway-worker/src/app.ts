import { Hono } from 'hono';
import { onGatewayError, onGatewayNotFound } from './errors';
import { recordAccessLog } from './middleware/access-log';
import { authenticate, authenticateMcp } from './middleware/authenticate';
import { limitBodySize } from './middleware/body-limit';
import { guardMcpOrigin } from './middleware/mcp-origin';
import { recordHttpMetrics } from './middleware/metrics';
import { traceRequests } from './middleware/trace';
import { healthRoutes } from './routes/health';
import { mcpRoutes } from './routes/mcp';
import { metricsRoute } from './routes/metrics';
import { modelsRoutes } from './routes/models';
import { protectedResourceRoutes } from './routes/protected-resource';
import { MODEL_PATHS, proxyRoutes } from './routes/proxy';
import { usageRoute } from './routes/usage';
import type { GatewayDeps, GatewayEnv } from './types';

/** Model calls may carry images; console bodies are capped far lower. */
export const GATEWAY_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

export function createGatewayApp(deps: GatewayDeps): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.onError(onGatewayError);
  app.notFound(onGatewayNotFound);
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', traceRequests());
  // Outermost after the deps (and the trace), so refusals (413, 401, 404) are recorded too.
  app.use('*', recordAccessLog());
  app.use('*', limitBodySize(GATEWAY_BODY_LIMIT_BYTES));
  app.use('*', recordHttpMetrics());
  app.route('/health', healthRoutes);
  app.get('/metrics', metricsRoute);
  // Before the /v1/* middleware: usage takes only API keys and is not a use of the key.
  app.get('/v1/usage', authenticate({ allowJwt: false, countsAsUse: false }), usageRoute);
  app.use('/v1/*', authenticate({ allowJwt: true }, MODEL_PATHS));
  app.use('/mcp/*', guardMcpOrigin());
  app.route('/.well-known/oauth-protected-resource', protectedResourceRoutes);
  app.use('/mcp/*', authenticateMcp());
  app.route('/v1/models', modelsRoutes);
  app.route('/v1', proxyRoutes);
  app.route('/mcp', mcpRoutes);
  return app;
}
