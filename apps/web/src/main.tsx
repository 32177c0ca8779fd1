import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import "./lib/antd-react19.ts";
import "./lib/i18n.ts";
import { registerServiceWorker } from "./lib/pwa.ts";
import { initTheme } from "./lib/theme.ts";
import "./styles.css";

initTheme();
registerServiceWorker();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
