import { AsyncLocalStorage } from 'node:async_hooks';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';

/** The three client APIs, streaming or not. */
export type Call = 'chat' | 'chat-stream' | 'messages' | 'messages-stream' | 'responses' | 'responses-stream';
export const CALLS: Call[] = [
  'chat',
  'chat-stream',
  'messages',
  'messages-stream',
  'responses',
  'responses-stream',
];

export interface Clients {
  openai: OpenAI;
  anthropic: Anthropic;
}

/**
 * One request through an official client; resolves to the HTTP status the client saw (200,
 * or the status of the error it threw). Streams are read to the end, so the ledger row has
 * the stream's usage.
 */
export async function send(clients: Clients, call: Call, model: string, text: string): Promise<number> {
  try {
    await sendOrThrow(clients, call, model, text);
    return 200;
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number') return status;
    throw error;
  }
}

async function sendOrThrow(clients: Clients, call: Call, model: string, text: string): Promise<void> {
  const { openai, anthropic } = clients;
  const messages = [{ role: 'user' as const, content: text }];
  switch (call) {
    case 'chat':
      await openai.chat.completions.create({ model, messages });
      return;
    case 'chat-stream':
      for await (const _ of await openai.chat.completions.create({ model, messages, stream: true })) {
        // drained
      }
      return;
    case 'messages':
      await anthropic.messages.create({ model, max_tokens: 256, messages });
      return;
    case 'messages-stream':
      for await (const _ of await anthropic.messages.create({
        model,
        max_tokens: 256,
        messages,
        stream: true,
      })) {
        // drained
      }
      return;
    case 'responses':
      await openai.responses.create({ model, input: text });
      return;
    case 'responses-stream':
      for await (const _ of await openai.responses.create({ model, input: text, stream: true })) {
        // drained
      }
      return;
  }
}

/**
 * A clock for the gateway that runs `shiftMs` behind in whatever request is sent inside
 * `at(shiftMs, ...)`, so one test run can spread its traffic over several days and hours.
 * The shift follows the request's async context (its handler and its after-response
 * accounting alike), so requests at different shifts may run side by side; the durations the
 * gateway measures stay real.
 */
export function shiftedClock() {
  const shift = new AsyncLocalStorage<number>();
  return {
    now: () => Date.now() - (shift.getStore() ?? 0),
    at: <T>(shiftMs: number, work: () => Promise<T>): Promise<T> => shift.run(shiftMs, work),
  };
}

/** Runs `tasks` with at most `width` in flight, resolving to their results in order. */
export async function inParallel<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}
