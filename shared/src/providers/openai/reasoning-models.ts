import type { CanonicalRequest } from '../../canonical/types';

/**
 * OpenAI's model families that do not reason refuse reasoning parameters outright (400
 * "reasoning.effort is not supported with this model"), and a coding agent asks for reasoning
 * on every turn (Claude Code's thinking is on by default). So a request to one of these goes
 * without it, as if the client had asked for none; any other model — the reasoning families and
 * those this list does not know, including compatible servers' — gets it as asked.
 */
const NON_REASONING = /(?:^|[/.:])(?:gpt-4o|gpt-4\.1|gpt-4-|gpt-4$|gpt-3\.5|chatgpt-4o)/;

export function takesReasoning(upstreamModel: string): boolean {
  return !NON_REASONING.test(upstreamModel.toLowerCase());
}

/** The request as the route's model can take it. */
export function forModel(request: CanonicalRequest, upstreamModel: string): CanonicalRequest {
  if (!request.reasoning || takesReasoning(upstreamModel)) return request;
  const { reasoning: _reasoning, ...rest } = request;
  return rest;
}
