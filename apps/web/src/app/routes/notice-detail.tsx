export { NoticeDetailPage as Component } from "../../features/notices/components/notices.tsx";
