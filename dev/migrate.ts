// `npm run db:migrate`: applies the committed migrations to DATABASE_URL.
import { applyMigrations, ensureDatabase } from '../self-host/stores/migrations';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set. Example: postgres://postgres@127.0.0.1:5432/sluice');
  process.exit(2);
}
await ensureDatabase(url);
await applyMigrations(url);
console.log('migrations applied');
