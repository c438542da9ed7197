import { createGatewayApp } from '../../gateway-worker/src/app';
import { buildDeps } from '../../gateway-worker/src/deps';
import type { GatewayDeps } from '../../gateway-worker/src/types';

export interface GatewayHarness {
  /** The bindings it was built from, to build a variant (e.g. another Redis URL). */
  env: Record<string, string>;
  deps: GatewayDeps;
  app: ReturnType<typeof createGatewayApp>;
  call(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<Response>;
}

/** The gateway app in-process (the same Fetch-only code workerd runs), over the real drivers. */
export function gatewayHarness(env: Record<string, string>): GatewayHarness {
  const deps = buildDeps(env);
  const app = createGatewayApp(deps);
  return {
    env,
    deps,
    app,
    call(method, path, options = {}) {
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      return Promise.resolve(app.request(path, { method, headers, body }));
    },
  };
}
