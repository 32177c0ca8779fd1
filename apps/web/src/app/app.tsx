import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createHashRouter, RouterProvider } from "react-router";
import { HomePage } from "./home-page.tsx";

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });

const router = createHashRouter([{ path: "/", element: <HomePage /> }]);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
