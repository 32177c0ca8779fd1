import { unstableSetRender } from "antd-mobile";
import { createRoot, type Root } from "react-dom/client";

// antd-mobile 5 renders Toast and Dialog.confirm with the React 18 API, which React 19 removed;
// this is the adapter its guide gives for React 19 (mobile.ant.design/guide/v5-for-19).
unstableSetRender((node, container) => {
  const host = container as (Element | DocumentFragment) & { candorRoot?: Root };
  host.candorRoot ??= createRoot(host);
  const root = host.candorRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete host.candorRoot;
  };
});
