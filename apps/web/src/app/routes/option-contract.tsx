export { ContractPage as Component } from "../../features/seconds/components/contract-page.tsx";
