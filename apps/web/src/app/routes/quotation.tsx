export { QuotationPage as Component } from "../../features/markets/components/quotation-page.tsx";
