import { createConsoleApp } from '../../console-server/src/app';
import { buildDeps } from '../../console-server/src/deps';
import type { ConsoleDeps } from '../../console-server/src/types';

export interface ConsoleHarness {
  deps: ConsoleDeps;
  /**
   * The client address of calls that name none. Each harness has its own, so per-client limits
   * (5 setup calls a minute) are not shared between test files running side by side.
   */
  defaultIp: string;
  /** Calls the app in-process; each caller gets its own client address via X-Forwarded-For. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; ip?: string; raw?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

export async function consoleHarness(env: Record<string, string>): Promise<ConsoleHarness> {
  const deps = await buildDeps(env);
  const app = createConsoleApp(deps, { trustProxy: true });
  const defaultIp = `198.51.100.${1 + Math.floor(Math.random() * 254)}`;
  return {
    deps,
    defaultIp,
    call(method, path, options = {}) {
      const headers: Record<string, string> = {
        'x-forwarded-for': options.ip ?? defaultIp,
        'user-agent': 'vitest',
      };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.raw !== undefined || options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = options.raw ?? JSON.stringify(options.body);
      }
      return Promise.resolve(app.request(path, { method, headers, body }));
    },
    close: () => deps.closeStores(),
  };
}
