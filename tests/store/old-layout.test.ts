// Old sessions keep working: a session whose fold was written by an earlier pi-fold (its whole
// source one concatenated blob, the record naming that blob's SHA-256), resumed with this version,
// peeks, searches and expands that fold (verified against the old digest), and its new folds are
// manifests beside it in the same store. Real in-process Pi sessions on the faux provider.

import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { foldSource } from "../../src/lattice/index.ts";
import { FoldStore } from "../../src/store/index.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, say, toolTexts } from "../pi/harness.ts";

afterAll(cleanupTempDirs);

/** The fold store as an earlier pi-fold wrote it: one blob of the concatenated source per fold. */
class OldLayoutStore extends FoldStore {
	override putFold(_id: string, leaves: readonly { id: string; data: Uint8Array }[]) {
		return this.put(leaves.map((l) => Buffer.from(l.data).toString("utf8")).join(""));
	}
}

describe("a session folded by an earlier pi-fold", () => {
	it("peeks, searches and expands its old-form fold after a resume, and folds anew as manifests", async () => {
		const h1 = await createHarness({ persistent: true, extras: { storeFactory: (dir) => new OldLayoutStore(dir) } });
		h1.script([
			...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes returned filler." }),
			say("folded"),
		]);
		await h1.run("go");
		const old = [...h1.runtime.snapshot(h1.host()).state.folds.values()][0];
		if (!old) throw new Error("no fold");
		const branch = h1.runtime.snapshot(h1.host()).view;
		const leaves = old.leafIds.map((id) => branch.transcript.find((e) => e.id === id));
		expect(old.sourceSha256).toBe(
			createHash("sha256")
				.update(foldSource(leaves as never))
				.digest("hex"),
		);
		const dir = `${h1.sessionDir}/pi-fold-store`;
		expect(new FoldStore(dir).isManifest(old.sourceSha256)).toBe(false);

		const h2 = await createHarness({ openFile: h1.sessionFile() as string, sessionDir: h1.sessionDir });
		h2.script([
			callTool({ action: "peek", id: old.id }, { action: "search", pattern: "probe a", fold: old.id }),
			...["h", "i", "j", "k", "l", "m", "n", "o"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_h", to: "call_i", brief: "Probes h and i returned filler too." }),
			callTool({ action: "expand", id: old.id }),
			say("done"),
		]);
		await h2.run("again");
		const texts = toolTexts(h2);
		const peek = texts.find((t) => t.startsWith(`[peek ${old.id}`)) as string;
		expect(peek).toContain(`sha256 ${old.sourceSha256.slice(0, 16)}… verified · one JSON line`);
		expect(peek).toContain('"call_a"');
		const search = texts.find((t) => t.includes("probe a") && !t.startsWith("[peek")) as string;
		expect(search).toMatch(/· 1 match · .* read once each and verified \(sha256\)/);
		expect(search).not.toMatch(/failed verification/);
		expect(texts.some((t) => t.startsWith(`Expanding ${old.id}`))).toBe(true);
		const fresh = [...h2.runtime.snapshot(h2.host()).state.folds.values()].find((f) => f.id !== old.id);
		expect(fresh && new FoldStore(dir).isManifest(fresh.sourceSha256)).toBe(true);
	});
});
