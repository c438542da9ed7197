import type { ExecutionContext } from 'hono';
import { createGatewayApp } from '../../gateway-worker/src/app';
import { buildDeps } from '../../gateway-worker/src/deps';
import type { GatewayDeps } from '../../gateway-worker/src/types';

export interface GatewayHarness {
  /** The bindings it was built from, to build a variant (e.g. another Redis URL). */
  env: Record<string, string>;
  deps: GatewayDeps;
  app: ReturnType<typeof createGatewayApp>;
  call(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<Response>;
  /** app.request() with an execution context, as workerd gives a request (see `settled`). */
  request(input: string | Request, init?: RequestInit): Promise<Response>;
  /**
   * Resolves once everything the requests made through `request` handed to waitUntil has
   * finished: the work after the response (token counts, cache entries, alerts,
   * log batches they opened). Read a streamed body to its end first: its work starts there.
   */
  settled(): Promise<void>;
  /**
   * Reads the cache version counters now. Otherwise a path without an admission (/mcp, JWT
   * callers) reads them at most once a second: after a console change, call this instead of
   * waiting that second out, and the next request sees the change.
   */
  readVersions(): Promise<void>;
}

/**
 * An execution context as workerd gives a request, keeping what is handed to waitUntil so that
 * a test can wait for the work done after the response instead of sleeping for it.
 */
export function keptBackground(): { context: ExecutionContext; settled(): Promise<void> } {
  const pending = new Set<Promise<unknown>>();
  return {
    context: {
      waitUntil(work) {
        const kept = Promise.resolve(work).catch(() => undefined);
        pending.add(kept);
        void kept.finally(() => pending.delete(kept));
      },
      passThroughOnException() {},
      props: {},
    },
    async settled() {
      // Work may hand over more work as it ends (a flush after a task): until none is left.
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/** The gateway app in-process (the same Fetch-only code workerd runs), over the real drivers. */
export function gatewayHarness(env: Record<string, string>): GatewayHarness {
  const deps = buildDeps(env);
  const app = createGatewayApp(deps);
  const background = keptBackground();
  return {
    env,
    deps,
    app,
    request: (input, init) => Promise.resolve(app.request(input, init, undefined, background.context)),
    settled: background.settled,
    async readVersions() {
      const read = deps.auth.refreshVersions;
      if (!read) throw new Error('this gateway cannot read its versions on demand');
      // A read already under way joins in, and it may have begun before the change: the
      // second read begins after it ends, so after the change.
      await read();
      await read();
    },
    call(method, path, options = {}) {
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      return Promise.resolve(app.request(path, { method, headers, body }));
    },
  };
}
