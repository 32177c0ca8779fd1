export { SupportPage as Component } from "../../features/support/components/support-page.tsx";
