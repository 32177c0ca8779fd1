export { NoticesPage as Component } from "../../features/notices/components/notices.tsx";
