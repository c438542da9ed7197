/**
 * Narrowing helpers for vendor JSON. Vendor bodies arrive as `unknown`; these read them
 * without casts so a malformed field degrades to "absent" instead of a crash.
 */

export {
  asArray,
  asNumber,
  asRecord,
  asString,
  isRecord,
  type JsonObject,
  tryParseJson,
} from '../../util/json';

/** Base URLs are entered by hand; tolerate trailing slashes. */
export function trimTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
