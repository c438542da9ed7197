import type { WarmCaches } from '@sluice/shared/gateway';
import type { Logger } from '@sluice/shared/logs/server';
import type { MetricsStore } from '@sluice/shared/metrics';
import { droppedSpanSamples } from '@sluice/shared/metrics';
import { createSecretBox, type SecretBox } from '@sluice/shared/secrets';
import type { Tracer } from '@sluice/shared/telemetry';
import {
  switchableTracer,
  tracerFor,
  tracingConfigFrom,
  tracingConfigFromSettings,
} from '@sluice/shared/telemetry';
import type { Background } from '@sluice/shared/util';

/** The resource the gateway's spans name (OTEL_SERVICE_NAME overrides the name). */
const GATEWAY_SERVICE = { serviceName: 'sluice-gateway', serviceVersion: '0.1.0' };
/** How often the settings are looked at again for a changed tracing config. */
const SETTINGS_CHECK_MS = 5_000;

export interface GatewayTracing {
  tracer: Tracer;
  /** Whether spans carry the messages (SLUICE_OTEL_CAPTURE_CONTENT, otel_capture_content). */
  captureContent(): boolean;
  /**
   * Settings mode only: looks at the tracing settings again (at most every few seconds, in the
   * background: no request waits for it).
   */
  refresh?(background: () => Background): void;
}

interface TracingInputs {
  env: Record<string, unknown>;
  encryptionKey: string;
  warm: Pick<WarmCaches, 'settings' | 'board'>;
  metrics: MetricsStore;
  logger: Logger;
}

/**
 * Traces as the OTEL_* variables say; without them (an edge deployment, where the console is
 * the place to set things), as the console's otel_* settings say, picked up within seconds.
 */
export function buildTracing({ env, encryptionKey, warm, metrics, logger }: TracingInputs): GatewayTracing {
  const deps = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
    onDropped: (count: number, reason: string) => void metrics.record(droppedSpanSamples(reason, count)),
  };
  const fromEnv = tracingConfigFrom(env, GATEWAY_SERVICE);
  if (fromEnv !== null) {
    const tracer = tracerFor(fromEnv, deps);
    return { tracer, captureContent: () => fromEnv.captureContent };
  }
  const switchable = switchableTracer((config) => tracerFor(config, deps));
  let capture = false;
  let checkedAt = 0;
  // The settings read below are the isolate's cached ones, new only once it saw their version
  // move: then look on the next request rather than up to SETTINGS_CHECK_MS later.
  warm.board.part('settings').onChange(() => {
    checkedAt = 0;
  });
  let box: Promise<SecretBox> | undefined;
  const read = async (background: Background) => {
    const values = await warm.settings(background);
    const sealed = values.otel_exporter_otlp_headers;
    box ??= createSecretBox(encryptionKey);
    const headers = sealed ? await (await box).decrypt(sealed) : '';
    const config = tracingConfigFromSettings(
      {
        endpoint: values.otel_exporter_otlp_endpoint,
        protocol: values.otel_exporter_otlp_protocol,
        headers,
        samplerRatio: values.otel_traces_sampler_ratio,
        captureContent: values.otel_capture_content,
      },
      GATEWAY_SERVICE,
    );
    capture = config?.captureContent === true;
    if (switchable.use(config)) {
      logger.info(config ? 'trace export configured from settings' : 'trace export off', {
        url: config?.url ?? null,
      });
    }
  };
  return {
    tracer: switchable.tracer,
    captureContent: () => capture,
    refresh(backgroundOf) {
      const now = Date.now();
      if (now - checkedAt < SETTINGS_CHECK_MS) return;
      checkedAt = now;
      const background = backgroundOf();
      background(
        read(background).catch((error: unknown) =>
          logger.warn('tracing settings unreadable', { error: String(error) }),
        ),
      );
    },
  };
}
