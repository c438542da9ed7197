import { type RedactSetting, redactPolicyOf } from './redact-policy';
import { type ToolSetting, toolPolicyOf } from './tool-policy';

const tags = new WeakMap<RedactSetting, WeakMap<ToolSetting, string>>();

/**
 * A short tag of the rules that reshape model answers (security.redact for responses,
 * security.inspect_tools); '' when none does. It goes into the response cache's key, so an
 * answer stored under other rules is never replayed. Computed once per settings load.
 */
export function answerRulesTag(redact: RedactSetting, tools: ToolSetting): string {
  let byTools = tags.get(redact);
  if (!byTools) {
    byTools = new WeakMap();
    tags.set(redact, byTools);
  }
  let tag = byTools.get(tools);
  if (tag === undefined) {
    const reshaping = [redactPolicyOf(redact)?.response ? redact : null, toolPolicyOf(tools) ? tools : null];
    tag = reshaping.every((rules) => rules === null) ? '' : fnv1a(JSON.stringify(reshaping));
    byTools.set(tools, tag);
  }
  return tag;
}

/** 32-bit FNV-1a as hex: a tag, not a secret (the cache key is hashed again with SHA-256). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
