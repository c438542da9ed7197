/**
 * Direct addressing: a client may send `provider_name/upstream_model` to reach a provider
 * without a configured model. The provider part follows the provider-name slug rule; the
 * upstream part is everything after the first slash (upstream names may contain slashes).
 */
export interface DirectModelName {
  providerName: string;
  upstreamModel: string;
}

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const UPSTREAM_MODEL = /^\S{1,200}$/;

export function parseDirectModelName(name: string): DirectModelName | null {
  const slash = name.indexOf('/');
  if (slash <= 0) return null;
  const providerName = name.slice(0, slash);
  const upstreamModel = name.slice(slash + 1);
  if (!PROVIDER_NAME.test(providerName) || !UPSTREAM_MODEL.test(upstreamModel)) return null;
  return { providerName, upstreamModel };
}
