export { TransparencyPage as Component } from "../../features/proof/components/transparency-page.tsx";
