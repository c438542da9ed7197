import type { CanonicalResponse, StreamEvent } from '../canonical/types';
import type { GuardrailMark } from './marks';
import { blockingToolRule, type ToolPolicy } from './tool-policy';

/**
 * security.inspect_tools on what a model answers: a tool call a deny rule matches (its name
 * against the rule's `tool` glob, its arguments against `argument_regex`) never reaches the
 * client. A short note naming the tool and the rule (never the arguments) takes its place, and
 * the answer finishes as `content_filter` (chat `content_filter`, messages `refusal`, responses
 * `incomplete`), so the client's agent loop does not run it and can tell why. Streamed calls
 * are held until their block ends — a call's arguments are bounded by the answer's output
 * tokens — then passed on whole or replaced.
 */

/** What a removed tool call leaves in the answer. */
export function blockedCallNote(tool: string, rule: string): string {
  return `[Tool call "${tool}" blocked by tool rule "${rule}"]`;
}

function blockMark(rule: string): GuardrailMark {
  return { action: 'block', guardrail: 'inspect_tools', rule };
}

/** Arguments as the rules see them: the JSON value, or the raw text when it is not JSON. */
function argumentsOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The answer with every blocked tool call replaced, and the marks for its log row. */
export function inspectAnswerToolCalls(
  response: CanonicalResponse,
  policy: ToolPolicy | null,
): { response: CanonicalResponse; marks: GuardrailMark[] } {
  if (!policy) return { response, marks: [] };
  const marks: GuardrailMark[] = [];
  const content = response.content.map((part) => {
    if (part.type !== 'tool_call') return part;
    const rule = blockingToolRule(policy, part.name, argumentsOf(part.arguments));
    if (rule === null) return part;
    marks.push(blockMark(rule));
    return { type: 'text' as const, text: blockedCallNote(part.name, rule) };
  });
  if (marks.length === 0) return { response, marks };
  return { response: { ...response, content, finishReason: 'content_filter' }, marks };
}

interface HeldCall {
  name: string;
  arguments: string;
  events: StreamEvent[];
}

/** The streamed form: tool calls held per block, then passed on or replaced. */
export function createToolCallInspection(
  policy: ToolPolicy,
  onBlocked: (mark: GuardrailMark) => void,
): TransformStream<StreamEvent, StreamEvent> {
  const held = new Map<number, HeldCall>();
  let blockedAny = false;
  const settle = (
    index: number,
    call: HeldCall,
    controller: TransformStreamDefaultController<StreamEvent>,
    closed: boolean,
  ) => {
    held.delete(index);
    const rule = blockingToolRule(policy, call.name, argumentsOf(call.arguments));
    if (rule === null) {
      for (const event of call.events) controller.enqueue(event);
    } else {
      blockedAny = true;
      onBlocked(blockMark(rule));
      controller.enqueue({ type: 'text_start', index });
      controller.enqueue({ type: 'text_delta', index, text: blockedCallNote(call.name, rule) });
    }
    if (closed) controller.enqueue({ type: 'block_stop', index });
  };
  return new TransformStream({
    transform(event, controller) {
      const call = 'index' in event ? held.get(event.index) : undefined;
      if (event.type === 'tool_call_start') {
        held.set(event.index, { name: event.name, arguments: '', events: [event] });
      } else if (event.type === 'tool_call_delta' && call) {
        call.arguments += event.argumentsDelta;
        call.events.push(event);
      } else if (event.type === 'block_stop' && call) {
        settle(event.index, call, controller, true);
      } else if (event.type === 'error') {
        for (const [index, open] of held) settle(index, open, controller, false);
        controller.enqueue(event);
      } else if (event.type === 'finish') {
        for (const [index, open] of held) settle(index, open, controller, true);
        controller.enqueue(blockedAny ? { ...event, finishReason: 'content_filter' } : event);
      } else {
        controller.enqueue(event);
      }
    },
    flush(controller) {
      // An answer that broke off inside a call: what was held is judged as it stands.
      for (const [index, open] of held) settle(index, open, controller, false);
    },
  });
}
