import type { LimitSubject } from '../../limits/definitions';
import type { ToolAdmission } from '../../limits/tool-gate';
import { accessNameOf, type ToolRef } from '../../limits/tool-limits';
import { LIMITED_CALL_PREFIX } from '../refusals';
import { RpcFault } from './jsonrpc';

/**
 * JSON-RPC error code of a tool call refused by a tool limit (the server-defined range; 429's
 * echo). A JSON-RPC error rather than HTTP 429: the official SDK clients hand a JSON-RPC error
 * to the caller with its message and data, while an HTTP error loses both; and a call answered
 * as an event stream has sent its 200 already.
 */
export const TOOL_RATE_LIMITED_CODE = -32029;

/** The limits port of /mcp: admits a routed tools/call against the caller's tool limits. */
export type ToolLimitsPort = (ask: { subject: LimitSubject; tool: ToolRef }) => Promise<ToolAdmission>;

/**
 * Null when the call may go on (no port, no subject, or every limit covering it passed and
 * counted it); else the refusal, naming the limit, the tool and when it frees.
 */
export async function toolLimitRefusal(
  port: ToolLimitsPort | undefined,
  subject: LimitSubject | undefined,
  tool: ToolRef,
): Promise<RpcFault | null> {
  if (!port || !subject) return null;
  const admission = await port({ subject, tool });
  if (admission.ok) return null;
  const name = accessNameOf(tool);
  const when = admission.resetsAt === null ? '' : ` (at ${admission.resetsAt})`;
  return new RpcFault(
    TOOL_RATE_LIMITED_CODE,
    `${LIMITED_CALL_PREFIX}${admission.label} on ${name}; retry after ${admission.retryAfterSeconds} s${when}`,
    {
      limit: admission.label,
      tool: name,
      retry_after_seconds: admission.retryAfterSeconds,
      resets_at: admission.resetsAt,
    },
  );
}
