// Suggestion sources never reach the model: in a real Pi session, a source registered through
// `setSuggestionSourceRegistrar` that would offer every fold it is shown is never asked, and every
// request (its system messages, which carry the prompt and the tool declarations, and the
// conversation) is what the same session sends with no source registered; between commits each
// request is a pure append of the one before.

import { afterAll, describe, expect, it, vi } from "vitest";
import type { SuggestionSource } from "../../src/options/index.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	messageBytes,
	type RecordedRequest,
	relation,
	say,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const MARK = "SUGGESTED-BY-SLATE-7f3a";

/** A source that would offer every fold it is shown, under an id no request could hold by chance. */
function slate() {
	const suggest = vi.fn((input: { readonly foldIds: readonly string[] }) =>
		input.foldIds.map((foldId) => ({ foldId, score: 0.8125 })),
	);
	return { id: MARK, suggest } satisfies SuggestionSource;
}

/** One session's run: a fold, an expand and a refold among probe calls. */
async function session(source?: SuggestionSource): Promise<{ h: Harness; registered: boolean }> {
	let registered = false;
	const h = await createHarness(
		source
			? {
					options: {
						setSuggestionSourceRegistrar: (register) => {
							register(source);
							registered = true;
						},
					},
				}
			: {},
	);
	const firstFold = () => [...h.runtime.snapshot(h.host()).state.folds.keys()][0] as string;
	h.script([
		callProbes("a", "b"),
		...["c", "d", "e", "f", "g", "h"].map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_a", to: "call_c", brief: "Three probes, all lorem ipsum." }),
		callProbes("i"),
		() => callTool({ action: "expand", id: firstFold() }),
		callProbes("j"),
		() => callTool({ action: "refold", id: firstFold() }),
		say("done"),
	]);
	await h.run("go");
	return { h, registered };
}

/** A request as sent: every message as JSON, the system messages (prompt, tool declarations) included. */
const sent = (request: RecordedRequest) => request.messages.map(messageBytes).join("\n");

/**
 * The same, with what differs between two runs of one script blanked: the session's temp folder
 * (the system prompt names the cwd), the faux provider instance's api name, hex (fold handles, entry ids and digests derive from Pi's
 * random entry ids) and numbers (timestamps; a fold's source size holds those ids). Any added word,
 * field or message still shows.
 */
const shape = (request: RecordedRequest) =>
	sent(request)
		.replace(/pi-fold-runtime-\w+/g, "<temp>")
		.replace(/"api":"faux:[^"]*"/g, '"api":"faux"')
		.replace(/\b[0-9a-f]{8,}\b/g, "#")
		.replace(/\d[\d,.]*/g, "N");

describe("a registered suggestion source", () => {
	it("never changes what the model is sent: not asked, not shown, requests as without it and pure appends", async () => {
		const source = slate();
		const offered = await session(source);
		const plain = await session();
		expect(offered.registered).toBe(true);
		expect(offered.h.runtime.snapshot(offered.h.host()).state.folds.size).toBeGreaterThan(0);
		expect(source.suggest).not.toHaveBeenCalled();

		const { requests } = offered.h;
		expect(requests.length).toBe(plain.h.requests.length);
		expect(sent(requests[0] as RecordedRequest)).toContain('"name":"active_context"'); // tools are in what is compared
		requests.forEach((request, i) => {
			expect(sent(request), `request ${i}`).not.toContain(MARK);
			expect(sent(request), `request ${i}`).not.toContain("0.8125");
			expect(shape(request), `request ${i}`).toBe(shape(plain.h.requests[i] as RecordedRequest));
		});

		// Between commits every request is the previous one plus appended messages: the rewrites are
		// the fold, the expand and the refold, exactly as without a source.
		const kinds = (h: Harness) => h.requests.slice(1).map((r, i) => relation(h.requests[i] as RecordedRequest, r).kind);
		expect(kinds(offered.h).filter((k) => k === "rewrite")).toHaveLength(3);
		expect(kinds(offered.h)).toEqual(kinds(plain.h));
	});
});
