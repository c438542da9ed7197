import type { KeepAlive } from '../stores/coalescer';
import { type ExportBatch, encodeTracesJson, encodeTracesProtobuf } from './otlp-traces';
import type { SpanData } from './span';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface ExporterOptions {
  /** The full traces URL (…/v1/traces). */
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  compression: 'gzip' | 'none';
  /** Longest one export may take before it is given up (OTEL_EXPORTER_OTLP_TIMEOUT). */
  timeoutMs: number;
  /** How long ended spans wait to be sent with others (OTEL_BSP_SCHEDULE_DELAY). */
  delayMs: number;
  /** Spans held at most; more are dropped (OTEL_BSP_MAX_QUEUE_SIZE). */
  maxQueue: number;
  /** Spans per export at most (OTEL_BSP_MAX_EXPORT_BATCH_SIZE). */
  maxBatch: number;
  resource: ExportBatch['resource'];
  scope: ExportBatch['scope'];
  fetch: typeof fetch;
  /** Told of spans given up: the queue was full, or the collector failed or took too long. */
  onDropped(count: number, reason: 'queue_full' | 'export_failed'): void;
}

export interface SpanExporter {
  /** Queues an ended span; the send it may start is handed to `keepAlive` (waitUntil). */
  add(span: SpanData, keepAlive?: KeepAlive): void;
  /** Sends what is queued now (tests, shutdown). */
  flush(): Promise<void>;
}

/** Exports in a row one run sends at most before it leaves the rest to the next span's run. */
const MAX_ROUNDS = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A batch span processor over OTLP/HTTP. Nothing here is on a request's path: a span's end
 * only queues it, and the export runs in the background of the request that found no run
 * scheduled (workerd: its waitUntil, so the I/O is that request's own). A collector that is
 * down or slow costs at most `timeoutMs` per export in the background; spans beyond the queue
 * are dropped and counted, never waited for.
 */
export function createSpanExporter(options: ExporterOptions): SpanExporter {
  let queue: SpanData[] = [];
  /** When the current run was scheduled; a run a runtime cancelled (waitUntil's limit) goes stale. */
  let runSince = 0;
  const staleAfterMs = options.delayMs + MAX_ROUNDS * options.timeoutMs + 5_000;

  const send = async (spans: SpanData[]): Promise<void> => {
    const batch: ExportBatch = { resource: options.resource, scope: options.scope, spans };
    const json = options.protocol === 'http/json';
    let body: BodyInit = json
      ? encodeTracesJson(batch)
      : (encodeTracesProtobuf(batch) as Uint8Array<ArrayBuffer>);
    const headers: Record<string, string> = {
      ...options.headers,
      'content-type': json ? 'application/json' : 'application/x-protobuf',
    };
    if (options.compression === 'gzip') {
      body = await new Response(
        new Response(body).body?.pipeThrough(new CompressionStream('gzip')),
      ).arrayBuffer();
      headers['content-encoding'] = 'gzip';
    }
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Given up at the timeout even where a fetch does not heed its signal.
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new Error('export timed out'));
        reject(new Error('export timed out'));
      }, options.timeoutMs);
    });
    try {
      const sent = options.fetch(options.url, { method: 'POST', headers, body, signal: controller.signal });
      const response = await Promise.race([sent, timedOut]);
      await response.body?.cancel();
      if (!response.ok) options.onDropped(spans.length, 'export_failed');
    } catch {
      options.onDropped(spans.length, 'export_failed');
    } finally {
      clearTimeout(timer);
    }
  };

  const drain = async (rounds: number): Promise<void> => {
    for (let round = 0; round < rounds && queue.length > 0; round++) {
      const spans = queue.length <= options.maxBatch ? queue : queue.slice(0, options.maxBatch);
      queue = queue.length <= options.maxBatch ? [] : queue.slice(options.maxBatch);
      await send(spans);
    }
  };

  const run = async (): Promise<void> => {
    try {
      if (queue.length < options.maxBatch) await sleep(options.delayMs);
      await drain(MAX_ROUNDS);
    } finally {
      runSince = 0;
    }
  };

  return {
    add(span, keepAlive) {
      if (queue.length >= options.maxQueue) {
        options.onDropped(1, 'queue_full');
        return;
      }
      queue.push(span);
      const now = Date.now();
      if (runSince !== 0 && now - runSince < staleAfterMs) return;
      runSince = now;
      const running = run();
      if (keepAlive) keepAlive(running);
      else void running;
    },
    flush: () => drain(Number.POSITIVE_INFINITY),
  };
}
