import type { CounterAddition, PreparedCounter } from './sliding-window';

/** Amounts to put back on counters, summed per counter, so each counter takes one addition. */
export function summedAdditions(): {
  add(counter: PreparedCounter, amount: number): void;
  list(): CounterAddition[];
} {
  const sums = new Map<string, CounterAddition>();
  return {
    add(counter, amount) {
      if (amount <= 0) return;
      const held = sums.get(counter.key);
      if (held) held.amount += amount;
      else {
        const { key, current, bucketsInWindow, expiryMs } = counter;
        sums.set(key, { key, current, bucketsInWindow, expiryMs, amount });
      }
    },
    list: () => [...sums.values()],
  };
}
