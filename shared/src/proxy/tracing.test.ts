import { describe, expect, it } from 'vitest';
import { ADMITTED, chatBody, clientCall, fakeDeps } from '../../test/proxy/test-deps';
import { redactPolicyOf, redactSettingSchema } from '../guardrails/redact-policy';
import { createSampler } from '../telemetry/sampler';
import type { SpanData } from '../telemetry/span';
import { createTracer, PASSTHROUGH_TRACER } from '../telemetry/tracer';
import { handleModelRequest } from './handle-model-request';

const CLIENT_PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** A tracer whose spans land in a list (the exporter's port), sampling everything. */
function recordingTracer() {
  const spans: SpanData[] = [];
  const tracer = createTracer(
    { add: (span) => void spans.push(span), schedule: () => {}, flush: async () => {} },
    createSampler('always_on', undefined),
  );
  return { tracer, spans };
}

describe('the trace context of a model request', () => {
  it('goes upstream as the client sent it when tracing is off', async () => {
    const { deps, fetched } = fakeDeps();
    const { call, settled } = clientCall(chatBody('hello'));
    call.span = PASSTHROUGH_TRACER.start('POST', 'server', {
      headers: new Headers({ traceparent: CLIENT_PARENT, tracestate: 'k=v' }),
    });
    expect((await handleModelRequest(call, deps)).status).toBe(200);
    await settled();
    expect(fetched[0]?.headers).toMatchObject({ traceparent: CLIENT_PARENT, tracestate: 'k=v' });
  });

  it('adds nothing when tracing is off and the client sent none', async () => {
    const { deps, fetched } = fakeDeps();
    const { call } = clientCall(chatBody('hello'));
    call.span = PASSTHROUGH_TRACER.start('POST', 'server', { headers: new Headers() });
    await handleModelRequest(call, deps);
    expect(fetched[0]?.headers.traceparent).toBeUndefined();
  });

  it('names the attempt span as the upstream call’s parent when traced', async () => {
    const { deps, fetched } = fakeDeps({ decision: { ...ADMITTED, teams: ['platform'] } });
    const { tracer, spans } = recordingTracer();
    const { call, settled } = clientCall(chatBody('hello'));
    const root = tracer.start('POST /v1/chat/completions', 'server', {
      headers: new Headers({ traceparent: CLIENT_PARENT }),
    });
    call.span = root;
    await handleModelRequest(call, deps);
    await settled();
    root.end();
    const attempt = spans.find((s) => s.kind === 'client');
    expect(attempt?.name).toBe('chat gpt-4o-mini');
    expect(fetched[0]?.headers.traceparent).toBe(`00-4bf92f3577b34da6a3ce929d0e0e4736-${attempt?.spanId}-01`);
    const server = spans.find((s) => s.kind === 'server');
    expect(server?.parentSpanId).toBe('00f067aa0ba902b7');
    expect(server?.attributes['gen_ai.input.messages']).toBeUndefined();
    expect(server?.attributes['gen_ai.output.messages']).toBeUndefined();
    expect(server?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(server?.attributes['sluice.teams']).toEqual(['platform']);
    expect(attempt?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
  });

  it('reads why a stream stopped from what the client got, passed through or translated', async () => {
    const sse = [
      'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}',
      'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}',
      'data: [DONE]',
      '',
    ].join('\n\n');
    const upstream = () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
    for (const format of ['openai-chat', 'anthropic-messages'] as const) {
      const { deps } = fakeDeps({ upstream });
      const { tracer, spans } = recordingTracer();
      const body = { ...chatBody('hello'), stream: true, max_tokens: 20 };
      const { call, settled } = clientCall(body);
      if (format === 'anthropic-messages') {
        call.format = format;
        call.endpoint = '/v1/messages';
      }
      call.span = tracer.start('POST', 'server');
      await (await handleModelRequest(call, deps)).text();
      await settled();
      call.span.end();
      const server = spans.find((s) => s.kind === 'server');
      // Chat Completions' reason as it came; Messages' as the translation names it.
      const expected = format === 'openai-chat' ? ['length'] : ['max_tokens'];
      expect(server?.attributes['gen_ai.response.finish_reasons']).toEqual(expected);
    }
  });

  it('carries the messages only when an admin opted in, redacted as the logs are', async () => {
    const redaction = redactPolicyOf(
      redactSettingSchema.parse({
        detectors: ['email'],
        patterns: [{ name: 'codename', regex: '(?i)project\\s+\\w+', apply_to: ['response'] }],
      }),
    );
    const { deps, fetched } = fakeDeps({ settings: { redaction } });
    deps.traceContent = () => true;
    const { tracer, spans } = recordingTracer();
    const { call, settled } = clientCall(chatBody('mail a@b.io about project falcon'));
    const root = tracer.start('POST /v1/chat/completions', 'server');
    call.span = root;
    await handleModelRequest(call, deps);
    await settled();
    root.end();
    const captured = String(spans.find((s) => s.kind === 'server')?.attributes['gen_ai.input.messages']);
    expect(captured).toContain('mail [REDACTED:email] about [REDACTED:codename]');
    expect(captured).not.toContain('a@b.io');
    const answer = spans.find((s) => s.kind === 'server')?.attributes['gen_ai.output.messages'];
    expect(JSON.parse(String(answer)).choices[0].message.content).toBe('Hi!');
    // The upstream got the request as the request rules say (the codename is for answers and logs).
    expect(JSON.stringify(fetched[0]?.body)).toContain('project falcon');
  });
});
