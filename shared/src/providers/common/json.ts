/**
 * Vendor JSON for every adapter: reading bodies that arrive as `unknown` without casts (a
 * malformed field degrades to "absent" instead of a crash), and posting JSON.
 */
import type { UpstreamCall } from '../../canonical/ports';
import { isRecord, type JsonObject, tryParseJson } from '../../util/json';

export * from '../../util/json';

/** A JSON object parsed from text (a body, one stream event's data), or undefined. */
export function parseJsonObject(text: string): JsonObject | undefined {
  const value = tryParseJson(text);
  return isRecord(value) ? value : undefined;
}

/**
 * Canonical tool-call arguments are JSON text (as vendors stream them); vendors that take an
 * object get `{}` for anything that is not a JSON object rather than failing the whole request
 * over one malformed historical call.
 */
export function parseToolArguments(text: string): JsonObject {
  return parseJsonObject(text) ?? {};
}

/** A finite number field, or 0: usage counters the vendor left out count as nothing. */
export function countField(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A JSON POST: the call every vendor takes (Bedrock's signed on top, in bedrock/api.ts). */
export function postJson(url: string, headers: Record<string, string>, body: unknown): UpstreamCall {
  return { url, init: { method: 'POST', headers, body: JSON.stringify(body) } };
}

/** Base URLs are entered by hand; tolerate trailing slashes. */
export function trimTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
