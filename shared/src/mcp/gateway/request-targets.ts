import type { McpServerRow } from '../../db/repos/mcp-repo';
import type { McpServerTarget } from '../ports';
import type { MethodDeps } from './methods';

export interface RequestDeps {
  deps: MethodDeps;
  /**
   * Starts resolving a server's target for the user now (its secret opened, or the user's own
   * token read), so that it overlaps what comes first (reading the body); the request's steps
   * that need it take it from there.
   */
  prefetch(server: McpServerRow, userId: string): void;
}

/**
 * The endpoint's deps for one request: each server's target is resolved once however many of the
 * request's steps need it (whether the server speaks the stateless revision, its list cache key,
 * the call itself), a user's token read once rather than at each step.
 */
export function forOneRequest(deps: MethodDeps): RequestDeps {
  const targets = new Map<string, Promise<McpServerTarget>>();
  const targetOf = (server: McpServerRow, userId: string): Promise<McpServerTarget> => {
    const key = `${server.id}\n${userId}`;
    let target = targets.get(key);
    if (!target) {
      target = deps.targetOf(server, userId);
      targets.set(key, target);
    }
    return target;
  };
  return {
    deps: { ...deps, targetOf },
    prefetch(server, userId) {
      // A refusal (a user who must connect first) is the request's to meet when it gets there.
      targetOf(server, userId).catch(() => {});
    },
  };
}
