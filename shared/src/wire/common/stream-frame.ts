import type {
  AnswerPart,
  FinishReason,
  ReasoningOpaque,
  ReasoningPart,
  StreamEvent,
  TextPart,
  ToolCallPart,
  Usage,
} from '../../canonical/types';
import type { SseEvent } from '../../sse/decoder';
import { encodeSseEvent, encodeSseJson } from '../../sse/encoder';
import { mergeUsage } from './usage';

/**
 * Block events as a format writer sees them: blocks numbered contiguously from 0 in output
 * order (`block`), tool calls numbered among themselves (`tool`), every block started before
 * its deltas and stopped before the next one starts, whatever the upstream decoder did.
 */
export type BlockEvent =
  | { type: 'text_start'; block: number }
  | { type: 'text_delta'; block: number; text: string }
  | { type: 'tool_call_start'; block: number; tool: number; id: string; name: string }
  | { type: 'tool_call_delta'; block: number; tool: number; argumentsDelta: string }
  | { type: 'reasoning_start'; block: number }
  | { type: 'reasoning_delta'; block: number; text: string }
  /** The vendor's own form of the block (or the gateway's seal of it), before its block_stop. */
  | { type: 'reasoning_opaque'; block: number; opaque?: ReasoningOpaque; sealed?: string }
  | { type: 'block_stop'; block: number; part: AnswerPart };

export interface StreamOpen {
  /** The upstream id from the `start` event, or '' when none came. */
  id: string;
  /** Usage known before the first output (Anthropic reports input tokens up front). */
  usage: Usage | null;
}

export interface StreamEnd {
  finishReason: FinishReason;
  usage: Usage | null;
  /** Every block, in order, as the client has received it. */
  content: AnswerPart[];
}

export interface StreamFailure {
  message: string;
  errorType: string;
  content: AnswerPart[];
}

/** One format's SSE vocabulary. Each method writes through the `SseOut` it was built with. */
export interface FormatWriter {
  open(start: StreamOpen): void;
  block(event: BlockEvent): void;
  finish(end: StreamEnd): void;
  fail(failure: StreamFailure): void;
}

export interface SseOut {
  json(data: unknown, event?: string): void;
  event(event: SseEvent): void;
}

interface OpenBlock {
  index: number;
  block: number;
  part: AnswerPart;
  tool: number;
}

const TRUNCATED = 'Upstream stream ended before the response finished';

/** The part of the frame that owns block bookkeeping; kept apart so each step stays short. */
class Blocks {
  open: OpenBlock | null = null;
  readonly content: AnswerPart[] = [];
  private tools = 0;

  constructor(private readonly writer: FormatWriter) {}

  close(): void {
    if (!this.open) return;
    const { block, part } = this.open;
    this.open = null;
    this.writer.block({ type: 'block_stop', block, part: { ...part } });
  }

  /** Text and reasoning blocks open alike; only tool calls number themselves apart. */
  private startPart(
    index: number,
    part: TextPart | ReasoningPart,
    start: 'text_start' | 'reasoning_start',
  ): OpenBlock {
    this.close();
    this.open = { index, block: this.content.length, part, tool: -1 };
    this.content.push(part);
    this.writer.block({ type: start, block: this.open.block });
    return this.open;
  }

  startText(index: number): OpenBlock {
    return this.startPart(index, { type: 'text', text: '' }, 'text_start');
  }

  startTool(index: number, id: string, name: string): void {
    this.close();
    const part: ToolCallPart = { type: 'tool_call', id, name, arguments: '' };
    const tool = this.tools++;
    this.open = { index, block: this.content.length, part, tool };
    this.content.push(part);
    this.writer.block({ type: 'tool_call_start', block: this.open.block, tool, id, name });
  }

  text(index: number, text: string): void {
    const open =
      this.open?.index === index && this.open.part.type === 'text' ? this.open : this.startText(index);
    if (text === '' || open.part.type !== 'text') return;
    open.part.text += text;
    this.writer.block({ type: 'text_delta', block: open.block, text });
  }

  /** The open reasoning block of `index`, started when another block (or none) is open. */
  reasoningBlock(index: number): OpenBlock & { part: ReasoningPart } {
    const open =
      this.open?.index === index && this.open.part.type === 'reasoning'
        ? this.open
        : this.startPart(index, { type: 'reasoning', text: '' }, 'reasoning_start');
    return open as OpenBlock & { part: ReasoningPart };
  }

  reasoning(index: number, text: string): void {
    const open = this.reasoningBlock(index);
    if (text === '') return;
    open.part.text += text;
    this.writer.block({ type: 'reasoning_delta', block: open.block, text });
  }

  reasoningOpaque(index: number, opaque: ReasoningOpaque | undefined, sealed: string | undefined): void {
    const open = this.reasoningBlock(index);
    if (opaque) open.part.opaque = opaque;
    if (sealed !== undefined) open.part.sealed = sealed;
    this.writer.block({
      type: 'reasoning_opaque',
      block: open.block,
      ...(opaque ? { opaque } : {}),
      ...(sealed !== undefined ? { sealed } : {}),
    });
  }

  /** A delta for a call that is not open has no name to render under, so it is dropped. */
  toolArguments(index: number, delta: string): void {
    const open = this.open;
    if (open?.index !== index || open.part.type !== 'tool_call' || delta === '') return;
    open.part.arguments += delta;
    this.writer.block({ type: 'tool_call_delta', block: open.block, tool: open.tool, argumentsDelta: delta });
  }
}

class Frame {
  private readonly blocks: Blocks;
  private startId = '';
  private opened = false;
  private done = false;
  private finishReason: FinishReason | null = null;
  private usage: Usage | null = null;

  constructor(private readonly writer: FormatWriter) {
    this.blocks = new Blocks(writer);
  }

  private ensureOpen(): void {
    if (this.opened) return;
    this.opened = true;
    this.writer.open({ id: this.startId, usage: this.usage });
  }

  handle(event: StreamEvent): void {
    if (this.done) return;
    if (event.type === 'start') this.startId = event.id;
    else if (event.type === 'usage') this.usage = mergeUsage(this.usage, event.usage);
    else if (event.type === 'finish') this.finishReason = event.finishReason;
    else if (event.type === 'error') this.fail(event.message, event.errorType);
    else this.handleBlock(event);
  }

  private handleBlock(event: Extract<StreamEvent, { index: number }>): void {
    this.ensureOpen();
    const { blocks } = this;
    if (event.type === 'text_start') {
      if (blocks.open?.index !== event.index || blocks.open.part.type !== 'text')
        blocks.startText(event.index);
    } else if (event.type === 'text_delta') blocks.text(event.index, event.text);
    else if (event.type === 'tool_call_start') blocks.startTool(event.index, event.id, event.name);
    else if (event.type === 'tool_call_delta') blocks.toolArguments(event.index, event.argumentsDelta);
    else if (event.type === 'reasoning_start') blocks.reasoningBlock(event.index);
    else if (event.type === 'reasoning_delta') blocks.reasoning(event.index, event.text);
    else if (event.type === 'reasoning_opaque')
      blocks.reasoningOpaque(event.index, event.opaque, event.sealed);
    else if (blocks.open?.index === event.index) blocks.close();
  }

  private fail(message: string, errorType: string): void {
    this.ensureOpen();
    this.done = true;
    this.writer.fail({ message, errorType, content: this.blocks.content });
  }

  /** Terminal output waits for the end of input: usage may follow `finish` or precede it. */
  end(): void {
    if (this.done) return;
    this.ensureOpen();
    this.blocks.close();
    if (this.finishReason === null) {
      this.fail(TRUNCATED, 'upstream_error');
      return;
    }
    this.done = true;
    this.writer.finish({ finishReason: this.finishReason, usage: this.usage, content: this.blocks.content });
  }
}

/**
 * Canonical events → SSE bytes for one format. The frame owns what every format shares
 * (lazy preamble, block normalisation, usage merging, terminal ordering, error handling);
 * the writer only knows its own event shapes.
 */
export function createFramedEncoder(
  makeWriter: (out: SseOut) => FormatWriter,
): TransformStream<StreamEvent, Uint8Array> {
  let frame: Frame;
  return new TransformStream({
    start(controller) {
      frame = new Frame(
        makeWriter({
          json: (data, event) => controller.enqueue(encodeSseJson(data, event)),
          event: (event) => controller.enqueue(encodeSseEvent(event)),
        }),
      );
    },
    transform(event) {
      frame.handle(event);
    },
    flush() {
      frame.end();
    },
  });
}
