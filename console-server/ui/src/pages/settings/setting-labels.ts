import type { Schemas } from '../../api/types';

/** Every setting key the API knows: a key added to the API fails the typecheck until labelled here. */
type SettingKey = Schemas['SettingsPatchResult']['updated'][number];

/** What each setting is called on the page; its key (what the API and the audit log use) shows beside it. */
const SETTING_LABELS: Record<SettingKey, string> = {
  // auth
  jwt_access_ttl_seconds: 'Access token lifetime (seconds)',
  jwt_refresh_ttl_seconds: 'Refresh token lifetime (seconds)',
  login_max_failed_attempts: 'Failed sign-ins before lockout',
  login_lockout_seconds: 'Sign-in lockout window (seconds)',
  // cache
  cache_ttl_seconds: 'Response cache lifetime (seconds)',
  // security
  signature_drift_seconds: 'Allowed signature clock drift (seconds)',
  nonce_ttl_seconds: 'Replay nonce memory (seconds)',
  redact: 'Redaction rules',
  inspect_tools: 'MCP tool-call deny rules',
  content: 'Request content rules',
  mcp_tool_access: 'MCP tools by role',
  rate_limit_fail_closed: 'Refuse requests when limits cannot be checked',
  // budget
  budget_warning_threshold: 'Budget warning threshold (fraction)',
  budget_critical_threshold: 'Budget critical threshold (fraction)',
  token_reservation_output_tokens: 'Output tokens reserved per request',
  budget_alert_webhook_url: 'Budget alert webhook URL',
  budget_alert_webhook_secret: 'Budget alert webhook secret',
  // keys
  api_key_max_expiry_days: 'Longest key expiry (days)',
  api_key_default_rate_limit_rpm: 'Default requests per minute of new keys',
  api_key_rotation_grace_seconds: 'Rotation grace period (seconds)',
  // general
  data_retention_days: 'Log retention (days)',
  mcp_session_idle_seconds: 'MCP session idle timeout (seconds)',
  mcp_tool_search: 'MCP tool search on /mcp (off, on, only)',
  mcp_pinned_tools: 'MCP tools listed beside the search',
  site_name: 'Site name',
  // system
  upstream_timeout_seconds: 'Upstream timeout (seconds)',
  gateway_base_url: 'Gateway base URL',
  console_base_url: 'Console base URL',
  otel_exporter_otlp_endpoint: 'Trace collector (OTLP/HTTP) URL',
  otel_exporter_otlp_protocol: 'Trace export encoding',
  otel_exporter_otlp_headers: 'Trace export headers',
  otel_traces_sampler_ratio: 'Share of new traces recorded',
  otel_capture_content: 'Put request messages on spans',
  // oidc
  oidc_enabled: 'Single sign-on enabled',
  oidc_issuer_url: 'Issuer URL',
  oidc_client_id: 'Client ID',
  oidc_client_secret: 'Client secret',
  oidc_redirect_uri: 'Redirect URI',
  oidc_scopes: 'Scopes',
  oidc_auto_create_users: 'Create accounts on first sign-in',
  oidc_default_role: 'Role of accounts created by SSO',
  oidc_allowed_email_domains: 'Allowed email domains',
  // audit
  audit_retention_days: 'Audit record retention (days)',
  audit_mirror_to_clickhouse: 'Mirror audit records to ClickHouse',
};

/** Category names that are not simply capitalised. */
const CATEGORY_LABELS: Record<string, string> = { oidc: 'OIDC' };

function capitalised(text: string): string {
  return `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;
}

/** A setting's human label; a key the UI does not know yet reads as its words ("new_key" → "New key"). */
export function settingLabel(key: string): string {
  return SETTING_LABELS[key as SettingKey] ?? capitalised(key.replaceAll('_', ' '));
}

/** A category's tab title: "general" → "General", "oidc" → "OIDC". */
export function categoryLabel(category: string): string {
  return CATEGORY_LABELS[category] ?? capitalised(category);
}
