// The suggestion registry: sources register, list and unregister, accept reports persist through
// the runtime's writer and replay, and no source is ever asked for a suggestion.

import { describe, expect, it, vi } from "vitest";
import type { SuggestionSource } from "../../src/options/index.ts";
import {
	parseSuggestionAccept,
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

	it("never ask a source: registering, listing and accept reports leave suggest uncalled", () => {
		const { reg, written } = registry();
		const s = source("slate");
		reg.register(s);
		reg.sources();
		reg.recordAccept({ sourceId: "slate", foldId: "f1", action: "peek" });
		expect(s.suggest).not.toHaveBeenCalled();
		// the registry's only output is the accept record handed to the writer (a custom entry); what
		// the model is sent with a source registered: tests/pi/suggestions.test.ts
		expect(written).toHaveLength(1);
	});
});
