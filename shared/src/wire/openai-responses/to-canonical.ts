import { isReasoningEffort } from '../../canonical/reasoning';
import type {
  CanonicalRequest,
  ReasoningRequest,
  ResponseFormat,
  ToolChoice,
  ToolDefinition,
} from '../../canonical/types';
import { compact, hostedTool } from '../common/conversation';
import { namespacedName } from '../common/tool-shapes';
import { parseBody } from '../common/validate';
import { convertInput } from './input-items';
import { type ResponsesRequest, type ResponsesTool, responsesRequestSchema } from './request-schema';

const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
const EMPTY_PARAMETERS = { type: 'object', properties: {} };

function toolChoice(choice: ResponsesRequest['tool_choice']): ToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  if (typeof choice === 'string') return choice;
  const name = (choice as { name?: unknown }).name;
  // A named function or custom tool; other choices (allowed_tools, a hosted tool) leave it to the model.
  return typeof name === 'string' ? { name } : undefined;
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

type FunctionTool = Extract<ResponsesTool, { type: 'function' }>;

function functionTool(tool: FunctionTool, namespace?: string): ToolDefinition {
  return compact({
    kind: 'function' as const,
    name: namespacedName(namespace, tool.name),
    description: orUndefined(tool.description),
    parameters: tool.parameters ?? EMPTY_PARAMETERS,
    strict: orUndefined(tool.strict),
    namespace,
  });
}

/** Functions as they are, custom tools as such, a namespace as its functions, the rest as hosted tools. */
function toolDefinitions(tool: ResponsesTool, index: number): ToolDefinition[] {
  const raw = tool as Record<string, unknown>;
  switch (tool.type) {
    case 'function':
      return [functionTool(tool as FunctionTool)];
    case 'custom':
      return [
        compact({
          kind: 'custom' as const,
          name: raw.name as string,
          description: orUndefined(raw.description as string | null | undefined),
          format: orUndefined(raw.format as Record<string, unknown> | null | undefined),
        }),
      ];
    case 'namespace':
      return (raw.tools as FunctionTool[]).map((inner) => functionTool(inner, raw.name as string));
    default:
      return [hostedTool('openai-responses', index, raw)];
  }
}

function reasoningOf(request: ResponsesRequest): ReasoningRequest | undefined {
  const effort = request.reasoning?.effort;
  if (!isReasoningEffort(effort)) return undefined;
  const summary = request.reasoning?.summary;
  const known = summary === 'auto' || summary === 'concise' || summary === 'detailed' || summary === 'none';
  return known ? { effort, summary } : { effort };
}

export function responsesToCanonical(request: ResponsesRequest): CanonicalRequest {
  const { system, messages } = convertInput(request.input, orUndefined(request.instructions));
  return compact({
    model: request.model,
    system,
    messages,
    maxTokens: orUndefined(request.max_output_tokens),
    temperature: orUndefined(request.temperature),
    topP: orUndefined(request.top_p),
    tools: request.tools?.flatMap(toolDefinitions),
    toolChoice: toolChoice(request.tool_choice),
    parallelToolCalls: orUndefined(request.parallel_tool_calls),
    responseFormat: responseFormat(request.text),
    stream: request.stream === true,
    user: orUndefined(request.user),
    metadata: orUndefined(request.metadata),
    reasoning: reasoningOf(request),
  });
}

/** Validates a client body (400 naming the field) and parses it. */
export function parseResponsesRequest(body: unknown): CanonicalRequest {
  return responsesToCanonical(parseBody(responsesRequestSchema, body));
}
