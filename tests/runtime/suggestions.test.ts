import { describe, expect, it, vi } from "vitest";
import type { FoldRecord } from "../../src/lattice/index.ts";
import type { SuggestionSource } from "../../src/options/index.ts";
import { projectionCandidates } from "../../src/projection/index.ts";
import {
	parseSuggestionAccept,
	RENDERS_SUGGESTIONS,
	type SuggestionAcceptRecord,
	SuggestionRegistry,
	suggestionAcceptEntryType,
} from "../../src/runtime/suggestions.ts";

function source(id: string) {
	const suggest = vi.fn(() => [{ foldId: "f1", score: 0.9 }]);
	return { id, suggest } satisfies SuggestionSource;
}

function registry() {
	const written: SuggestionAcceptRecord[] = [];
	return { written, reg: new SuggestionRegistry({ write: (r) => written.push(r) }) };
}

describe("suggestion sources", () => {
	it("register, list and unregister (idempotently); duplicate ids are refused", () => {
		const { reg } = registry();
		const a = source("slate");
		const b = source("other");
		const offA = reg.register(a);
		reg.registrar(b);
		expect(reg.sources()).toEqual([a, b]);
		expect(() => reg.register(source("slate"))).toThrow(/already registered/);
		offA();
		offA();
		expect(reg.sources()).toEqual([b]);
		reg.register(source("slate"));
		expect(reg.sources().map((s) => s.id)).toEqual(["other", "slate"]);
		expect(() => reg.register({ id: "", suggest: () => [] })).toThrow(TypeError);
		expect(() => reg.register({ id: "x" } as unknown as SuggestionSource)).toThrow(TypeError);
	});

	it("persist accept reports through the runtime's writer, replayable under a derived entry type", () => {
		const { reg, written } = registry();
		reg.register(source("slate"));
		const record = reg.recordAccept({ sourceId: "slate", foldId: "f0123", action: "expand", score: 0.5 });
		expect(record).toEqual({
			v: 1,
			kind: "suggestion-accept",
			sourceId: "slate",
			foldId: "f0123",
			action: "expand",
			score: 0.5,
		});
		reg.recordAccept({ sourceId: "slate", foldId: "f4", action: "peek" });
		expect(written).toHaveLength(2);
		expect(written[1]?.score).toBeNull();
		expect(() => reg.recordAccept({ sourceId: "ghost", foldId: "f1", action: "peek" })).toThrow(/not registered/);
		expect(() => reg.recordAccept({ sourceId: "slate", foldId: "f1", action: "fold" as "peek" })).toThrow(/action/);
		expect(written).toHaveLength(2);
		const resumed = new SuggestionRegistry({ write: () => {}, replayed: JSON.parse(JSON.stringify(written)) });
		expect(resumed.accepts()).toEqual(written);
		expect(() => parseSuggestionAccept({ ...record, v: 2 })).toThrow(/v/);
		expect(suggestionAcceptEntryType("pi-fold-active-context")).toBe("pi-fold-active-context:suggestion-accept");
	});

	it("render nothing: a registered source is never asked to suggest and no output changes", () => {
		expect(RENDERS_SUGGESTIONS).toBe(false);
		const record: FoldRecord = {
			id: "f1",
			kind: "tools",
			origin: "ladder",
			leafIds: ["e1"],
			sourceSha256: "a".repeat(64),
			sourceBytes: 4000,
			brief: "read of src/a.ts",
			briefSource: "deterministic",
		};
		const input = {
			folds: [{ record, collapsedVisible: true }],
			toolName: "active_context",
			estimateTokens: (t: string) => t.length / 4,
			placeholderText: (id: string) => `[${id}]`,
		};
		const before = JSON.stringify(projectionCandidates(input));
		const { reg, written } = registry();
		const s = source("slate");
		reg.register(s);
		reg.sources();
		reg.recordAccept({ sourceId: "slate", foldId: "f1", action: "peek" });
		expect(JSON.stringify(projectionCandidates(input))).toBe(before);
		expect(s.suggest).not.toHaveBeenCalled();
		// the registry's only output is the accept record handed to the writer (a custom entry)
		expect(written).toHaveLength(1);
		const surface = Object.getOwnPropertyNames(SuggestionRegistry.prototype).sort();
		expect(surface).toEqual(["accepts", "constructor", "recordAccept", "register", "sources"]);
	});
});
