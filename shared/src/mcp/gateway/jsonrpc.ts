import * as z from 'zod';
import { AppError, type ErrorStatus } from '../../http/app-error';

/** JSON-RPC 2.0 error codes MCP uses. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** A header (MCP-Protocol-Version, Mcp-Method, Mcp-Name) that says otherwise than the body. */
  headerMismatch: -32020,
} as const;

export type JsonRpcId = string | number;

/** A request (with id) or a notification (without); params, when present, an object. */
export const jsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number().int()]).optional(),
  method: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type JsonRpcRequest = z.infer<typeof jsonRpcRequestSchema>;

/** A client's answer to a server request: accepted (202) and not forwarded anywhere. */
export const jsonRpcResponseSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number().int()]), result: z.unknown() }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int(), z.null()]),
    error: z.object({}).passthrough(),
  }),
]);

/**
 * An error on the /mcp surface, rendered by the gateway's onError as a JSON-RPC error object
 * {jsonrpc, id, error: {code, message, data?}} with the HTTP status given.
 */
export class McpRpcError extends AppError {
  readonly rpcCode: number;
  readonly rpcId: JsonRpcId | null;
  readonly rpcData: unknown;

  constructor(status: ErrorStatus, rpcCode: number, message: string, id: JsonRpcId | null, data?: unknown) {
    super(status, message);
    this.name = 'McpRpcError';
    this.rpcCode = rpcCode;
    this.rpcId = id;
    this.rpcData = data;
  }
}

/** A JSON-RPC error answered with HTTP 200: the request arrived, the method failed. */
export class RpcFault extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcFault';
    this.code = code;
    this.data = data;
  }
}

/** `id` null when the request's id is not known (a refusal decided before its body was read). */
export function rpcFaultBody(id: JsonRpcId | null, fault: RpcFault): Record<string, unknown> {
  const error: Record<string, unknown> = { code: fault.code, message: fault.message };
  if (fault.data !== undefined) error.data = fault.data;
  return { jsonrpc: '2.0', id, error };
}

export function rpcErrorBody(error: McpRpcError | AppError): Record<string, unknown> {
  const rpc = error instanceof McpRpcError ? error : null;
  const code = rpc?.rpcCode ?? (error.status >= 500 ? RPC.internalError : RPC.invalidRequest);
  const body: Record<string, unknown> = { code, message: error.message };
  if (rpc?.rpcData !== undefined) body.data = rpc.rpcData;
  return { jsonrpc: '2.0', id: rpc?.rpcId ?? null, error: body };
}

export function rpcResult(id: JsonRpcId, result: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result };
}
