import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { onConsoleError, onConsoleNotFound } from './errors';
import { recordAccessLog } from './middleware/access-log';
import { limitBody } from './middleware/body-limit';
import { guardJsonInput } from './middleware/json-input';
import { type RequestMetaOptions, requestMeta } from './middleware/request-meta';
import { oauthEndpoints } from './oauth/endpoints';
import { registerApiRoutes } from './routes';
import { probeRoutes } from './routes/probes';
import { traceConsoleRequests } from './telemetry/request-spans';
import type { ConsoleDeps, ConsoleEnv } from './types';

export const CONSOLE_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ConsoleAppOptions extends RequestMetaOptions {
  /** Serves the web UI for non-/api GETs (console-server/src/ui-static.ts); none in tests. */
  ui?: MiddlewareHandler;
}

export function createConsoleApp(
  deps: ConsoleDeps,
  options: ConsoleAppOptions = {},
): OpenAPIHono<ConsoleEnv> {
  const app = new OpenAPIHono<ConsoleEnv>();
  app.onError(onConsoleError);
  app.notFound(onConsoleNotFound);
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', traceConsoleRequests(deps.tracer));
  app.use('*', requestMeta(options));
  // Before everything that can refuse (413, 401, 404), so every request is recorded.
  app.use('*', recordAccessLog());
  app.use('/api/*', limitBody({ maxBytes: CONSOLE_BODY_LIMIT_BYTES }));
  app.use('/api/*', guardJsonInput());
  app.route('/health', probeRoutes);
  app.route('/', oauthEndpoints);
  if (options.ui) app.use('*', options.ui);
  registerApiRoutes(app);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Sluice console API',
      version: '0.1.0',
      description: 'Management API of the Sluice AI gateway. Errors: {error: {message, type, details?}}.',
    },
    servers: [{ url: '/' }],
  });
  return app;
}
