/** Reading vendor JSON and canonical tool arguments for the Gemini and Bedrock adapters. */

import { isRecord, type JsonObject, tryParseJson } from '../../util/json';

export { isRecord as isPlainObject, type JsonObject, tryParseJson } from '../../util/json';

/**
 * Canonical tool-call arguments are JSON text (as vendors stream them); Gemini and Bedrock
 * want an object. Anything that is not a JSON object becomes `{}` rather than failing the
 * whole request over one malformed historical call.
 */
export function parseToolArguments(text: string): JsonObject {
  const value = tryParseJson(text);
  return isRecord(value) ? value : {};
}

/** A non-empty string field, or undefined. */
export function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A finite number field, or 0: usage counters the vendor left out count as nothing. */
export function countField(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A copy without the keys whose value is undefined, so bodies and golden tests stay exact. */
export function withoutUndefined<T extends object>(value: T): T {
  const out = { ...value };
  for (const key of Object.keys(out) as Array<keyof T>) {
    if (out[key] === undefined) delete out[key];
  }
  return out;
}
