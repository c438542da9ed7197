import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev -w @sluice/console-ui` serves the UI with hot reload and forwards /api to a
// running console (SLUICE_CONSOLE_URL, default the `npm start` port).
const consoleUrl = process.env.SLUICE_CONSOLE_URL ?? 'http://127.0.0.1:3001';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': consoleUrl } },
});
