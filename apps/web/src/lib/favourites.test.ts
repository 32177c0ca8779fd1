import { describe, expect, it } from "vitest";
import { favouritesMax, getFavourites, toggleFavourite } from "./favourites.ts";

describe("favourites", () => {
  it("stars and unstars, most recent first, and keeps at most the limit", () => {
    expect(getFavourites()).toEqual([]);
    toggleFavourite("BTCUSDT");
    toggleFavourite("XAUUSD");
    expect(getFavourites()).toEqual(["XAUUSD", "BTCUSDT"]);
    toggleFavourite("BTCUSDT");
    expect(getFavourites()).toEqual(["XAUUSD"]);
    for (let i = 0; i < favouritesMax + 5; i++) toggleFavourite(`ID${i}`);
    expect(getFavourites()).toHaveLength(favouritesMax);
    expect(getFavourites()[0]).toBe(`ID${favouritesMax + 4}`);
  });
});
