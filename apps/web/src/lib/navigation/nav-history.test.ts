import { describe, expect, it } from "vitest";
import {
  afterLoginAction,
  backAction,
  emptyHistory,
  isLoginFlowPath,
  recordNavigation,
  topLevelAction,
  type NavigationHistory,
} from "./nav-history.ts";

/** A history built by pushing the paths in order, showing the last. */
function pushed(...paths: string[]): NavigationHistory {
  return paths.reduce((history, path, index) => recordNavigation(history, index, path, "PUSH"), {
    ...emptyHistory,
  });
}

describe("recordNavigation", () => {
  it("drops forward entries on push and keeps them on pop", () => {
    const history = pushed("/", "/quotation", "/search");
    const popped = recordNavigation(history, 1, "/quotation", "POP");
    expect(popped).toEqual({ entries: ["/", "/quotation", "/search"], index: 1 });
    expect(recordNavigation(popped, 2, "/settings", "PUSH")).toEqual({
      entries: ["/", "/quotation", "/settings"],
      index: 2,
    });
  });

  it("marks unknown earlier entries, as after a reload that lost the record", () => {
    expect(recordNavigation(emptyHistory, 2, "/settings", "POP")).toEqual({
      entries: [null, null, "/settings"],
      index: 2,
    });
  });

  it("replaces the current entry", () => {
    const history = recordNavigation(pushed("/", "/login"), 1, "/settings", "REPLACE");
    expect(history.entries).toEqual(["/", "/settings"]);
  });
});

describe("after login", () => {
  it("returns to the last page outside the login flow", () => {
    const history = pushed("/", "/settings", "/login", "/register");
    expect(afterLoginAction(history)).toEqual({ kind: "go", delta: -2 });
  });

  it("goes home when there is no page before the login flow", () => {
    expect(afterLoginAction(pushed("/login"))).toEqual({ kind: "replace", path: "/" });
    expect(afterLoginAction(pushed("/login", "/register"))).toEqual({
      kind: "replace",
      path: "/",
    });
  });

  it("ignores query strings when telling login pages apart", () => {
    expect(isLoginFlowPath("/login?next=1")).toBe(true);
    expect(isLoginFlowPath("/settings")).toBe(false);
  });
});

describe("back", () => {
  it("from the login page goes to the previous page outside the login flow", () => {
    const history = pushed("/", "/quotation", "/register", "/login");
    expect(backAction(history)).toEqual({ kind: "go", delta: -2 });
  });

  it("from the login page with nothing before it goes home", () => {
    expect(backAction(pushed("/register", "/login"))).toEqual({ kind: "replace", path: "/" });
  });

  it("from an ordinary page goes to the previous page", () => {
    expect(backAction(pushed("/", "/quotation", "/search"))).toEqual({ kind: "go", delta: -1 });
    expect(backAction(pushed("/login", "/register"))).toEqual({ kind: "go", delta: -1 });
  });

  it("on the only page goes home", () => {
    expect(backAction(pushed("/settings"))).toEqual({ kind: "replace", path: "/" });
  });

  it("on home as the only page stays", () => {
    expect(backAction(pushed("/"))).toEqual({ kind: "none" });
  });

  it("when the previous page is unknown goes home", () => {
    const history = recordNavigation(emptyHistory, 3, "/search", "POP");
    expect(backAction(history)).toEqual({ kind: "replace", path: "/" });
  });
});

describe("top-level navigation", () => {
  it("returns to a page already in the history instead of stacking it", () => {
    const history = pushed("/", "/trade", "/quotation", "/search");
    expect(topLevelAction(history, "/")).toEqual({ kind: "go", delta: -3 });
    expect(topLevelAction(history, "/trade")).toEqual({ kind: "go", delta: -2 });
  });

  it("goes forward to a page ahead in the history", () => {
    const history = recordNavigation(pushed("/", "/assets"), 0, "/", "POP");
    expect(topLevelAction(history, "/assets")).toEqual({ kind: "go", delta: 1 });
  });

  it("pushes a page not yet in the history", () => {
    expect(topLevelAction(pushed("/"), "/vip")).toEqual({ kind: "push", path: "/vip" });
  });

  it("does nothing for the page already shown", () => {
    expect(topLevelAction(pushed("/", "/vip"), "/vip")).toEqual({ kind: "none" });
  });
});
