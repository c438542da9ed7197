import { limitSubject } from '../../../limits/definitions';
import type { McpPost } from '../handle-mcp';
import type { JsonRpcId } from '../jsonrpc';
import type { MethodCall } from '../methods';
import type { SessionContext } from '../upstream-calls';

/** A stateless request as a method call: the caller's role and limits, its span and background work. */
export function statelessCall(
  post: McpPost,
  message: { id: JsonRpcId; method: string; params?: Record<string, unknown> },
  session: SessionContext,
): MethodCall {
  return {
    id: message.id,
    method: message.method,
    params: message.params ?? {},
    session,
    role: post.principal.role,
    subject: limitSubject(post.principal),
    span: post.span,
    waitUntil: post.waitUntil,
  };
}
