import type { CanonicalRequest } from '../canonical/types';
import { AppError } from '../http/app-error';
import { clientIdentity } from '../logs/requests/client-identity';
import { NO_OWN_TERMS } from '../routing/resolve';
import { asRecord, asString } from '../util/json';
import { type Exchange, failedExchange, settleExchange } from './accounting';
import type { ProxyCall, ProxyDeps, ResolvedModel } from './types';

/** The model a refused request named, unresolved: no routes, priced at 0 (nothing was used). */
function unresolvedModel(name: string): ResolvedModel {
  return {
    source: 'configured',
    modelId: null,
    name,
    kind: null,
    strategy: 'ordered',
    ...NO_OWN_TERMS,
    inputPricePerMtok: 0,
    outputPricePerMtok: 0,
    routes: [],
  };
}

/** The model a body names, for the log row of a body the gateway could not parse. */
function modelNamed(body: unknown): string {
  const model = asString(asRecord(body)?.model);
  return model === undefined ? '' : model.slice(0, 256);
}

export function clientOf(call: ProxyCall) {
  return call.headers ? clientIdentity(call.headers) : undefined;
}

/**
 * Requests refused before the gateway knew enough to answer them — a body that fails
 * validation, a model the key may not use or that does not exist, a limit reached, every
 * route benched — are logged all the same (status, error type and message, no tokens, no
 * cost), so an operator sees a client that fails on every call. Only an authenticated caller
 * gets here: a request without a valid key is refused before any of this.
 *
 * Logs `error` when it is a refusal the client is told of; hands the error back to be thrown
 * (callers run their step in a plain try/catch: nothing is built unless it refuses).
 * `request` is the parsed request, when parsing got that far.
 */
export function logRefusal(
  error: unknown,
  call: ProxyCall,
  deps: ProxyDeps,
  startedAt: number,
  request?: CanonicalRequest,
): unknown {
  if (!(error instanceof AppError)) return error;
  const modelName = modelNamed(call.body);
  const exchange: Exchange = {
    endpoint: call.endpoint,
    principal: call.principal,
    request: request ?? { model: modelName, system: [], messages: [], stream: isStream(call.body) },
    model: unresolvedModel(modelName),
    startedAt,
    reserved: [],
    client: clientOf(call),
    uncounted: true,
    span: call.span,
  };
  settleExchange(exchange, failedExchange(error, { attempts: 0, route: null }), deps, call.waitUntil);
  return error;
}

function isStream(body: unknown): boolean {
  return asRecord(body)?.stream === true;
}
