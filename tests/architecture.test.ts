// The architecture docs/design.md draws holds: no import cycles (type-only imports included), every
// src/ layer imports only the layers below it, only the Pi adapter imports Pi, and nothing in src/
// imports bench/ or tests/ (scripts/check-architecture.mjs, also run by `npm run check`).

import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without declarations
import { checkArchitecture, LAYERS } from "../scripts/check-architecture.mjs";

describe("the architecture", () => {
	it("has no import cycles and no import against the layer order", () => {
		expect(checkArchitecture()).toEqual([]);
	});

	it("keeps the runtime and every pure layer free of Pi", () => {
		for (const layer of ["runtime", "policy", "projection", "state", "lattice", "transcript", "simulate"])
			expect(Object.keys(LAYERS)).toContain(layer);
		expect(checkArchitecture(["src"]).filter((p: string) => p.includes("only src/pi may import Pi"))).toEqual([]);
	});
});
