/**
 * The child process of dev/bench/machine-check.ts, run on the stack's CPU with nothing else
 * there: the cost of a system call (getuid, no work in the kernel), of a fixed piece of
 * JavaScript back to back, and of the same piece after an idle gap. Prints one MACHINE line.
 *
 * Usage: node --import tsx machine-check-task.ts <gap ms> <samples>
 */
import { readFileSync } from 'node:fs';
import { median } from './median';
import { PAYLOADS } from './payloads';

const BODY = readFileSync(PAYLOADS.json, 'utf8');

/** Some 20–50 µs of parsing, allocating and hashing; the result keeps it from being optimised away. */
function fixedTask(body: string): number {
  let sum = 0;
  for (let round = 0; round < 12; round++) {
    const parsed = JSON.parse(body) as { messages: { role: string; content: string }[]; max_tokens: number };
    parsed.max_tokens += round;
    const text = JSON.stringify(parsed);
    const roles = new Map<string, number>();
    for (const message of parsed.messages) roles.set(message.role, message.content.length);
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
    sum += roles.size + hash;
  }
  return sum;
}

function microseconds(work: () => unknown): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1000;
}

/** ns per getuid(): process.getuid() is a real system call each time (glibc does not cache it). */
function syscallNs(): number {
  const calls = 20_000;
  const getuid = process.getuid ?? (() => 0);
  return median(
    Array.from(
      { length: 5 },
      () =>
        (microseconds(() => {
          for (let i = 0; i < calls; i++) getuid();
        }) *
          1000) /
        calls,
    ),
  );
}

function afterGaps(samples: number, gapMs: number): Promise<number[]> {
  const times: number[] = [];
  return new Promise((resolve) => {
    const step = () => {
      times.push(microseconds(() => fixedTask(BODY)));
      if (times.length < samples) setTimeout(step, gapMs);
      else resolve(times);
    };
    setTimeout(step, gapMs);
  });
}

async function main(): Promise<void> {
  const gapMs = Number(process.argv[2] ?? 5);
  const samples = Number(process.argv[3] ?? 300);
  for (let i = 0; i < 2000; i++) fixedTask(BODY); // past V8's tiers
  const syscall = syscallNs();
  const backToBack = median(Array.from({ length: samples }, () => microseconds(() => fixedTask(BODY))));
  const gapped = median(await afterGaps(samples, gapMs));
  console.log(
    `MACHINE syscall_ns=${syscall.toFixed(0)} task_us=${backToBack.toFixed(1)} ` +
      `task_after_gap_us=${gapped.toFixed(1)} gap_ms=${gapMs}`,
  );
}

await main();
