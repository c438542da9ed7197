import type { CanonicalRequest } from '../canonical/types';
import { AppError } from '../http/app-error';
import { clientIdentity } from '../logs/requests/client-identity';
import { NO_OWN_TERMS } from '../routing/resolve';
import { type Exchange, failedExchange, settleExchange } from './accounting';
import type { ModelEndpoint, ProxyCall, ProxyDeps, ResolvedModel } from './types';

/**
 * Requests refused before the gateway knew enough to answer them — a body that fails
 * validation, a model the key may not use or that does not exist, a limit reached, every
 * route benched — are logged all the same (status, error type and message, no tokens, no
 * cost), so an operator sees a client that fails on every call. Only an authenticated caller
 * gets here: a request without a valid key is refused before any of this.
 */
export interface RefusalContext {
  endpoint: ModelEndpoint;
  startedAt: number;
  /** The model named in the body, as far as it could be read. */
  modelName: string;
  /** The parsed request, when parsing got that far. */
  request?: CanonicalRequest;
}

/** The model a refused request named, unresolved: no routes, nothing to price. */
function unresolvedModel(name: string): ResolvedModel {
  return {
    source: 'configured',
    modelId: null,
    name,
    kind: null,
    strategy: 'ordered',
    ...NO_OWN_TERMS,
    routes: [],
  };
}

/** The model a body names, for the log row of a body the gateway could not parse. */
export function modelNamed(body: unknown): string {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model.slice(0, 256) : '';
}

export function clientOf(call: ProxyCall) {
  return call.headers ? clientIdentity(call.headers) : undefined;
}

/** Logs `error` when it is a refusal the client is told of; hands the error back to be thrown. */
export function logRefusal(
  error: unknown,
  call: ProxyCall,
  deps: ProxyDeps,
  context: RefusalContext,
): unknown {
  if (!(error instanceof AppError)) return error;
  const { modelName } = context;
  const exchange: Exchange = {
    endpoint: context.endpoint,
    principal: call.principal,
    request: context.request ?? { model: modelName, system: [], messages: [], stream: isStream(call.body) },
    model: unresolvedModel(modelName),
    startedAt: context.startedAt,
    reserved: [],
    client: clientOf(call),
  };
  settleExchange(
    exchange,
    { ...failedExchange(error, { attempts: 0, route: null }), refused: true },
    deps,
    call.waitUntil,
  );
  return error;
}

function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

/** Runs a step that may refuse the request, logging the refusal. */
export async function loggingRefusals<T>(
  step: () => T | Promise<T>,
  call: ProxyCall,
  deps: ProxyDeps,
  context: RefusalContext,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw logRefusal(error, call, deps, context);
  }
}
