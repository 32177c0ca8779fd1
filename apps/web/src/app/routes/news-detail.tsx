export { NewsDetailPage as Component } from "../../features/news/components/news.tsx";
