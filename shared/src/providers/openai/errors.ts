/**
 * OpenAI-style error bodies → classified upstream errors. Covers OpenAI and Azure
 * (`{error: {message, type, code}}`, Azure often with `type: null` and a `code`) and the
 * shapes common OpenAI-compatible servers use (`{error: "text"}`, vLLM's top-level
 * `{object: "error", message, type}`, FastAPI's `{detail}`).
 */
import type { UpstreamError } from '../../canonical/types';
import { upstreamError } from '../common/errors';
import { asRecord, asString, tryParseJson } from '../common/json';

export interface ErrorFields {
  type?: string | undefined;
  message?: string | undefined;
}

/** Reads `type` and `message` from a parsed body or a stream's `error` chunk. */
export function readOpenAiError(body: unknown): ErrorFields {
  const root = asRecord(body);
  if (!root) return {};
  if (typeof root.error === 'string') return { message: root.error };
  const error = asRecord(root.error) ?? root;
  const code = asString(error.code);
  // Azure puts the useful name in `code` ("DeploymentNotFound"); bare HTTP numbers say nothing.
  const type = asString(error.type) || (code && !/^\d+$/.test(code) ? code : undefined);
  // FastAPI-based servers answer `{detail: "..."}`.
  return { type, message: asString(error.message) ?? asString(root.detail) };
}

export function mapOpenAiError(status: number, bodyText: string): UpstreamError {
  return upstreamError(status, readOpenAiError(tryParseJson(bodyText)), bodyText, {
    statusLabel: 'Upstream returned HTTP',
  });
}
