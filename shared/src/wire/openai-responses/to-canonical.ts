import type { CanonicalRequest, ResponseFormat, ToolChoice } from '../../canonical/types';
import { compact } from '../common/conversation';
import { parseBody } from '../common/validate';
import { convertInput } from './input-items';
import { type ResponsesRequest, responsesRequestSchema } from './request-schema';

const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

function toolChoice(choice: ResponsesRequest['tool_choice']): ToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  return typeof choice === 'string' ? choice : { name: choice.name };
}

function responseFormat(text: ResponsesRequest['text']): ResponseFormat | undefined {
  const format = text?.format;
  if (format === null || format === undefined) return undefined;
  if (format.type !== 'json_schema') return { type: format.type };
  return compact<ResponseFormat>({
    type: 'json_schema',
    name: format.name,
    schema: format.schema,
    strict: orUndefined(format.strict),
  });
}

export function responsesToCanonical(request: ResponsesRequest): CanonicalRequest {
  const { system, messages } = convertInput(request.input, orUndefined(request.instructions));
  const tools = request.tools?.map((tool) =>
    compact({
      name: tool.name,
      description: orUndefined(tool.description),
      parameters: tool.parameters ?? { type: 'object', properties: {} },
    }),
  );
  return compact({
    model: request.model,
    system,
    messages,
    maxTokens: orUndefined(request.max_output_tokens),
    temperature: orUndefined(request.temperature),
    topP: orUndefined(request.top_p),
    tools,
    toolChoice: toolChoice(request.tool_choice),
    parallelToolCalls: orUndefined(request.parallel_tool_calls),
    responseFormat: responseFormat(request.text),
    stream: request.stream === true,
    user: orUndefined(request.user),
    metadata: orUndefined(request.metadata),
  });
}

/** Validates a client body (400 naming the field) and parses it. */
export function parseResponsesRequest(body: unknown): CanonicalRequest {
  return responsesToCanonical(parseBody(responsesRequestSchema, body));
}
