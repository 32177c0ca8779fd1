export { SavingsPage as Component } from "../../features/savings/components/savings-page.tsx";
