import * as z from 'zod';
import { contentSettingSchema } from '../guardrails/content-policy';
import { redactSettingSchema } from '../guardrails/redact-policy';
import { toolSettingSchema } from '../guardrails/tool-policy';

/**
 * Every setting the service knows, with its category, schema, default and meaning. Rows in the
 * settings table override defaults; a key not listed here cannot be stored. docs/settings.md
 * "Settings (admin)" documents the same list.
 */
export const SETTING_CATEGORIES = [
  'auth',
  'cache',
  'security',
  'budget',
  'keys',
  'general',
  'system',
  'oidc',
  'audit',
] as const;
export type SettingCategory = (typeof SETTING_CATEGORIES)[number];

export interface SettingDefinition<S extends z.ZodType = z.ZodType> {
  category: SettingCategory;
  schema: S;
  default: z.output<S>;
  description: string;
  /** Write-only: stored sealed, never returned or audited in clear (settings/secrets.ts, views.ts). */
  secret?: boolean;
}

/** Keeps each entry's own schema type, so SettingValues can be inferred from it. */
function setting<S extends z.ZodType>(definition: SettingDefinition<S>): SettingDefinition<S> {
  return definition;
}

const nonNegativeInt = z.number().int().min(0);
const positiveInt = z.number().int().min(1);
const ratio = z.number().min(0).max(1);
const urlOrEmpty = z.url().or(z.literal(''));
const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const scopeList = z
  .string()
  .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'must be scope names separated by single spaces')
  .refine((s) => s.split(' ').includes('openid'), 'must include openid');

export const SETTING_DEFINITIONS = {
  // auth
  jwt_access_ttl_seconds: setting({
    category: 'auth',
    schema: z.number().int().min(60).max(86_400),
    default: 900,
    description: 'Lifetime of access tokens issued from now on (expires_in)',
  }),
  jwt_refresh_ttl_seconds: setting({
    category: 'auth',
    schema: z.number().int().min(300).max(31_536_000),
    default: 604_800,
    description: 'Lifetime of refresh tokens issued from now on',
  }),
  login_max_failed_attempts: setting({
    category: 'auth',
    schema: positiveInt.max(1000),
    default: 5,
    description: 'Failed logins for one email from one IP before 429',
  }),
  login_lockout_seconds: setting({
    category: 'auth',
    schema: positiveInt.max(86_400),
    default: 900,
    description: 'Window in which failed logins are counted',
  }),
  // cache
  cache_ttl_seconds: setting({
    category: 'cache',
    schema: nonNegativeInt,
    default: 300,
    description: 'Response cache lifetime; 0 disables the cache',
  }),
  // security
  signature_drift_seconds: setting({
    category: 'security',
    schema: nonNegativeInt,
    default: 300,
    description: 'Allowed clock drift of signed requests',
  }),
  nonce_ttl_seconds: setting({
    category: 'security',
    schema: positiveInt,
    default: 300,
    description: 'How long a request nonce is remembered against replay',
  }),
  redact: setting({
    category: 'security',
    schema: redactSettingSchema,
    default: {},
    description:
      'What is replaced by [REDACTED:<rule>]: {"detectors": [email, phone, card, ip, api_key], "patterns": [{"name", "regex", "apply_to"?}], "apply_to": [request, response, logs]}',
  }),
  inspect_tools: setting({
    category: 'security',
    schema: toolSettingSchema,
    default: {},
    description:
      'MCP tool calls the gateway refuses: {"deny": [{"name", "tool" (<server>__<tool> glob), "argument_regex"?}]}',
  }),
  content: setting({
    category: 'security',
    schema: contentSettingSchema,
    default: {},
    description:
      'What model requests may not carry: {"deny": [{"name", "regex"}], "max_prompt_tokens"}; a request that breaks a rule is refused (400) naming it',
  }),
  mcp_tool_access: setting({
    category: 'security',
    schema: z.partialRecord(
      z.enum(['operator', 'user', 'viewer', 'service']),
      z
        .array(
          z
            .string()
            .regex(/^(\*|[a-z0-9][a-z0-9_-]*__(\*|[^\s]+))$/, 'must be *, <server>__* or <server>__<tool>'),
        )
        .max(500),
    ),
    default: {},
    description:
      'MCP tools each role may list and call through /mcp: patterns *, <server>__* or <server>__<tool>. A role not listed may use every tool; admins always may',
  }),
  rate_limit_fail_closed: setting({
    category: 'security',
    schema: z.boolean(),
    default: false,
    description: 'Refuse (429) instead of skipping limits when they cannot be checked',
  }),
  // budget
  budget_warning_threshold: setting({
    category: 'budget',
    schema: ratio,
    default: 0.8,
    description: 'Fraction of a budget at which it is reported as warning',
  }),
  budget_critical_threshold: setting({
    category: 'budget',
    schema: ratio,
    default: 0.95,
    description: 'Fraction of a budget at which it is reported as critical',
  }),
  token_reservation_output_tokens: setting({
    category: 'budget',
    schema: nonNegativeInt.max(10_000_000),
    default: 4096,
    description:
      'Output tokens a request reserves on token limits and budgets while it runs: its max_tokens when lower, this when it names none; 0: the prompt only',
  }),
  budget_alert_webhook_url: setting({
    category: 'budget',
    schema: urlOrEmpty,
    default: '',
    description: 'Where budget alerts (warning, critical, exhausted) are POSTed; empty: none',
  }),
  budget_alert_webhook_secret: setting({
    category: 'budget',
    schema: z.string().max(4096),
    default: '',
    description: 'Signs each budget alert (HMAC-SHA256 in x-sluice-signature); write-only',
    secret: true,
  }),
  // keys
  api_key_max_expiry_days: setting({
    category: 'keys',
    schema: positiveInt,
    default: 365,
    description: 'Longest expires_in_days a new key may ask for',
  }),
  api_key_default_rate_limit_rpm: setting({
    category: 'keys',
    schema: positiveInt,
    default: 60,
    description: 'rate_limit_rpm suggested for new keys',
  }),
  api_key_rotation_grace_seconds: setting({
    category: 'keys',
    schema: nonNegativeInt,
    default: 86_400,
    description: 'How long the old value of a rotated key stays accepted',
  }),
  // general
  data_retention_days: setting({
    category: 'general',
    schema: positiveInt,
    default: 30,
    description: 'Retention of request, MCP, access and app logs (days; audit records: audit_retention_days)',
  }),
  mcp_session_idle_seconds: setting({
    category: 'general',
    schema: z.number().int().min(60).max(86_400),
    default: 1800,
    description: 'An MCP session on /mcp ends after this long without a request',
  }),
  mcp_tool_search: setting({
    category: 'general',
    schema: z.enum(['off', 'on', 'only']),
    default: 'off',
    description:
      'The tool search on /mcp (sluice__search_tools: finds tools by name and description, returns their definitions): off; on, listed beside every tool; only, listed alone with mcp_pinned_tools (every tool stays callable by name)',
  }),
  mcp_pinned_tools: setting({
    category: 'general',
    schema: z.array(z.string().regex(/^[a-z0-9][a-z0-9_-]*__[^\s]+$/, 'must be <server>__<tool>')).max(100),
    default: [],
    description: 'Tools /mcp lists beside the search tool when mcp_tool_search is only (<server>__<tool>)',
  }),
  site_name: setting({
    category: 'general',
    schema: z.string().min(1).max(100),
    default: 'Sluice',
    description: 'Name shown by the console',
  }),
  // system
  upstream_timeout_seconds: setting({
    category: 'system',
    schema: positiveInt.max(3600),
    default: 120,
    description: 'How long the gateway waits for an upstream to start answering before trying the next route',
  }),
  gateway_base_url: setting({
    category: 'system',
    schema: urlOrEmpty,
    default: '',
    description:
      'Public URL of the gateway (empty: unknown): published before sign-in and shown with every new API key as the base URL to use',
  }),
  console_base_url: setting({
    category: 'system',
    schema: urlOrEmpty,
    default: '',
    description:
      'Public URL of the console (empty: unknown): the SSO redirect URI is <this>/api/auth/sso/callback when oidc_redirect_uri is empty',
  }),
  otel_exporter_otlp_endpoint: setting({
    category: 'system',
    schema: urlOrEmpty,
    default: '',
    description:
      "OpenTelemetry traces: the collector's OTLP/HTTP base URL (spans go to <this>/v1/traces; empty: no traces). The OTEL_* environment variables win over these settings",
  }),
  otel_exporter_otlp_protocol: setting({
    category: 'system',
    schema: z.enum(['http/protobuf', 'http/json']),
    default: 'http/protobuf',
    description: 'OpenTelemetry traces: the OTLP encoding',
  }),
  otel_exporter_otlp_headers: setting({
    category: 'system',
    schema: z.string().max(4096),
    default: '',
    description:
      "OpenTelemetry traces: headers sent with every export, as key=value,key2=value2 (a collector's API key); write-only",
    secret: true,
  }),
  otel_traces_sampler_ratio: setting({
    category: 'system',
    schema: ratio,
    default: 1,
    description:
      "OpenTelemetry traces: the share of new traces recorded (a client's sampled traceparent is always followed)",
  }),
  otel_capture_content: setting({
    category: 'system',
    schema: z.boolean(),
    default: false,
    description:
      "OpenTelemetry traces: put the request messages on spans (gen_ai.input.messages), after the logs' redaction rules",
  }),
  // oidc
  oidc_enabled: setting({ category: 'oidc', schema: z.boolean(), default: false, description: 'Enable SSO' }),
  oidc_issuer_url: setting({
    category: 'oidc',
    schema: urlOrEmpty,
    default: '',
    description: 'Issuer URL (discovery at /.well-known/openid-configuration)',
  }),
  oidc_client_id: setting({
    category: 'oidc',
    schema: z.string().max(512),
    default: '',
    description: 'Client id',
  }),
  oidc_client_secret: setting({
    category: 'oidc',
    schema: z.string().max(4096),
    default: '',
    description: 'Client secret (write-only)',
    secret: true,
  }),
  oidc_redirect_uri: setting({
    category: 'oidc',
    schema: urlOrEmpty,
    default: '',
    description:
      'Callback URL registered with the identity provider (empty: <console_base_url>/api/auth/sso/callback)',
  }),
  oidc_scopes: setting({
    category: 'oidc',
    schema: scopeList,
    default: 'openid email profile',
    description: 'Scopes requested at authorize (space-separated, must include openid)',
  }),
  oidc_auto_create_users: setting({
    category: 'oidc',
    schema: z.boolean(),
    default: true,
    description: 'Create an account on first SSO sign-in (false: only existing users)',
  }),
  oidc_default_role: setting({
    category: 'oidc',
    // Never admin: an identity provider must not be able to mint admins.
    schema: z.enum(['operator', 'user', 'viewer']),
    default: 'user',
    description: 'Role of accounts created by SSO',
  }),
  oidc_allowed_email_domains: setting({
    category: 'oidc',
    schema: z.array(z.string().regex(DOMAIN, 'must be a lowercase domain name')).max(100),
    default: [],
    description: 'Email domains allowed to sign in by SSO (empty: any)',
  }),
  // audit
  audit_retention_days: setting({
    category: 'audit',
    schema: positiveInt,
    default: 365,
    description: 'Retention of audit records',
  }),
  audit_mirror_to_clickhouse: setting({
    category: 'audit',
    schema: z.boolean(),
    default: true,
    description: 'Copy audit records to ClickHouse when it is configured',
  }),
} as const;

export type SettingKey = keyof typeof SETTING_DEFINITIONS;
export type SettingValues = { [K in SettingKey]: z.output<(typeof SETTING_DEFINITIONS)[K]['schema']> };

export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFINITIONS, key);
}

export function isSettingCategory(value: string): value is SettingCategory {
  return (SETTING_CATEGORIES as readonly string[]).includes(value);
}

export function isSecretSetting(key: SettingKey): boolean {
  const def: SettingDefinition = SETTING_DEFINITIONS[key];
  return def.secret === true;
}

export function defaultSettings(): SettingValues {
  const values: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(SETTING_DEFINITIONS)) values[key] = structuredClone(def.default);
  return values as SettingValues;
}

/** Merges stored rows over defaults, ignoring rows whose key or value is no longer valid. */
export function mergeSettings(rows: ReadonlyArray<{ key: string; value: unknown }>): SettingValues {
  const values = defaultSettings() as Record<string, unknown>;
  for (const row of rows) {
    if (!isSettingKey(row.key)) continue;
    const def: SettingDefinition = SETTING_DEFINITIONS[row.key];
    // Secrets are stored sealed (settings/secrets.ts), so only their type can be checked here.
    const valid = def.secret ? typeof row.value === 'string' : def.schema.safeParse(row.value).success;
    if (valid) values[row.key] = row.value;
  }
  return values as SettingValues;
}
