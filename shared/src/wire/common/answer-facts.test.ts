import { describe, expect, it } from 'vitest';
import { nativeStream as messagesStream } from '../../../test/wire/anthropic-messages/fixtures/native-stream';
import messagesToolCall from '../../../test/wire/anthropic-messages/fixtures/response-tool-call.json';
import {
  nativeStreamWithUsage as chatStream,
  nativeStreamWithoutUsage as chatStreamCrlf,
} from '../../../test/wire/openai-chat/fixtures/native-stream';
import chatToolCall from '../../../test/wire/openai-chat/fixtures/response-tool-call.json';
import { nativeStream as responsesStream } from '../../../test/wire/openai-responses/fixtures/native-stream';
import responsesToolCall from '../../../test/wire/openai-responses/fixtures/response-tool-call.json';
import type { WireFormatName } from '../../canonical/ports';
import { answerFactsIn } from './answer-facts';

const finishReasonsIn = (format: WireFormatName, body: string, stream: boolean) =>
  answerFactsIn(format, body, stream).finishReasons;

describe('finishReasonsIn: why the model stopped, as the client’s answer says', () => {
  it('reads each format’s whole answer', () => {
    expect(finishReasonsIn('openai-chat', JSON.stringify(chatToolCall), false)).toEqual(['tool_calls']);
    expect(finishReasonsIn('anthropic-messages', JSON.stringify(messagesToolCall), false)).toEqual([
      'tool_use',
    ]);
    // The Response's own status, not its output items'.
    expect(finishReasonsIn('openai-responses', JSON.stringify(responsesToolCall), false)).toEqual([
      'completed',
    ]);
  });

  it('reads each format’s stream, skipping the nulls of the events before the end', () => {
    expect(finishReasonsIn('openai-chat', chatStream, true)).toEqual(['stop']);
    expect(finishReasonsIn('openai-chat', chatStreamCrlf, true)).toEqual(['stop']);
    expect(finishReasonsIn('anthropic-messages', messagesStream, true)).toEqual(['end_turn']);
    expect(finishReasonsIn('openai-responses', responsesStream, true)).toEqual(['completed']);
  });

  it('names an incomplete Response’s reason beside its status', () => {
    const event = {
      type: 'response.incomplete',
      response: {
        object: 'response',
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
      },
    };
    expect(
      finishReasonsIn(
        'openai-responses',
        `event: response.incomplete\ndata: ${JSON.stringify(event)}\n\n`,
        true,
      ),
    ).toEqual(['incomplete', 'max_output_tokens']);
  });

  it('gives one reason per distinct value across choices, and none for a stream cut before its end', () => {
    const choices = {
      choices: [{ finish_reason: 'length' }, { finish_reason: 'stop' }, { finish_reason: 'stop' }],
    };
    expect(finishReasonsIn('openai-chat', JSON.stringify(choices), false)).toEqual(['length', 'stop']);
    const cut = chatStream.slice(0, chatStream.indexOf('"finish_reason":"stop"'));
    expect(finishReasonsIn('openai-chat', cut, true)).toEqual([]);
    expect(finishReasonsIn('anthropic-messages', 'not json', false)).toEqual([]);
  });

  it('finds the answer’s id where each format puts it', () => {
    expect(answerFactsIn('openai-chat', chatStream, true).id).toBe('chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG');
    expect(answerFactsIn('anthropic-messages', messagesStream, true).id).toBe('msg_01ABC');
    expect(answerFactsIn('openai-responses', responsesStream, true).id).toBe('resp_1');
    expect(answerFactsIn('openai-chat', JSON.stringify(chatToolCall), false).id).toBe(chatToolCall.id);
    expect(answerFactsIn('anthropic-messages', JSON.stringify(messagesToolCall), false).id).toBe(
      messagesToolCall.id,
    );
  });
});
