import { ChooseLocationPage } from "../../features/security/components/choose-location-page.tsx";

/** The spec's system page `/choose-location`: pick the country of residence. */
export function Component() {
  return <ChooseLocationPage />;
}
