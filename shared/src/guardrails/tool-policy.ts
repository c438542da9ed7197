import * as z from 'zod';
import { compileRuleRegex, globRegex } from './rule-regex';
import { ruleNameSchema, ruleRegexSchema, uniqueRuleNames } from './rule-schema';

/**
 * security.inspect_tools: which MCP tool calls the gateway refuses. A rule names tools by a
 * glob over `<server>__<tool>` (`*` matches any run of characters: `*`, `github__*`,
 * `*__delete_*`) and, optionally, an `argument_regex` tested on every string (and number) in the
 * call's arguments, however deep — without one the rule refuses the tool outright. A refused
 * call answers a JSON-RPC error naming the rule (never the argument), is logged in the MCP call
 * log and counted in /metrics; the upstream never sees it. Which roles may call which tools at
 * all is security.mcp_tool_access.
 */
const toolRule = z.strictObject({
  name: ruleNameSchema,
  tool: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\s]+$/, 'must be a <server>__<tool> glob without spaces'),
  argument_regex: ruleRegexSchema.optional(),
});

export const toolSettingSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    deny: z.array(toolRule).max(200).optional(),
  })
  .superRefine(uniqueRuleNames('deny'));

export type ToolSetting = z.output<typeof toolSettingSchema>;

export interface ToolPolicy {
  deny: ReadonlyArray<{ name: string; tool: RegExp; argument: RegExp | null }>;
}

/** JSON-RPC error code of a tool call a rule refused (the server-defined range). */
export const TOOL_BLOCKED_CODE = -32001;

const compiled = new WeakMap<ToolSetting, ToolPolicy | null>();

export function toolPolicyOf(setting: ToolSetting): ToolPolicy | null {
  const known = compiled.get(setting);
  if (known !== undefined) return known;
  const deny = (setting.deny ?? []).map((rule) => ({
    name: rule.name,
    tool: globRegex(rule.tool),
    argument: rule.argument_regex === undefined ? null : compileRuleRegex(rule.argument_regex),
  }));
  const policy = setting.enabled === false || deny.length === 0 ? null : { deny };
  compiled.set(setting, policy);
  return policy;
}

/** The first rule that refuses this call; null when none does. */
export function blockingToolRule(policy: ToolPolicy | null, tool: string, args: unknown): string | null {
  if (!policy) return null;
  for (const rule of policy.deny) {
    if (!rule.tool.test(tool)) continue;
    if (rule.argument === null || someValue(args, rule.argument)) return rule.name;
  }
  return null;
}

function someValue(value: unknown, regex: RegExp): boolean {
  if (typeof value === 'string') return regex.test(value);
  if (typeof value === 'number' || typeof value === 'boolean') return regex.test(String(value));
  if (Array.isArray(value)) return value.some((item) => someValue(item, regex));
  if (typeof value === 'object' && value !== null)
    return Object.values(value).some((v) => someValue(v, regex));
  return false;
}
