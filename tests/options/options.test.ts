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
			foldScheduling: "immediate",
			foldPeekResults: false,
			blockingTools: ["Agent"],
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
		]);
		expect(o.readOnlyTools).toBe(DEFAULT_READ_ONLY_TOOLS);
		expect(o.isMcpTool("mcp__x__y")).toBe(false);
	});

	it("offers unmark and folds peek results by default under epoch scheduling", () => {
		const o = resolveOptions({ foldScheduling: "epoch" });
		expect(o.toolActions).toContain("unmark");
		expect(o.foldPeekResults).toBe(true);
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
		expect(() => resolveOptions({ toolActions: ["unmark"] })).toThrow(/only available with foldScheduling: "epoch"/);
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
