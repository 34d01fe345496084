// The 512 MiB excerpt cap counts shared bytes once: two result folds whose source is the same blob
// (the same entry, stored once) count its bytes once; different sources add up.

import { describe, expect, it } from "vitest";
import type { FoldRecord } from "../../../src/lattice/index.ts";
import { excerptBytes } from "../../../src/policy/excerpt-plan.ts";

function result(id: string, sha: string, bytes: number): [string, FoldRecord] {
	return [id, { id, kind: "result", sourceSha256: sha, sourceBytes: bytes } as unknown as FoldRecord];
}

describe("the excerpt cap's count", () => {
	it("counts a source several result folds share once, and other kinds not at all", () => {
		const a = "a".repeat(64);
		const b = "b".repeat(64);
		const known = new Map([
			result("f1", a, 1000),
			result("f2", a, 1000),
			result("f3", b, 300),
			["f4", { id: "f4", kind: "span", sourceSha256: "c".repeat(64), sourceBytes: 5000 } as unknown as FoldRecord],
		]);
		expect(excerptBytes({ known } as never)).toBe(1300);
	});
});
