import { describe, expect, it } from "vitest";
import { derivedNames, OptionsError, resolveOptions } from "../../src/options/index.ts";
import { DEFAULT_READ_ONLY_TOOLS } from "../../src/transcript/index.ts";

describe("pi-fold options", () => {
	it("fills every default from the spec's configuration table", () => {
		const o = resolveOptions();
		expect(o).toMatchObject({
			toolName: "active_context",
			toolLabel: "Active Context",
			brandNoun: "active-context",
			entryTypePrefix: "pi-fold-active-context",
			commandNames: { status: "context", fold: "fold-context" },
			summarizer: "session",
			foldScheduling: "cost",
			keepRawTokens: 10_000,
			foldPeekResults: true,
			evidenceIngestion: true,
		});
		expect(o.toolActions).toEqual([
			"status",
			"peek",
			"search",
			"fold",
			"expand",
			"refold",
			"protect",
			"unprotect",
			"rebrief",
			"reboundary",
			"unmark",
		]);
		expect(o.readOnlyTools).toBe(DEFAULT_READ_ONLY_TOOLS);
	});

	it("refuses the removed blockingTools and isMcpTool by name, saying why and what to do", () => {
		expect(() => resolveOptions({ blockingTools: ["Agent"] })).toThrow(
			/blockingTools was removed: Pi appends context edits only at turn boundaries.*Remove the setting/,
		);
		expect(() => resolveOptions({ isMcpTool: () => true })).toThrow(/isMcpTool was removed: .*Remove the option/);
		expect(resolveOptions()).not.toHaveProperty("blockingTools");
	});

	it("offers unmark and folds peek results by default where a fold is a pending mark (epoch, cost)", () => {
		for (const foldScheduling of ["epoch", "cost"] as const) {
			const o = resolveOptions({ foldScheduling });
			expect(o.toolActions).toContain("unmark");
			expect(o.foldPeekResults).toBe(true);
		}
		const immediate = resolveOptions({ foldScheduling: "immediate" });
		expect(immediate.toolActions).not.toContain("unmark");
		expect(immediate.foldPeekResults).toBe(false);
	});

	it("takes a price table and a cache lifetime, and refuses negative prices by name", () => {
		const o = resolveOptions({
			prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
			cacheTtlMs: 300_000,
		});
		expect(o.prices?.cacheRead).toBe(0.3);
		expect(o.cacheTtlMs).toBe(300_000);
		expect(() => resolveOptions({ prices: { input: -1, output: 1, cacheRead: 1, cacheWrite: 1 } })).toThrow(
			/prices\.input: /,
		);
	});

	it("rejects an unknown option and lists the valid names", () => {
		expect(() => resolveOptions({ toolname: "x" })).toThrow(OptionsError);
		expect(() => resolveOptions({ toolname: "x" })).toThrow(
			/unknown option toolname \(valid options: toolName, toolLabel, .*setSuggestionSourceRegistrar\)/,
		);
	});

	it("names the field and the rule when a value is wrong", () => {
		expect(() => resolveOptions({ foldScheduling: "lazy" })).toThrow(/foldScheduling: /);
		expect(() => resolveOptions({ commandNames: { status: "Context" } })).toThrow(
			/commandNames\.status: must be kebab-case/,
		);
		expect(() => resolveOptions({ summarizer: "deterministic", summarizeContextSpan: async () => ({}) })).toThrow(
			/cannot be combined with summarizer/,
		);
		expect(() => resolveOptions({ foldScheduling: "immediate", toolActions: ["unmark"] })).toThrow(
			/unmark is not available with foldScheduling: "immediate"/,
		);
		expect(() => resolveOptions({ commandNames: { status: "x", fold: "x" } })).toThrow(/must differ/);
	});

	it("derives command names from the prefix, with overrides taking precedence", () => {
		expect(resolveOptions({ commandPrefix: "pf--" }).commandNames).toEqual({
			status: "pf-context",
			fold: "pf-fold-context",
		});
		expect(resolveOptions({ commandPrefix: "pf", commandNames: { fold: "squash" } }).commandNames).toEqual({
			status: "pf-context",
			fold: "squash",
		});
	});

	it("derives every durable name from entryTypePrefix", () => {
		expect(derivedNames(resolveOptions({ entryTypePrefix: "acme-ctx" })).decisionEntryType).toBe("acme-ctx:decision");
	});
});
