import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { MiddlewareHandler } from 'hono';

/** Where `npm run build -w @sluice/console-ui` writes the web UI. */
export const DEFAULT_UI_DIR = join(import.meta.dirname, '..', 'ui', 'dist');

/** The context variable set on a request answered with a file of the build (an asset load). */
export const UI_ASSET = 'uiAsset';

/**
 * Serves the built web UI at `/`: a GET for a file under the build directory answers the
 * file (and marks the request UI_ASSET when it is not a page, which the access log leaves out:
 * `/` answered with index.html is a page load); any other non-/api
 * GET answers index.html (the single-page app routes in the browser), recorded as the page
 * load it is. /api is never touched, so API 404s keep the JSON envelope. Undefined without a build.
 */
export function uiStatic(dir: string = DEFAULT_UI_DIR): MiddlewareHandler | undefined {
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const files = serveStatic({ root: dir });
  return async (c, next) => {
    const { method, path } = c.req;
    if ((method !== 'GET' && method !== 'HEAD') || path === '/api' || path.startsWith('/api/')) return next();
    let missing = false;
    const served = await files(c, async () => {
      missing = true;
    });
    if (!missing && served) {
      // An HTML file is a page (`/` is index.html): only scripts, styles, icons… are assets.
      if (!served.headers.get('content-type')?.startsWith('text/html')) c.set(UI_ASSET, true);
      return served;
    }
    // Read per request: a rebuild replaces index.html (new asset hashes) without a restart.
    c.header('cache-control', 'no-cache');
    return c.html(readFileSync(indexFile, 'utf8'));
  };
}
