import { SidePage } from "../../features/side/components/side-page.tsx";

export function Component() {
  return <SidePage />;
}
