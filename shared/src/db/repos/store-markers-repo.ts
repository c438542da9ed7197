import { eq, sql } from 'drizzle-orm';
import { storeMarkers } from '../schema';
import type { QueryDb } from '../types';

/** One named value in store_markers: read, and written (insert or replace). */
export interface StoreMarker {
  read(): Promise<string | null>;
  write(value: string): Promise<void>;
}

export function storeMarker(db: QueryDb, name: string): StoreMarker {
  return {
    async read() {
      const [row] = await db
        .select({ value: storeMarkers.value })
        .from(storeMarkers)
        .where(eq(storeMarkers.name, name));
      return row?.value ?? null;
    },
    async write(value) {
      await db
        .insert(storeMarkers)
        .values({ name, value })
        .onConflictDoUpdate({ target: storeMarkers.name, set: { value, updatedAt: sql`now()` } });
    },
  };
}
