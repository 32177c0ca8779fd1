export { TickPage as Component } from "../../features/tape/components/tick-page.tsx";
