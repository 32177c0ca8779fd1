import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { pwaPlugin } from "./pwa/plugin.ts";

export default defineConfig({
  plugins: [react(), pwaPlugin()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: { proxy: { "/api": { target: "http://127.0.0.1:8080", ws: true } } },
});
