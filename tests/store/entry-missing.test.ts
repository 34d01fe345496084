// A manifest fold whose entry blob is gone (gc with no retention beside a session that lost its
// file, or a store copied in part) is never stranded: peek and expand fall back to the session's own
// entries, verified against the fold's recorded manifest digest, as when the whole blob is gone; an
// entry blob that is there but altered is refused naming its path from the fold. Real in-process Pi
// sessions on the faux provider.

import { readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { FoldStore } from "../../src/store/index.ts";
import { blobPath, decodeManifest } from "../../src/verify/index.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, type Harness, say, toolTexts } from "../pi/harness.ts";
import { flipAt } from "./helpers.ts";

afterAll(cleanupTempDirs);

async function folded(): Promise<{ h: Harness; id: string; dir: string; leaf: string }> {
	const h = await createHarness();
	h.script([
		...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes returned filler." }),
		say("folded"),
	]);
	await h.run("go");
	const fold = [...h.runtime.snapshot(h.host()).state.folds.values()][0];
	if (!fold) throw new Error("no fold");
	const dir = (h.runtime.store(h.host()) as unknown as FoldStore).dir;
	expect(new FoldStore(dir).isManifest(fold.sourceSha256)).toBe(true);
	const root = decodeManifest(readFileSync(blobPath(dir, fold.sourceSha256), "utf8"));
	const first = root.children[0];
	// Find the first entry blob (under inner nodes if the root has any).
	let leaf = first?.kind === "leaf" ? first.sha256 : "";
	if (!leaf && first)
		leaf = decodeManifest(readFileSync(blobPath(dir, first.sha256), "utf8")).children[0]?.sha256 ?? "";
	return { h, id: fold.id, dir, leaf };
}

describe("a manifest fold missing an entry blob", () => {
	it("peeks and expands from the session's entries, verified against the manifest digest", async () => {
		const { h, id, dir, leaf } = await folded();
		rmSync(blobPath(dir, leaf));
		h.script([callTool({ action: "peek", id }, { action: "expand", id }), say("done")]);
		await h.run("again");
		const [peek, expand] = toolTexts(h).slice(-2);
		expect(peek).toContain("verified (rebuilt from the session's entries: the fold store has no copy)");
		expect(expand).toMatch(new RegExp(`^Expanding ${id} \\(\\d+ entries, source verified from the session's entries`));
	});

	it("refuses an altered entry blob by its path from the fold, and expands nothing", async () => {
		const { h, id, dir, leaf } = await folded();
		flipAt(blobPath(dir, leaf), 20);
		h.script([callTool({ action: "peek", id }, { action: "expand", id }), say("done")]);
		await h.run("again");
		const [peek, expand] = toolTexts(h).slice(-2);
		for (const text of [peek, expand])
			expect(text).toMatch(
				new RegExp(`fold ${id} › (node \\d+ › )*entry [0-9a-f]+: stored source failed verification`),
			);
		expect(h.runtime.snapshot(h.host()).state.expanded.size).toBe(0);
	});
});
