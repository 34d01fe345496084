// Options validated against the session they run in (issue 11, item 6), in real Pi sessions: a
// toolName that is already a tool of the session (Pi's built-in, a host tool, another extension's)
// replaces nothing and is reported once; a window below one request's floor is reported once with
// the option's name and the floor; a callback option that throws is reported once, naming it, and
// the session goes on.

import { Type } from "typebox";
import { afterAll, describe, expect, it } from "vitest";
import { REQUEST_FLOOR_TAIL_TOKENS } from "../../src/pi/option-checks.ts";
import {
	allNotices,
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	say,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

function optionNotices(h: Harness, since: number, option: string): string[] {
	return h.notices.slice(since).filter((n) => n.startsWith(`[pi-fold] pi-fold option ${option}`));
}

describe("a toolName that is already a tool of the session", () => {
	it("does not replace Pi's built-in read, and says so once", async () => {
		const since = allNotices.length;
		const h = await createHarness({ tools: ["probe", "read"], options: { toolName: "read" } });
		const read = h.session.getAllTools().find((t) => t.name === "read");
		expect(read?.sourceInfo.source).toBe("builtin");
		expect(JSON.stringify(read?.parameters)).not.toContain('"action"');
		const told = optionNotices(h, since, "toolName");
		expect(told).toHaveLength(1);
		expect(told[0]).toMatch(
			/toolName "read" is already Pi's built-in tool read \(builtin:read\): pi-fold did not register/,
		);
		h.script([callProbes("a"), say("done")]);
		await h.run("go");
		expect(optionNotices(h, since, "toolName")).toHaveLength(1);
	});

	it("does not replace a tool the host passed to Pi", async () => {
		const since = allNotices.length;
		const h = await createHarness({ options: { toolName: "probe" } });
		expect(JSON.stringify(h.session.getAllTools().find((t) => t.name === "probe")?.parameters)).toContain('"key"');
		expect(optionNotices(h, since, "toolName")[0]).toMatch(/toolName "probe" is already a tool the host passed to Pi/);
	});

	it("does not replace another extension's tool of that name", async () => {
		const since = allNotices.length;
		const h = await createHarness({
			setup: (pi) =>
				pi.registerTool({
					name: "active_context",
					label: "someone else's",
					description: "another extension's tool",
					parameters: Type.Object({ other: Type.String() }),
					execute: async () => ({ content: [{ type: "text", text: "theirs" }], details: {} }),
				}),
		});
		const mine = h.session.getAllTools().find((t) => t.name === "active_context");
		expect(mine?.description).toBe("another extension's tool");
		expect(optionNotices(h, since, "toolName")[0]).toMatch(/toolName "active_context" is already a tool of /);
		h.script([callTool({ other: "x" }), say("done")]);
		await h.run("go");
		expect(toolTexts(h).at(-1)).toBe("theirs");
	});

	it("registers the tool when the name is free", async () => {
		const h = await createHarness();
		expect(JSON.stringify(h.session.getAllTools().find((t) => t.name === "active_context")?.parameters)).toContain(
			'"action"',
		);
	});
});

describe("a window smaller than one request can need", () => {
	it("is reported once, naming providerTotalWindow and the floor", async () => {
		const since = allNotices.length;
		const h = await createHarness({ options: { providerTotalWindow: 4_096 } });
		h.script([say("one"), say("two")]);
		await h.run("first").catch(() => undefined);
		await h.run("second").catch(() => undefined);
		const told = optionNotices(h, since, "providerTotalWindow");
		expect(told).toHaveLength(1);
		expect(told[0]).toMatch(
			/providerTotalWindow 4,096 leaves a serving budget of 1 token \(less 4,095 kept for the reply\)/,
		);
		expect(told[0]).toMatch(
			new RegExp(`plus ${REQUEST_FLOOR_TAIL_TOKENS.toLocaleString("en-US")} tokens of fresh tail`),
		);
	});

	it("is not reported for a window that fits", async () => {
		const since = allNotices.length;
		const h = await createHarness({ options: { providerTotalWindow: 64_000 } });
		h.script([say("one")]);
		await h.run("first");
		expect(optionNotices(h, since, "providerTotalWindow")).toEqual([]);
	});
});

describe("a callback option that throws", () => {
	it("setProjectionProvider and setSuggestionSourceRegistrar: reported once each, and pi-fold still loads", async () => {
		const since = allNotices.length;
		const h = await createHarness({
			options: {
				setProjectionProvider: () => {
					throw new Error("no projection today");
				},
				setSuggestionSourceRegistrar: () => {
					throw new Error("no suggestions either");
				},
			},
		});
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		expect(toolTexts(h).at(-1)).toMatch(/^Folds: none yet · /);
		expect(optionNotices(h, since, "setProjectionProvider")).toEqual([
			"[pi-fold] pi-fold option setProjectionProvider threw: no projection today; the host has no projection provider",
		]);
		expect(optionNotices(h, since, "setSuggestionSourceRegistrar")).toHaveLength(1);
	});

	it("summarizeContextSpan: reported once, naming the option, and the brief falls back", async () => {
		const since = allNotices.length;
		let calls = 0;
		const h = await createHarness({
			contextWindow: 16_000,
			options: {
				readOnlyTools: new Set<string>(),
				summarizeContextSpan: async () => {
					calls++;
					throw new Error("summary service down");
				},
			},
		});
		h.script([
			callProbes("big1"),
			callProbes("big2"),
			say("first part done"),
			...Array.from({ length: 10 }, (_, i) => callProbes(`big${i + 3}`)),
			say("done"),
		]);
		await h.run("first");
		await h.run("second");
		expect(calls).toBeGreaterThan(0);
		const chapter = [...h.runtime.snapshot(h.host()).state.folds.values()].find((f) => f.kind === "chapter");
		expect(chapter?.briefSource).toBe("deterministic");
		expect(optionNotices(h, since, "summarizeContextSpan")).toEqual([
			"[pi-fold] pi-fold option summarizeContextSpan threw: summary service down; briefs fall back to the deterministic brief",
		]);
	});
});
