export { SearchPage as Component } from "../../features/markets/components/search-page.tsx";
