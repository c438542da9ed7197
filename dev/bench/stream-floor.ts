// `npm run bench:stream-floor`: what workerd itself costs per streamed chunk, without the
// gateway, so that the open-streams figures can be read against a floor. A bare Worker
// (floor/worker.js) passes a dripping upstream's body to the client in each of nine ways; for
// each, BENCH_STREAMS (3000) streams of BENCH_DRIP_SECONDS (40) one-second chunks are held open
// at once, and the table gives workerd's CPU per chunk and its memory per open stream.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workerdBinary } from '../../self-host/workerd/workerd-process';
import { startDripUpstream } from './drip-upstream';
import { readRssKb, readStat, ticksPerSecond } from './proc';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 3_000);
const SECONDS = Number(process.env.BENCH_DRIP_SECONDS ?? 40);
const ALL_WAYS = ['native', 'tee', 'js', 'js-byob', 'js-hwm', 'js-ready', 'pipe', 'pipe-tee', 'stage'];
// BENCH_WAYS=js,js-hwm measures only those.
const WAYS = process.env.BENCH_WAYS ? process.env.BENCH_WAYS.split(',') : ALL_WAYS;
const PORT = 18_799;

const CONFIG = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "internet", network = (allow = ["local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${PORT}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  globalOutbound = "internet",
);
`;

async function oneStream(way: string, upstreamUrl: string): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${PORT}/${way}`, {
    method: 'POST',
    headers: { 'x-upstream': `${upstreamUrl}/chat/completions` },
    body: JSON.stringify({ stream: true }),
  });
  const text = await response.text();
  return (text.match(/ token\d+/g)?.length ?? 0) === SECONDS;
}

/** A fresh workerd for each way, so that one's memory high-water mark is not the next one's. */
async function measure(way: string, upstreamUrl: string, directory: string) {
  const child = spawn(workerdBinary(), ['serve', join(directory, 'config.capnp')], { stdio: 'inherit' });
  const pid = child.pid as number;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (let tries = 0; ; tries++) {
      const ready = await fetch(`http://127.0.0.1:${PORT}/none`).catch(() => null);
      if (ready) break;
      if (tries > 100 || child.exitCode !== null) throw new Error('workerd did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cpu = () => (readStat(pid)?.cpuTicks ?? 0) / ticksPerSecond();
    const rssMb = () => readRssKb(pid) / 1024;
    const before = { cpu: cpu(), rss: rssMb() };
    let peak = before.rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb());
    }, 1_000);
    const streams: Promise<boolean>[] = [];
    for (let i = 0; i < STREAMS; i++) {
      streams.push(oneStream(way, upstreamUrl));
      if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const whole = (await Promise.all(streams)).filter(Boolean).length;
    clearInterval(sampler);
    const seconds = cpu() - before.cpu;
    const chunks = STREAMS * (SECONDS + 2);
    return {
      whole,
      usPerChunk: (seconds * 1e6) / chunks,
      kbPerStream: ((peak - before.rss) * 1024) / STREAMS,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const upstream = await startDripUpstream(SECONDS);
const directory = mkdtempSync(join(tmpdir(), 'sluice-stream-floor-'));
try {
  writeFileSync(join(directory, 'config.capnp'), CONFIG);
  copyFileSync(join(import.meta.dirname, 'floor', 'worker.js'), join(directory, 'worker.js'));
  console.log(
    `${STREAMS} streams of ${SECONDS} one-second chunks through a bare Worker, one way at a time\n`,
  );
  console.log('| way | served whole | workerd CPU per chunk | memory per open stream |');
  console.log('|---|---:|---:|---:|');
  for (const way of WAYS) {
    const m = await measure(way, upstream.url, directory);
    console.log(`| ${way} | ${m.whole} | ${m.usPerChunk.toFixed(0)} µs | ${m.kbPerStream.toFixed(0)} KB |`);
  }
} finally {
  await upstream.close();
  rmSync(directory, { recursive: true, force: true });
}
