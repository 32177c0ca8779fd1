export { OptionOrdersPage as Component } from "../../features/seconds/components/option-orders-page.tsx";
