// Makes docs/images/trace.png: one streamed chat through a fallback, sent by the official
// OpenAI SDK to `npm start` (embedded stores) with OTEL_EXPORTER_OTLP_ENDPOINT pointed at the
// test suite's OTLP receiver, drawn as a waterfall from the spans the receiver decoded.
// Run: npx tsx dev/docs/trace-screenshot.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startFakeUpstreams } from '../../tests/fakes/server';
import { launchBrowser } from '../../tests/helpers/browser';
import { registerFakeProvider } from '../../tests/helpers/fake-providers';
import { FIRST_ADMIN } from '../../tests/helpers/first-run';
import { http } from '../../tests/helpers/http';
import { type ReceivedSpan, startOtlpReceiver } from '../../tests/helpers/otlp-receiver';
import { adminApi } from '../../tests/helpers/stack-seed';
import { NPM_START, startStackProcess, stopStackGroup } from '../../tests/setup/e2e-global';

const OUT = join(import.meta.dirname, '..', '..', 'docs', 'images', 'trace.png');
const SHOWN = [
  'gen_ai.operation.name',
  'gen_ai.request.model',
  'gen_ai.response.model',
  'gen_ai.provider.name',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'gen_ai.response.time_to_first_chunk',
  'sluice.attempts',
  'sluice.fallback.reason',
  'sluice.cost.usd',
  'http.response.status_code',
];

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function waterfall(spans: ReceivedSpan[], rootId: string): string {
  const root = spans.find((s) => s.spanId === rootId)!;
  const start = root.startNs;
  const end = spans.reduce((latest, s) => (s.endNs > latest ? s.endNs : latest), root.endNs);
  const total = Number(end - start) || 1;
  const rows: string[] = [];
  const walk = (span: ReceivedSpan, depth: number) => {
    const left = (Number(span.startNs - start) / total) * 100;
    const width = Math.max(0.4, (Number(span.endNs - span.startNs) / total) * 100);
    const ms = (Number(span.endNs - span.startNs) / 1e6).toFixed(1);
    const attrs = SHOWN.filter((k) => span.attributes[k] !== undefined)
      .map((k) => `<span class="k">${k}</span>=${escapeHtml(String(span.attributes[k]))}`)
      .join(' ');
    const error = span.status.code === 'ERROR' ? ' error' : '';
    rows.push(`<div class="row"><div class="name" style="padding-left:${depth * 18}px">
      <b>${escapeHtml(span.name)}</b> <i>${span.kind.toLowerCase()}</i><div class="attrs">${attrs}</div></div>
      <div class="lane"><div class="bar${error}" style="left:${left}%;width:${width}%"></div><span class="ms" style="left:${left + width}%">${ms} ms</span></div></div>`);
    const children = spans
      .filter((s) => s.parentSpanId === span.spanId)
      .sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
    for (const child of children) walk(child, depth + 1);
  };
  walk(root, 0);
  return `<!doctype html><html><head><style>
    body { font: 13px system-ui, sans-serif; margin: 16px; color: #1b1f24; width: 1240px; }
    h1 { font-size: 15px; margin: 0 0 10px; } .row { display: flex; border-top: 1px solid #e4e7eb; padding: 6px 0; }
    .name { width: 560px; box-sizing: border-box; flex: none; } .attrs { color: #57606a; font-size: 11px; margin-top: 2px; } .k { color: #0550ae; }
    i { color: #8250df; font-size: 11px; } .lane { position: relative; flex: 1; height: 22px; margin-top: 2px; }
    .bar { position: absolute; height: 14px; top: 4px; background: #54aeff; border-radius: 2px; } .bar.error { background: #ff8182; }
    .ms { position: absolute; top: 3px; padding-left: 6px; font-size: 11px; color: #57606a; white-space: nowrap; }
  </style></head><body><h1>trace ${root.traceId} — ${escapeHtml(String(root.resource['service.name']))}, as an OTLP collector received it</h1>${rows.join('')}</body></html>`;
}

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-trace-shot-'));
const receiver = await startOtlpReceiver();
const fakes = await startFakeUpstreams();
const stack = await startStackProcess(
  { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', SLUICE_QUIET: '1' },
  dataDir,
  { ...NPM_START, detached: true },
);
try {
  const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
    body: { admin: FIRST_ADMIN },
  });
  const api = adminApi(stack.consoleUrl, init.body.access_token as string);
  const openai = await registerFakeProvider(api, fakes, 'openai', 'openai', 'OpenAI');
  await api('POST', '/api/admin/models', {
    name: 'house-model',
    input_price_per_mtok: 1,
    output_price_per_mtok: 2,
    routes: [
      { provider_id: openai, upstream_model: 'dead-fail-503' },
      { provider_id: openai, upstream_model: 'test-model' },
    ],
  });
  const key = (await api('POST', '/api/keys', { name: 'screenshot' })).body.key as string;
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const client = new OpenAI({ apiKey: key, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: 'house-model',
    stream: true,
    messages: [{ role: 'user', content: 'Where do the spans go?' }],
  });
  for await (const _chunk of stream) {
    // read to the end
  }
  const spans = await receiver.waitForSpans((all) => all.some((s) => s.name === 'sluice.log.write'));
  const root = spans.find((s) => s.kind === 'SERVER' && s.name === 'POST /v1/chat/completions')!;
  const trace = spans.filter((s) => s.traceId === root.traceId);
  console.log(receiver.tree(root.traceId));
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 400 } });
  await page.setContent(waterfall(trace, root.spanId));
  await page.screenshot({ path: OUT, fullPage: true });
  await browser.close();
  console.log(`wrote ${OUT}`);
} finally {
  await stopStackGroup(stack);
  await Promise.all([fakes.close(), receiver.close()]);
  rmSync(dataDir, { recursive: true, force: true });
}
