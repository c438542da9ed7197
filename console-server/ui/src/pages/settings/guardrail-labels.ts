import type { Detector, GuardrailKey, Place, Role, RuleAction } from './guardrail-values';

/** What the structured guardrail editor calls each choice (docs/guardrails.md says what they do). */
export const DETECTOR_LABELS: Record<Detector, string> = {
  email: 'Email addresses',
  phone: 'Phone numbers',
  card: 'Card numbers (Luhn-checked)',
  ip: 'IP addresses (v4, v6)',
  api_key: 'API keys (OpenAI, Anthropic, Google, AWS, …)',
};

export const PLACE_LABELS: Record<Place, string> = {
  request: 'Request',
  response: 'Response',
  logs: 'Logs',
};

export const ACTION_LABELS: Record<RuleAction, string> = {
  block: 'Block',
  flag: 'Flag',
};

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  operator: 'Operator',
  user: 'User',
  viewer: 'Viewer',
  service: 'Service',
};

/** What each setting does, shown under its title in the structured view. */
export const GUARDRAIL_SUMMARY: Record<GuardrailKey, string> = {
  redact: 'What is replaced by [REDACTED:<rule>] before it leaves, comes back or is stored.',
  content: 'What model requests may not carry, how large a prompt may be and which models each role may use.',
  inspect_tools:
    'MCP tool calls the gateway refuses, and tool calls in model answers it removes (JSON-RPC error -32001 naming the rule).',
};

/** Short help under the structured editor's inputs. */
export const GUARDRAIL_HELP = {
  enabled: 'Off keeps the rules but turns them off.',
  regex: 'JavaScript syntax; a leading (?i) ignores case. Patterns that could run away are refused.',
  name: '1–64 letters, digits, _ . - ; unique within the setting.',
  detectors: 'Built-in detectors; a match becomes [REDACTED:<detector>].',
  places:
    'Request: what the upstream sees. Response: what the client gets. Logs: stored error texts (redacted whenever any rule is set).',
  defaultPlaces: 'No places chosen yet: request and logs (the default).',
  patterns: 'Named regexes; a match becomes [REDACTED:<name>]. A pattern may name its own places.',
  ownPlaces: 'Own places',
  contentDeny:
    'Tested on every text a model request sends upstream. Block refuses it (400, naming the rule); flag lets it pass and names the rule in its log row.',
  maxPromptTokens:
    'Largest prompt, as estimated for limits (about four characters a token). Empty: no bound.',
  models:
    'Model-name globs (* any run of characters), separated by commas or spaces. A role with "only these" may use nothing else; a role left empty is not restricted. Refused with 403.',
  toolDeny:
    'Tool: a <server>__<tool> glob (* any run of characters). Argument regex: tested on every argument value; without one the tool is refused outright.',
} as const;
