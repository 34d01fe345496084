// What the provider actually receives while pi-fold works: the observer's per-message digests agree
// with an independent byte comparison of every request; between commits the prefix cache reads the
// whole previous prompt; folding a batch of parallel calls keeps every call paired with its result;
// a tampered store blob is refused and nothing unverified reaches the window; peek pages through a
// large fold contiguously without touching the window.

import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	conversation,
	createHarness,
	type Harness,
	pairingProblems,
	type RecordedRequest,
	relation,
	requestRelation,
	say,
	tamperBlob,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

function foldIds(h: Harness): string[] {
	return [...h.runtime.snapshot(h.host()).state.folds.keys()];
}

function prompt(request: RecordedRequest): number {
	const u = request.usage;
	if (!u) throw new Error("request has no usage");
	return u.input + u.cacheRead + u.cacheWrite;
}

describe("the window the provider receives", () => {
	it("is classified by the observer exactly as an independent byte comparison classifies it", async () => {
		const h = await createHarness();
		h.script([
			callProbes("a", "b", "c"),
			...["d", "e", "f", "g", "h", "i"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_c", brief: "Three parallel probes, all lorem ipsum." }),
			callProbes("j"),
			() => callTool({ action: "expand", id: foldIds(h)[0] as string }),
			callProbes("k"),
			() => callTool({ action: "refold", id: foldIds(h)[0] as string }),
			say("done"),
		]);
		await h.run("go");
		const observed = h.runtime.telemetry.view().observations;
		expect(observed).toHaveLength(h.requests.length);
		for (let i = 1; i < h.requests.length; i++) {
			const rel = requestRelation(h.requests[i - 1] as RecordedRequest, h.requests[i] as RecordedRequest);
			const obs = observed[i];
			expect(obs?.kind, `request ${i}`).toBe(rel.kind);
			if (rel.kind === "rewrite") {
				expect(obs?.firstDivergent).toBe(rel.firstDivergence);
				expect(obs?.commitSeq).not.toBeNull();
			}
		}
		const counts = h.runtime.telemetry.view().counters;
		expect(counts.rewrites).toBe(3);
		expect(counts.unattributedRewrites).toBe(0);
		expect(counts.providerCacheMisses).toBe(0);
		// Every request keeps its calls paired with their results.
		for (const request of h.requests) expect(pairingProblems(request.messages)).toEqual([]);
	});

	it("counts a rewrite that starts before the commit's first edit as unattributed, though a commit landed with it", async () => {
		let harness: Harness | null = null;
		let tampered = false;
		const h = await createHarness({
			// Another extension rewrites the opening user message on the one request that carries pi-fold's commit.
			setup: (pi) =>
				pi.on("context", (event) => {
					if (!harness || tampered || harness.runtime.sync(harness.host()).commitSeq === 0) return undefined;
					tampered = true;
					const [first, ...rest] = event.messages;
					return { messages: [{ ...first, content: [{ type: "text", text: "go, changed" }] }, ...rest] as never };
				}),
		});
		harness = h;
		h.script([
			...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b" }),
			...["h", "i"].map((k) => callProbes(k)),
			say("done"),
		]);
		await h.run("go");
		expect(tampered).toBe(true);
		const rewrites = h.runtime.telemetry.view().observations.filter((o) => o.kind === "rewrite");
		// The tampered request diverges at the user message (index 1, after the system head), before the
		// fold's first edit; the next request, untampered, diverges there again with no commit at all.
		expect(rewrites.map((o) => [o.firstDivergent, o.cause])).toEqual([
			[1, null],
			[1, null],
		]);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(2);
	});

	it("reads the whole previous prompt from cache on every request between commits", async () => {
		const h = await createHarness();
		h.script([
			...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b" }),
			...["h", "i", "j"].map((k) => callProbes(k)),
			say("done"),
		]);
		await h.run("go");
		const kinds = h.runtime.telemetry.view().observations.map((o) => o.kind);
		kinds.forEach((kind, i) => {
			if (i === 0 || kind !== "append") return;
			const request = h.requests[i] as RecordedRequest;
			expect(request.usage?.cacheRead, `request ${i}`).toBe(prompt(h.requests[i - 1] as RecordedRequest));
		});
		expect(kinds.filter((k) => k === "rewrite")).toHaveLength(1);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});

	it("folds a batch of parallel calls with every call still paired to its result", async () => {
		const h = await createHarness();
		h.script([
			callProbes("a", "b", "c", "d"),
			...["e", "f", "g", "h", "i", "j"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_b", to: "call_b" }),
			say("done"),
		]);
		await h.run("go");
		expect(toolTexts(h)[0]).toMatch(/^Folded f[0-9a-f]{16} \(tools, 5 entries/);
		const last = h.requests.at(-1) as RecordedRequest;
		expect(pairingProblems(last.messages)).toEqual([]);
		const calls = conversation(last).flatMap((m) =>
			m.role === "assistant" ? m.content.filter((b) => b.type === "toolCall").map((b) => b.id) : [],
		);
		expect(calls).not.toContain("call_a");
		expect(conversation(last).some((m) => m.role === "toolResult" && m.toolCallId === "call_a")).toBe(false);
	});
});

describe("the fold store", () => {
	it("refuses a tampered blob by name and both digests, and nothing unverified enters the window", async () => {
		const h = await createHarness();
		let storeDir = "";
		h.script([
			...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b" }),
			() => {
				const fold = h.runtime.snapshot(h.host()).state.folds.values().next().value;
				if (!fold) throw new Error("no fold");
				storeDir = (h.runtime.store(h.host()) as unknown as { dir: string }).dir;
				tamperBlob(
					storeDir,
					fold.sourceSha256,
					fold.sourceSha256.length > 0 ? '{"id":"x","message":{"role":"user","content":"forged"}}\n' : "",
				);
				return callTool({ action: "expand", id: fold.id }, { action: "peek", id: fold.id });
			},
			say("done"),
		]);
		await h.run("go");
		const [, expand, peek] = toolTexts(h);
		const id = foldIds(h)[0] as string;
		const sha = h.runtime.snapshot(h.host()).state.folds.get(id)?.sourceSha256 as string;
		expect(expand).toMatch(/^expand refused: /);
		expect(expand).toContain(id);
		expect(expand).toContain(sha);
		expect(peek).toMatch(/^peek refused: /);
		expect(h.runtime.snapshot(h.host()).state.expanded.size).toBe(0);
		const after = h.requests.slice(-1)[0] as RecordedRequest;
		expect(relation(h.requests.at(-2) as RecordedRequest, after).kind).toBe("append");
		expect(JSON.stringify(after.messages)).not.toContain("forged");
	});

	it("pages contiguously through a large fold with peek, never touching the window", async () => {
		const h = await createHarness();
		const pages: { text: string; start: number; end: number; total: number }[] = [];
		const pageStep = () => {
			const id = foldIds(h)[0] as string;
			const offset = pages.at(-1)?.end ?? 0;
			return callTool({ action: "peek", id, offset, bytes: 3000 });
		};
		h.script([
			callProbes("big1", "big2"),
			...["c", "d", "e", "f", "g", "h"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_big1", to: "call_big2" }),
			...Array.from({ length: 6 }, () => pageStep),
			say("done"),
		]);
		h.session.subscribe((event) => {
			if (event.type !== "tool_execution_end" || event.toolName !== "active_context") return;
			const details = (
				event.result as { details?: { action?: string; start: number; end: number; totalBytes: number } }
			).details;
			const text = (event.result as { content: { text: string }[] }).content[0]?.text ?? "";
			if (details?.action !== "peek") return;
			const body = text.slice(text.indexOf("\n") + 1, text.lastIndexOf("\n"));
			pages.push({ text: body, start: details.start, end: details.end, total: details.totalBytes });
		});
		await h.run("go");
		const fold = h.runtime.snapshot(h.host()).state.folds.values().next().value;
		const source = await h.runtime.store(h.host()).read(fold?.sourceSha256 as string, "test");
		const total = Buffer.byteLength(source);
		const done = pages.filter((p) => p.start < total);
		expect(done.length).toBeGreaterThan(3);
		done.forEach((p, i) => {
			expect(p.start).toBe(i === 0 ? 0 : done[i - 1]?.end);
		});
		expect(done.at(-1)?.end).toBe(total);
		expect(done.map((p) => p.text).join("")).toBe(source);
		// Peeks never rewrite the window: only the fold's own commit did.
		expect(h.runtime.telemetry.view().counters.rewrites).toBe(1);
	});
});
