import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	canonicalJson,
	DEFAULT_READ_ONLY_TOOLS,
	FRESH_TAIL_MAX_TOKENS,
	FRESH_TAIL_MIN_UNITS,
	FRESH_TAIL_UNITS,
	freshTailStart,
	isReadOnlyBatch,
	runningTurnStart,
	toChapters,
	toUnits,
} from "../../src/transcript/index.ts";
import { readBatch, reply, toolResult, toolUse, user } from "../helpers/entries.ts";

describe("transcript units", () => {
	it("keeps an assistant tool-use message and all its results in one tool batch", () => {
		const units = toUnits([user("u1", "go"), ...readBatch("b1", ["a.ts", "b.ts"]), reply("a1", "done")]);
		expect(units.map((u) => u.kind)).toEqual(["user", "toolBatch", "assistant"]);
		expect(units[1]?.entryIds).toEqual(["b1-use", "b1-r0", "b1-r1"]);
		expect(units[1]?.toolNames).toEqual(["read", "read"]);
		expect(units[1]?.complete).toBe(true);
	});

	it("marks a batch whose results are still missing as incomplete", () => {
		const entries = [
			user("u1", "go"),
			toolUse("t1", [
				{ id: "c1", name: "read" },
				{ id: "c2", name: "read" },
			]),
			toolResult("r1", "c1", "read", "x"),
		];
		const units = toUnits(entries);
		expect(units[1]?.complete).toBe(false);
		expect(units[1]?.entryIds).toEqual(["t1", "r1"]);
	});

	it("treats a result whose call is not in the transcript as an orphan unit", () => {
		const units = toUnits([user("u1", "go"), toolResult("r1", "gone", "read", "x")]);
		expect(units.map((u) => u.kind)).toEqual(["user", "orphan"]);
	});

	it("covers every entry exactly once, in order", () => {
		const entries = [
			user("u1", "a"),
			...readBatch("b1", ["x"]),
			reply("a1", "b"),
			user("u2", "c"),
			...readBatch("b2", ["y", "z"]),
		];
		const ids = toUnits(entries).flatMap((u) => u.entryIds);
		expect(ids).toEqual(entries.map((e) => e.id));
	});
});

describe("chapters", () => {
	it("closes a chapter once the next user message exists", () => {
		const units = toUnits([
			user("u1", "a"),
			...readBatch("b1", ["x"]),
			reply("a1", "b"),
			user("u2", "c"),
			reply("a2", "d"),
		]);
		const chapters = toChapters(units);
		expect(chapters.map((c) => [c.startUnit, c.endUnit, c.closed])).toEqual([
			[0, 3, true],
			[3, 5, false],
		]);
	});

	it("keeps a chapter open while one of its tool batches is incomplete", () => {
		const units = toUnits([user("u1", "a"), toolUse("t1", [{ id: "c1", name: "read" }]), user("u2", "b")]);
		expect(toChapters(units)[0]?.closed).toBe(false);
	});
});

describe("the fresh tail", () => {
	const long = Array.from({ length: 12 }, (_, i) => readBatch(`b${i}`, [`f${i}`])).flat();
	const units = toUnits([user("u1", "go"), ...long]);

	it("protects the newest units on a large window", () => {
		expect(freshTailStart(units, 1_000_000)).toBe(units.length - FRESH_TAIL_UNITS);
	});

	it("holds at most a quarter of the budget (at 4 characters a token)", () => {
		const newest = (n: number) => units.slice(-n).reduce((sum, u) => sum + u.chars, 0);
		// A budget whose quarter, in characters, is exactly the newest four units: those four stay.
		expect(freshTailStart(units, newest(4))).toBe(units.length - 4);
		expect(freshTailStart(units, newest(4) - 1)).toBe(units.length - 3);
		expect(freshTailStart(units, newest(6))).toBe(units.length - 6);
	});

	it("holds at most FRESH_TAIL_MAX_TOKENS however large the window", () => {
		// Six big tool batches of 8,000 tokens each (32,000 characters): on a 1M window the quarter
		// would keep all six (48,000 tokens); the cap keeps the newest two (16,000).
		const big = Array.from({ length: 8 }, (_, i) => readBatch(`g${i}`, [`h${i}`], () => "x".repeat(32_000))).flat();
		const bigUnits = toUnits([user("u1", "go"), ...big]);
		const start = freshTailStart(bigUnits, 1_000_000);
		const held = bigUnits.slice(start).reduce((sum, u) => sum + u.chars, 0) / 4;
		expect(held).toBeLessThanOrEqual(FRESH_TAIL_MAX_TOKENS);
		expect(bigUnits.length - start).toBe(2);
		// The same batches on a 100k window (a quarter is 25,000): the token cap binds first there too.
		expect(freshTailStart(bigUnits, 100_000)).toBe(start);
	});

	it("shrinks on a small window but never below the minimum", () => {
		expect(freshTailStart(units, 10)).toBe(units.length - FRESH_TAIL_MIN_UNITS);
	});

	it("finds the user message that opened the running turn", () => {
		expect(runningTurnStart(units)).toBe(0);
	});
});

describe("read-only batches", () => {
	it("classifies a complete batch of read-only calls only", () => {
		const [readOnly] = toUnits(readBatch("b", ["x"]));
		const [edit] = toUnits([toolUse("t", [{ id: "c", name: "edit" }]), toolResult("r", "c", "edit", "ok")]);
		const [open] = toUnits([toolUse("t2", [{ id: "c2", name: "read" }])]);
		expect(readOnly && isReadOnlyBatch(readOnly, DEFAULT_READ_ONLY_TOOLS)).toBe(true);
		expect(edit && isReadOnlyBatch(edit, DEFAULT_READ_ONLY_TOOLS)).toBe(false);
		expect(open && isReadOnlyBatch(open, DEFAULT_READ_ONLY_TOOLS)).toBe(false);
	});
});

describe("canonical JSON", () => {
	it("does not depend on key insertion order", () => {
		fc.assert(
			fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
				const reversed = Object.fromEntries(Object.entries(record).reverse());
				expect(canonicalJson(reversed)).toBe(canonicalJson(record));
				expect(JSON.parse(canonicalJson(record))).toEqual(JSON.parse(JSON.stringify(record)));
			}),
		);
	});
});
