/** Resolved routes and models for tests (imported by *.test.ts only). */
import { NO_OWN_TERMS, type ResolvedModel, type ResolvedRoute } from '../../src/routing/resolve';

/** An uncapped OpenAI route of weight 1 and no table price; a test patches what it is about. */
export function testRoute(patch: Partial<ResolvedRoute> = {}): ResolvedRoute {
  return {
    routeId: 'r1',
    providerId: 'p',
    providerName: 'openai-main',
    providerType: 'openai',
    baseUrl: 'https://api.example/v1',
    apiKeyEncrypted: 'sealed',
    config: {},
    upstreamModel: 'm',
    rpmCap: null,
    tpmCap: null,
    weight: 1,
    tablePrice: null,
    ...patch,
  };
}

/** A configured, ordered chat model with no weights or prices of its own. */
export function testModel(routes: ResolvedRoute[], patch: Partial<ResolvedModel> = {}): ResolvedModel {
  return {
    source: 'configured',
    modelId: 'm',
    name: 'house',
    kind: 'chat',
    strategy: 'ordered',
    ...NO_OWN_TERMS,
    routes,
    ...patch,
  };
}
