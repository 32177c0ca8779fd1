import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ApiError } from "../lib/api-client.ts";
import { AppRoutes } from "./router.tsx";

/** One retry for network and server errors; a 4xx answer will not change by asking again. */
const retry = (failures: number, error: Error) =>
  failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry, refetchOnWindowFocus: false } },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
    </QueryClientProvider>
  );
}
