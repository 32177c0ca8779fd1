export { ProofPage as Component } from "../../features/proof/components/proof-page.tsx";
