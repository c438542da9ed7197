import type { Background } from '../util/background';
import type { TracingConfig } from './config';
import { type ExportBatch, encodeTracesJson, encodeTracesProtobuf } from './otlp-traces';
import type { SpanData } from './span';

/** How spans are sent: the export settings of TracingConfig (config.ts), and the ports. */
export interface ExporterOptions
  extends Pick<
    TracingConfig,
    | 'url'
    | 'protocol'
    | 'headers'
    | 'compression'
    | 'timeoutMs'
    | 'delayMs'
    | 'maxQueue'
    | 'maxBatch'
    | 'resource'
  > {
  scope: ExportBatch['scope'];
  fetch: typeof fetch;
  /** Told of spans given up: the queue was full, or the collector failed or took too long. */
  onDropped(count: number, reason: 'queue_full' | 'export_failed'): void;
}

export interface SpanExporter {
  /** Queues an ended span (dropped and counted when the queue is full). Sends nothing. */
  add(span: SpanData): void;
  /**
   * Starts sending what is queued, unless a send is under way, in the background `keepAlive`
   * keeps alive (workerd: the waitUntil of a request that is still running: its I/O must be
   * that request's own, and a timer set from a request that has ended may never fire).
   */
  schedule(keepAlive?: Background): void;
  /** Sends what is queued now (tests, shutdown). */
  flush(): Promise<void>;
}

/** Exports in a row one run sends at most before it leaves the rest to the next span's run. */
const MAX_ROUNDS = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A batch span processor over OTLP/HTTP. Nothing here is on a request's path: a span's end
 * only queues it, and the export runs in the background of a running request (the tracer
 * schedules from a request's root span, at its start and its end). A collector that is down
 * or slow costs at most `timeoutMs` per export in the background; spans beyond the queue are
 * dropped and counted, never waited for.
 */
export function createSpanExporter(options: ExporterOptions): SpanExporter {
  let queue: SpanData[] = [];
  /**
   * When the current run last moved (started, woke, finished a send); 0: none runs. A run the
   * runtime cut off (waitUntil's limit) stops moving and is taken for gone.
   */
  let runBeat = 0;
  const goneAfterMs = Math.max(options.delayMs, options.timeoutMs) + 2_000;

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
      if (runBeat !== 0) runBeat = Date.now();
    }
  };

  const run = async (): Promise<void> => {
    try {
      if (queue.length < options.maxBatch) await sleep(options.delayMs);
      runBeat = Date.now();
      await drain(MAX_ROUNDS);
    } finally {
      runBeat = 0;
    }
  };

  return {
    add(span) {
      if (queue.length >= options.maxQueue) {
        options.onDropped(1, 'queue_full');
        return;
      }
      queue.push(span);
    },
    schedule(keepAlive) {
      if (queue.length === 0) return;
      const now = Date.now();
      if (runBeat !== 0 && now - runBeat < goneAfterMs) return;
      if (!keepAlive) {
        runBeat = now;
        void run();
        return;
      }
      // A request that has ended refuses more background work (workerd throws): its timers
      // would never fire. The run then waits for a span of a running request.
      let begin: () => void = () => {};
      const begun = new Promise<void>((resolve) => {
        begin = resolve;
      });
      try {
        keepAlive(begun.then(run));
      } catch {
        return;
      }
      runBeat = now;
      begin();
    },
    flush: () => drain(Number.POSITIVE_INFINITY),
  };
}
